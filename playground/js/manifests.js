// The Terminal tab's ready manifests: the objects the playground's scenarios
// create (each scenario step that POSTs a named object), one file per kind,
// as YAML, so that `kubectl apply -f deployment.yaml` works at once. The
// first object of each kind in the scenario index's order wins; {{ns}} is
// filled with "default" (the namespace kubectl uses), steps still holding a
// {{variable}} (generated names) are skipped.
//
//   const files = await readyManifests();   // {'configmap.yaml': 'apiVersion: v1\n…', 'deployment.yaml': …}
import { fill } from './scenario.js';
import { stringify } from './yaml.js';

const BASE = new URL('../scenarios/', import.meta.url);
let cache = null;

/** readyManifests resolves to {fileName: yamlText}, fetched once ({} when the scenarios cannot be read). */
export function readyManifests() {
  cache = cache || collect().catch(() => { cache = null; return {}; });
  return cache;
}

async function collect() {
  const json = async (name) => {
    const r = await fetch(new URL(name, BASE));
    if (!r.ok) throw new Error(`${name}: HTTP ${r.status}`);
    return r.json();
  };
  const scenarios = await Promise.all((await json('index.json')).map(({ id }) => json(`${id}.json`)));
  const files = {};
  for (const s of scenarios) {
    for (const step of s.steps || []) {
      if (step.method !== 'POST' || !step.body || !step.body.kind || !step.body.metadata || !step.body.metadata.name) continue;
      const body = fill(step.body, { ns: 'default' });
      const name = `${body.kind.toLowerCase()}.yaml`;
      if (name in files || JSON.stringify(body).includes('{{')) continue;
      files[name] = stringify(body);
    }
  }
  return Object.fromEntries(Object.keys(files).sort().map((k) => [k, files[k]]));
}
