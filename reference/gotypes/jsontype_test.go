package gotypes

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	kjson "sigs.k8s.io/json"
)

// TestJSONTypeErrorIsTheDecoders compares schema.JSONTypeError on the
// generated schemas with the error of the decoder kube-apiserver uses
// (sigs.k8s.io/json) for bodies with one value of the wrong type.
func TestJSONTypeErrorIsTheDecoders(t *testing.T) {
	cases := []struct {
		name, group, plural, body string
		typed                     any
	}{
		{"map value", "", "configmaps", `{"data":{"a/b":true,"k":"v"}}`, &v1.ConfigMap{}},
		{"bool field", "", "configmaps", `{"immutable":"yes"}`, &v1.ConfigMap{}},
		{"metadata", "", "configmaps", `{"metadata":[]}`, &v1.ConfigMap{}},
		{"labels", "", "configmaps", `{"metadata":{"labels":{"a":1}}}`, &v1.ConfigMap{}},
		{"int32 as string", "apps", "deployments", `{"spec":{"replicas":"3"}}`, &appsv1.Deployment{}},
		{"int32 fraction", "apps", "deployments", `{"spec":{"replicas":1.5}}`, &appsv1.Deployment{}},
		{"int32 overflow", "apps", "deployments", `{"spec":{"replicas":3000000000}}`, &appsv1.Deployment{}},
		{"in a list", "apps", "deployments", `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":5}]}}}}`, &appsv1.Deployment{}},
		{"a struct as string", "apps", "deployments", `{"spec":{"template":{"spec":"x"}}}`, &appsv1.Deployment{}},
		{"a list as object", "batch", "jobs", `{"spec":{"template":{"spec":{"containers":{}}}}}`, &batchv1.Job{}},
		{"list of strings", "", "pods", `{"spec":{"containers":[{"name":"c","command":[1]}]}}`, &v1.Pod{}},
		{"int64", "", "pods", `{"spec":{"activeDeadlineSeconds":"1"}}`, &v1.Pod{}},
		{"bytes", "", "secrets", `{"data":{"a":1}}`, &v1.Secret{}},
		{"nothing wrong", "", "pods", `{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`, &v1.Pod{}},
	}
	defs, err := builtin.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	schema.NameDefs(defs)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := ""
			if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(c.body), c.typed); err != nil {
				want = err.Error()
			}
			obj, err := jsonx.DecodeObject([]byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := schema.JSONTypeError(builtin.Lookup(c.group, c.plural).SchemaOf(), obj); err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("\n got %q\nwant %q", got, want)
			}
		})
	}
}
