// The OpenAPI descriptions in the browser: the core's wasm does not carry
// them; the worker fetches kubesandbox-docs.json (shipped beside
// kubesandbox.wasm) the first time an OpenAPI document is asked for, and
// the documents then carry the real server's documentation, as they do
// natively (core/openapi's TestDescriptions; kubectl explain in the
// playground's kubectl: kubectl/testdata/commands.json, run by
// kubectl.test.mjs). Run: make web-dist static-server, then
// node --test tests/browser/openapi-docs.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openSandbox, api } from './lib.mjs';

const env = useBrowser();

test('/openapi/v3 documents carry the descriptions, loaded beside the wasm', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const root = await api(page, 'GET', '/openapi/v3');
  assert.equal(root.status, 200);
  const link = root.body.paths['apis/apps/v1'].serverRelativeURL;
  assert.match(link, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
  const doc = await api(page, 'GET', link);
  assert.equal(doc.status, 200);
  const schemas = doc.body.components.schemas;
  assert.equal(schemas['io.k8s.api.apps.v1.DeploymentStrategy'].description,
    'DeploymentStrategy describes how to replace existing pods with new ones.');
  assert.deepEqual(schemas['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy, {
    allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }],
    default: {},
    description: 'The deployment strategy to use to replace existing pods with new ones.',
    'x-kubernetes-patch-strategy': 'retainKeys',
  });
  assert.deepEqual(schemas['io.k8s.api.apps.v1.DeploymentStrategy'].properties.type.enum, ['Recreate', 'RollingUpdate']);
  // the root links the documents as served: asked again, the same hash
  const again = await api(page, 'GET', '/openapi/v3');
  assert.equal(again.body.paths['apis/apps/v1'].serverRelativeURL, link);
  assert.ok((await env.server.requests()).includes('/web/kubesandbox-docs.json'), 'the descriptions came from beside the wasm');
  await page.close();
});

test('/openapi/v2 carries them too', async () => {
  const page = await openSandbox(env.browser.context, env.server.url);
  const doc = await api(page, 'GET', '/openapi/v2');
  assert.equal(doc.status, 200);
  assert.deepEqual(doc.body.definitions['io.k8s.api.core.v1.Container'].properties.lifecycle, {
    $ref: '#/definitions/io.k8s.api.core.v1.Lifecycle',
    description: 'Actions that the management system should take in response to container lifecycle events. Cannot be updated.',
  });
  assert.deepEqual(doc.body.definitions['io.k8s.api.core.v1.Container'].required, ['name']);
  await page.close();
});
