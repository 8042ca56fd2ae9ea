package builtin

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

func TestCRDResources(t *testing.T) {
	crd, err := jsonx.DecodeObject([]byte(`{"metadata":{"name":"gizmos.example.com"},"spec":{
	 "group":"example.com","scope":"Cluster",
	 "names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo","listKind":"GizmoList","shortNames":["gz"],"categories":["all"]},
	 "versions":[
	  {"name":"v1alpha1","served":false,"storage":false},
	  {"name":"v1beta1","served":true,"storage":false},
	  {"name":"v1","served":true,"storage":true,
	   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.n","statusReplicasPath":".status.n"}},
	   "additionalPrinterColumns":[{"name":"N","type":"integer","jsonPath":".spec.n","priority":1}],
	   "selectableFields":[{"jsonPath":".spec.color"}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	rs := CRDResources(crd)
	if len(rs) != 2 {
		t.Fatalf("%d resources, want the 2 served versions", len(rs))
	}
	beta, v1 := rs[0], rs[1]
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"served versions in order", beta.Version == "v1beta1" && v1.Version == "v1"},
		{"storage version on every version", beta.StorageVersion == "v1" && v1.StorageVersion == "v1"},
		{"names and scope", v1.Kind == "Gizmo" && v1.ListKind == "GizmoList" && v1.Resource == "gizmos" && !v1.Namespaced && v1.CRD},
		{"short names and categories", len(v1.ShortNames) == 1 && v1.ShortNames[0] == "gz" && len(v1.Categories) == 1},
		{"subresources per version", v1.Status && v1.Scale != nil && v1.Scale.SpecReplicasPath == ".spec.n" && !beta.Status && beta.Scale == nil},
		{"printer columns", len(v1.PrinterColumns) == 1 && v1.PrinterColumns[0].Priority == 1 && v1.PrinterColumns[0].JSONPath == ".spec.n"},
		{"selectable fields without the dot", len(v1.SelectableFields) == 1 && v1.SelectableFields[0] == "spec.color"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.ok {
				t.Errorf("beta %+v\nv1 %+v", beta, v1)
			}
		})
	}
}

func TestBeginDelete(t *testing.T) {
	const now = "2026-01-02T03:04:05Z"
	for _, tc := range []struct {
		name   string
		begin  func(obj map[string]any, fins []string, now string) bool
		obj    string
		fins   []string
		marked bool
		want   string
	}{
		{"namespace held by spec.finalizers", namespaceBeginDelete,
			`{"metadata":{"name":"a"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`, []string{"orphan"}, true,
			`{"metadata":{"deletionTimestamp":"2026-01-02T03:04:05Z","name":"a"},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating"}}`},
		{"namespace without spec.finalizers: the generic rule", namespaceBeginDelete,
			`{"metadata":{"name":"a"},"spec":{},"status":{"phase":"Active"}}`, nil, false,
			`{"metadata":{"name":"a"},"spec":{},"status":{"phase":"Active"}}`},
		{"CRD: clean-up finalizer after the others, Terminating", crdBeginDelete,
			`{"metadata":{"name":"a.b.c"},"status":{"conditions":[]}}`, []string{"foregroundDeletion"}, true,
			`{"metadata":{"deletionTimestamp":"2026-01-02T03:04:05Z","finalizers":["foregroundDeletion","customresourcecleanup.apiextensions.k8s.io"],"name":"a.b.c"},"status":{"conditions":[{"lastTransitionTime":"2026-01-02T03:04:05Z","message":"CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon","reason":"InstanceDeletionPending","status":"True","type":"Terminating"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := jsonx.DecodeObject([]byte(tc.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.begin(obj, tc.fins, now); got != tc.marked {
				t.Errorf("marked = %v, want %v", got, tc.marked)
			}
			if b, _ := jsonx.Marshal(obj); string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}
