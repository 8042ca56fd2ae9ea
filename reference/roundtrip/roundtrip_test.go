// Package roundtrip proves that the objects kubesandbox's built-in
// defaulting produces have the shapes of the real k8s.io/api types: each
// defaulted object must decode into its typed struct with unknown fields
// disallowed, and encoding the typed struct again must give the very same
// JSON. The second half catches what the real server adds just by
// serialising Go structs (e.g. "resources": {} in a container).
package roundtrip

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

const podSpec = `{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}],
  "env":[{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
  "readinessProbe":{"httpGet":{"port":80}},
  "resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
  "volumeMounts":[{"name":"cfg","mountPath":"/etc/cfg"}]}],
  "volumes":[{"name":"cfg","configMap":{"name":"cfg"}},{"name":"scratch"}]}`

var cases = []struct {
	group, plural string
	typ           any
	in            string
}{
	{"", "pods", &corev1.Pod{}, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":` + podSpec + `}`},
	{"", "services", &corev1.Service{}, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"default"},
	  "spec":{"selector":{"app":"web"},"ports":[{"port":80},{"name":"dns","port":53,"protocol":"UDP","targetPort":"dns"}]}}`},
	{"", "services", &corev1.Service{}, `{"apiVersion":"v1","kind":"Service","metadata":{"name":"lb","namespace":"default"},
	  "spec":{"type":"LoadBalancer","sessionAffinity":"ClientIP","ports":[{"port":443}]}}`},
	{"", "namespaces", &corev1.Namespace{}, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dev"}}`},
	{"", "secrets", &corev1.Secret{}, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"default"},"data":{"k":"dg=="}}`},
	{"", "configmaps", &corev1.ConfigMap{}, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"default"},"data":{"k":"v"}}`},
	{"", "serviceaccounts", &corev1.ServiceAccount{}, `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa","namespace":"default"}}`},
	{"", "events", &corev1.Event{}, `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"default"},
	  "involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"Started","message":"m","type":"Normal"}`},
	{"apps", "deployments", &appsv1.Deployment{}, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","namespace":"default"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + podSpec + `}}}`},
	{"apps", "replicasets", &appsv1.ReplicaSet{}, `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"r","namespace":"default"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + podSpec + `}}}`},
	{"apps", "statefulsets", &appsv1.StatefulSet{}, `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s","namespace":"default"},
	  "spec":{"serviceName":"s","selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + podSpec + `},
	  "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}`},
	{"apps", "daemonsets", &appsv1.DaemonSet{}, `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds","namespace":"default"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":` + podSpec + `}}}`},
	{"batch", "jobs", &batchv1.Job{}, `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"default"},
	  "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox","command":["true"]}]}}}}`},
	{"batch", "cronjobs", &batchv1.CronJob{}, `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj","namespace":"default"},
	  "spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"busybox"}]}}}}}}`},
	{"apiextensions.k8s.io", "customresourcedefinitions", &apiextensionsv1.CustomResourceDefinition{}, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	  "metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
	  "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
	  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]},
	  "status":{"conditions":null,"storedVersions":["v1"]}}`}, // status as the apiserver's CRD create writes it
}

// defaulted runs what the server runs on create: schema defaults, then the
// Default and PrepareCreate hooks.
func defaulted(t *testing.T, r *resource.Resource, in string) map[string]any {
	t.Helper()
	obj, err := jsonx.DecodeObject([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	schema.Default(r.SchemaOf(), obj)
	if r.Hooks.Default != nil {
		r.Hooks.Default(obj)
	}
	if r.Hooks.PrepareCreate != nil {
		r.Hooks.PrepareCreate(obj)
	}
	return obj
}

func TestTypedRoundTrip(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.plural+"/"+reflect.TypeOf(tc.typ).Elem().Name(), func(t *testing.T) {
			r := builtin.Lookup(tc.group, tc.plural)
			if r == nil {
				t.Fatalf("no built-in %s", tc.plural)
			}
			obj := defaulted(t, r, tc.in)
			ours, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(ours))
			dec.DisallowUnknownFields()
			typed := reflect.New(reflect.TypeOf(tc.typ).Elem()).Interface()
			if err := dec.Decode(typed); err != nil {
				t.Fatalf("defaulted object does not decode into %T: %v\n%s", typed, err, ours)
			}
			again, err := json.Marshal(typed)
			if err != nil {
				t.Fatal(err)
			}
			if pruned := schema.Prune(r.SchemaOf(), jsonx.CopyObject(obj), true); len(pruned) > 0 {
				t.Errorf("generated schema prunes fields of the defaulted object: %v", pruned)
			}
			if errs := schema.Validate(r.SchemaOf(), obj); len(errs) > 0 {
				t.Errorf("generated schema rejects the defaulted object: %v", errs)
			}
			want, _ := jsonx.DecodeObject(again)
			got, _ := jsonx.DecodeObject(ours)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("typed round trip changes the object\nours:  %s\ntyped: %s", ours, again)
			}
		})
	}
}
