package openapi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
)

// TestDescriptions checks the documentation of built-in definitions
// against what kube-apiserver v1.37.2 serves (the wanted values are copied
// from its /openapi/v2 and /openapi/v3 documents): descriptions of
// definitions, of properties (a documented reference takes the allOf form
// in v3, $ref with siblings in v2), of the built-in list kinds, and the
// published enums and required lists kubectl explain prints.
func TestDescriptions(t *testing.T) {
	rs := builtin.Resources()
	apps, _ := V3GroupVersion(rs, "apis/apps/v1")
	core, _ := V3GroupVersion(rs, "api/v1")
	v3 := map[string]any{"apps": decode(t, apps), "core": decode(t, core)}
	v2doc := decode(t, V2(rs))
	for _, tc := range []struct {
		name string
		doc  any
		path []string
		want string
	}{
		{"v3 definition", v3["apps"], []string{"components", "schemas", "io.k8s.api.apps.v1.DeploymentStrategy", "description"},
			`"DeploymentStrategy describes how to replace existing pods with new ones."`},
		{"v3 documented reference", v3["apps"], []string{"components", "schemas", "io.k8s.api.apps.v1.DeploymentSpec", "properties", "strategy"},
			`{"allOf":[{"$ref":"#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy"}],"default":{},"description":"The deployment strategy to use to replace existing pods with new ones.","x-kubernetes-patch-strategy":"retainKeys"}`},
		{"v3 list kind", v3["apps"], []string{"components", "schemas", "io.k8s.api.apps.v1.DeploymentList", "description"},
			`"DeploymentList is a list of Deployments."`},
		{"v3 list metadata", v3["apps"], []string{"components", "schemas", "io.k8s.api.apps.v1.DeploymentList", "properties", "metadata"},
			`{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}],"default":{},"description":"Standard list metadata."}`},
		{"v3 required", v3["core"], []string{"components", "schemas", "io.k8s.api.core.v1.Container", "required"}, `["name"]`},
		{"v3 enum", v3["core"], []string{"components", "schemas", "io.k8s.api.core.v1.Container", "properties", "imagePullPolicy", "enum"},
			`["Always","IfNotPresent","Never"]`},
		{"v3 items enum", v3["core"], []string{"components", "schemas", "io.k8s.api.core.v1.PersistentVolumeClaimSpec", "properties", "accessModes", "items", "enum"},
			`["ReadOnlyMany","ReadWriteMany","ReadWriteOnce","ReadWriteOncePod"]`},
		{"v2 documented reference", v2doc, []string{"definitions", "io.k8s.api.core.v1.Container", "properties", "lifecycle"},
			`{"$ref":"#/definitions/io.k8s.api.core.v1.Lifecycle","description":"Actions that the management system should take in response to container lifecycle events. Cannot be updated."}`},
		{"v2 list metadata", v2doc, []string{"definitions", "io.k8s.api.core.v1.PodList", "properties", "metadata"},
			`{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta","description":"Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := js(at(t, tc.doc, tc.path...)); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	t.Run("enum paragraph", func(t *testing.T) {
		d, _ := at(t, v3["core"], "components", "schemas", "io.k8s.api.core.v1.Container", "properties", "imagePullPolicy", "description").(string)
		if !strings.Contains(d, "\n\nPossible enum values:\n - `\"Always\"` means that kubelet always attempts to pull the latest image.") {
			t.Fatalf("description %q", d)
		}
	})
}

// TestDocsLoadDescriptionsOnDemand follows the browser's case: the
// descriptions come from a source that may fail (a fetch offline). Until
// a load succeeds the documents carry none; the first success replaces
// the documents built before, so that the root's ?hash= links stay those
// of the documents served.
func TestDocsLoadDescriptionsOnDemand(t *testing.T) {
	real := builtin.Descriptions()
	if real == nil {
		t.Fatal("no embedded descriptions")
	}
	b, err := json.Marshal(real)
	if err != nil {
		t.Fatal(err)
	}
	calls, fail := 0, true
	builtin.SetDescriptionsSource(func() ([]byte, error) {
		calls++
		if fail {
			return nil, errors.New("offline")
		}
		return b, nil
	})
	defer builtin.SetDescriptionsSource(func() ([]byte, error) { return b, nil })

	var c Cache
	rs := builtin.Resources()
	docs := c.For(rs)
	discovery := docs.AggregatedDiscovery(false)
	if calls != 0 || len(discovery) == 0 {
		t.Fatalf("discovery loaded descriptions (%d calls)", calls)
	}
	strategy := func(doc []byte) any {
		return at(t, decode(t, doc), "components", "schemas", "io.k8s.api.apps.v1.DeploymentStrategy", "description")
	}
	before, _ := docs.V3GroupVersion("apis/apps/v1")
	root := docs.V3Root()
	if calls == 0 || strategy(before) != nil {
		t.Fatalf("after a failed load: %d calls, description %v", calls, strategy(before))
	}
	fail = false
	after, _ := docs.V3GroupVersion("apis/apps/v1")
	if strategy(after) != "DeploymentStrategy describes how to replace existing pods with new ones." {
		t.Fatalf("after a load: description %v", strategy(after))
	}
	n := calls
	newRoot := docs.V3Root()
	if calls != n {
		t.Fatalf("loaded again: %d calls", calls)
	}
	if string(newRoot) == string(root) || !strings.Contains(string(newRoot), Hash(after)) {
		t.Fatal("the root does not link the documents with descriptions")
	}
}
