package roundtrip

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	kpb "github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/reference/gen"
)

func protoScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme,
		autoscalingv1.AddToScheme, apiextensionsv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// encodeProto is what a typed client sends: the real protobuf serializer's
// "k8s\x00" + runtime.Unknown envelope around obj.Marshal().
func encodeProto(t *testing.T, s *runtime.Scheme, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(s, s).Encode(obj, &buf); err != nil {
		t.Fatalf("protobuf encode: %v", err)
	}
	return buf.Bytes()
}

// typedJSON is the real JSON encoding of obj, decoded as core/jsonx does.
func typedJSON(t *testing.T, obj any) map[string]any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	m, err := jsonx.DecodeObject(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// richMetadata sets every kind of ObjectMeta field: times (zero
// nanoseconds are dropped by protobuf Time), maps, lists, FieldsV1.
func richMetadata(m metav1.Object) {
	ts := metav1.NewTime(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))
	m.SetCreationTimestamp(ts)
	m.SetUID("2b7b5a86-7c2a-4f1b-9c43-5a1f0e8b2d11")
	m.SetResourceVersion("42")
	m.SetGeneration(3)
	m.SetLabels(map[string]string{"app": "web", "tier": ""})
	m.SetAnnotations(map[string]string{"note": "ü ✓"})
	m.SetFinalizers([]string{"example.com/a", "example.com/b"})
	ctrl := true
	m.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "u1", Controller: &ctrl}})
	m.SetManagedFields([]metav1.ManagedFieldsEntry{{
		Manager: "kubectl-create", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1",
		Time: &ts, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`)},
	}})
}

// TestProtobufDecodeEqualsTypedJSON encodes a sample of every built-in kind
// with the real protobuf serializer and checks that core/protobuf decodes
// it to exactly the real JSON encoding of the same typed value.
func TestProtobufDecodeEqualsTypedJSON(t *testing.T) {
	sch := protoScheme(t)
	check := func(t *testing.T, def string, obj runtime.Object, withMeta bool) {
		t.Helper()
		if withMeta {
			if m, ok := obj.(metav1.Object); ok {
				richMetadata(m)
			}
		}
		body := encodeProto(t, sch, obj)
		s := builtin.Definition(def)
		if s == nil {
			t.Fatalf("no definition %s", def)
		}
		got, err := kpb.DecodeToJSONObject(body, s)
		if err != nil {
			t.Fatalf("DecodeToJSONObject: %v", err)
		}
		// the real decoder's value: protobuf carries no TypeMeta, so the
		// top level gets its kind from the envelope and embedded objects
		// (a StatefulSet's volumeClaimTemplates) get none — the apiserver
		// defaults them after decoding, as the sandbox does
		real, gvk, err := protobuf.NewSerializer(sch, sch).Decode(body, nil, nil)
		if err != nil {
			t.Fatalf("protobuf decode: %v", err)
		}
		real.GetObjectKind().SetGroupVersionKind(*gvk)
		want := typedJSON(t, real)
		if !reflect.DeepEqual(got, want) {
			g, _ := jsonx.Marshal(got)
			w, _ := jsonx.Marshal(want)
			t.Errorf("decoded protobuf differs from the typed JSON\ngot:  %s\nwant: %s", g, w)
		}
	}
	for _, tc := range cases {
		name := tc.plural + "/" + reflect.TypeOf(tc.typ).Elem().Name()
		for _, rich := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "", true: "/rich-metadata"}[rich], func(t *testing.T) {
				r := builtin.Lookup(tc.group, tc.plural)
				if r == nil {
					t.Fatalf("no built-in %s", tc.plural)
				}
				in, _ := json.Marshal(defaulted(t, r, tc.in))
				typed := reflect.New(reflect.TypeOf(tc.typ).Elem()).Interface().(runtime.Object)
				if err := json.Unmarshal(in, typed); err != nil {
					t.Fatal(err)
				}
				check(t, defOf(typed), typed, rich)
			})
		}
	}
	// Values the samples lack.
	prio := int32(-5)
	grace := int64(30)
	for _, tc := range []struct {
		name string
		obj  runtime.Object
	}{
		{"zero Pod", &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}}},
		{"zero Deployment", &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}}},
		{"negative int32, pointer int64, binary secret", &corev1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			Spec: corev1.PodSpec{Priority: &prio, TerminationGracePeriodSeconds: &grace, Containers: []corev1.Container{{
				Name: "c", Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: "TCP"}},
				Resources:     corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("250m"), "memory": resource.MustParse("64Mi")}},
				LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("http")}}, PeriodSeconds: 0},
			}}},
			Status: corev1.PodStatus{Phase: "Running", StartTime: &metav1.Time{Time: time.Unix(1700000000, 0)}},
		}},
		{"secret bytes", &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			Data: map[string][]byte{"bin": {0, 1, 0xff}, "empty": {}}, StringData: map[string]string{"s": "x"}, Type: "Opaque"}},
		{"event micro time", &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"},
			EventTime: metav1.NewMicroTime(time.Date(2024, 5, 1, 10, 0, 0, 123456000, time.UTC)), Count: 2,
			FirstTimestamp: metav1.NewTime(time.Date(2024, 5, 1, 9, 0, 0, 0, time.UTC))}},
		{"scale", &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
			ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "default"}, Spec: autoscalingv1.ScaleSpec{Replicas: 0},
			Status: autoscalingv1.ScaleStatus{Replicas: 3, Selector: "app=web"}}},
		{"job with int/string", &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}}}},
	} {
		t.Run("extra/"+tc.name, func(t *testing.T) {
			check(t, defOf(tc.obj), tc.obj, false)
		})
	}
}

func defOf(obj any) string {
	return gen.DefName(reflect.TypeOf(obj).Elem())
}

// TestProtobufDeleteOptions decodes DeleteOptions bodies as client-go
// sends them for a DELETE (apiVersion of the client's group version).
func TestProtobufDeleteOptions(t *testing.T) {
	sch := protoScheme(t)
	grace := int64(0)
	orphan := false
	bg := metav1.DeletePropagationBackground
	uid := "u-1"
	rv := "7"
	for _, tc := range []struct {
		name string
		opts metav1.DeleteOptions
	}{
		{"empty", metav1.DeleteOptions{}},
		{"all", metav1.DeleteOptions{GracePeriodSeconds: &grace, OrphanDependents: &orphan, PropagationPolicy: &bg,
			DryRun: []string{"All"}, Preconditions: &metav1.Preconditions{UID: (*types.UID)(&uid), ResourceVersion: &rv}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opts
			o.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"}
			body := encodeProto(t, sch, &o)
			got, err := kpb.DecodeToJSONObject(body, builtin.Definition("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"))
			if err != nil {
				t.Fatal(err)
			}
			if want := typedJSON(t, &o); !reflect.DeepEqual(got, want) {
				t.Errorf("got %v\nwant %v", got, want)
			}
		})
	}
}

// TestZeroMessageIsZeroObject: an empty message decodes to the generated
// typed zero object of every kind.
func TestZeroMessageIsZeroObject(t *testing.T) {
	for _, r := range builtin.Resources() {
		if r.Kind == "CustomResourceDefinition" {
			continue // JSONSchemaProps
		}
		t.Run(r.GroupVersion()+"/"+r.Kind, func(t *testing.T) {
			body := append([]byte("k8s\x00"), 0x0a, 0x00) // typeMeta {}, raw absent
			got, err := kpb.DecodeToJSONObject(body, r.SchemaOf())
			if err != nil {
				t.Fatal(err)
			}
			got["apiVersion"], got["kind"] = r.GroupVersion(), r.Kind
			if want := builtin.ZeroObjectFor(r.GroupVersion(), r.Kind); !reflect.DeepEqual(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
}
