package openapi

import (
	"encoding/json"
	"strings"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kube-openapi/pkg/util/proto"
	"k8s.io/kube-openapi/pkg/validation/spec"
	kubectlopenapi "k8s.io/kubectl/pkg/util/openapi"

	"github.com/kubesandbox/kubesandbox/core/openapi"
)

var (
	podGVK        = schema.GroupVersionKind{Version: "v1", Kind: "Pod"}
	deploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	widgetGVK     = schema.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "Widget"}
)

func v2Document(t *testing.T) (*openapi_v2.Document, []byte) {
	t.Helper()
	b := openapi.V2(allResources(t))
	doc, err := openapi_v2.ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	return doc, b
}

// TestV2Swagger parses /openapi/v2 as kube-openapi's Swagger type.
func TestV2Swagger(t *testing.T) {
	b := openapi.V2(allResources(t))
	var sw spec.Swagger
	if err := json.Unmarshal(b, &sw); err != nil {
		t.Fatal(err)
	}
	if sw.Swagger != "2.0" || len(sw.Definitions) == 0 || sw.Paths == nil {
		t.Fatalf("incomplete document")
	}
	checkRefs(t, b, "#/definitions/", sw.Definitions)
	for _, name := range []string{"io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.PodList", "com.example.stable.v1.Widget", "com.example.stable.v1.WidgetList", "io.k8s.apimachinery.pkg.apis.meta.v1.Status"} {
		if _, ok := sw.Definitions[name]; !ok {
			t.Errorf("no definition %s", name)
		}
	}
}

// TestV2Models reads /openapi/v2 the way kubectl's OpenAPI v2 paths do
// (kubectl apply's fallback, client-side validation): gnostic document,
// then kubectl's resources index and proto models.
func TestV2Models(t *testing.T) {
	doc, _ := v2Document(t)
	res, err := kubectlopenapi.NewOpenAPIData(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gvk     schema.GroupVersionKind
		consume string
		smp     bool
	}{
		{podGVK, "PATCH", true}, {deploymentGVK, "PATCH", true}, {widgetGVK, "PATCH", false},
	} {
		t.Run(tc.gvk.Kind, func(t *testing.T) {
			if res.LookupResource(tc.gvk) == nil {
				t.Fatal("no model")
			}
			consumes := strings.Join(res.GetConsumes(tc.gvk, tc.consume), " ")
			if strings.Contains(consumes, "strategic-merge-patch") != tc.smp || !strings.Contains(consumes, "application/merge-patch+json") {
				t.Fatalf("PATCH consumes %q", consumes)
			}
		})
	}

	pod := strategicpatch.NewPatchMetaFromOpenAPI(res.LookupResource(podGVK))
	spec, _, err := pod.LookupPatchMetadataForStruct("spec")
	if err != nil {
		t.Fatal(err)
	}
	_, pm, err := spec.LookupPatchMetadataForSlice("containers")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pm.GetPatchStrategies(), ",") != "merge" || pm.GetPatchMergeKey() != "name" {
		t.Fatalf("containers: strategies %v key %q", pm.GetPatchStrategies(), pm.GetPatchMergeKey())
	}
	original := `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}],"volumes":[{"name":"v","emptyDir":{}}]}}`
	modified := `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"a:2"}],"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}`
	current := `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"},{"name":"c","image":"c:1"}],"volumes":[{"name":"v","emptyDir":{}}]}}`
	fromStruct, _ := strategicpatch.NewPatchMetaFromStruct(corev1.Pod{})
	want, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), fromStruct, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), pod, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("patch from OpenAPI v2:\n%s\nfrom the Go types:\n%s", got, want)
	}
}

// TestV2GVKParser builds the server-side apply parser from the v2 models
// (managedfields.NewGVKParser) and types objects with it.
func TestV2GVKParser(t *testing.T) {
	doc, _ := v2Document(t)
	models, err := proto.NewOpenAPIData(doc)
	if err != nil {
		t.Fatal(err)
	}
	parser, err := managedfields.NewGVKParser(models, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		gvk     schema.GroupVersionKind
		obj     string
		wantErr string
	}{
		{"pod", podGVK, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"x"}]}}`, ""},
		{"pod duplicate", podGVK, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a"},{"name":"a"}]}}`, "duplicate entries for key [name=\"a\"]"},
		{"widget", widgetGVK, `{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"ports":[{"name":"a"}],"extra":{"x":1}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pt := parser.Type(tc.gvk)
			if pt == nil {
				t.Fatal("no type")
			}
			obj := &unstructured.Unstructured{}
			if err := obj.UnmarshalJSON([]byte(tc.obj)); err != nil {
				t.Fatal(err)
			}
			_, err := pt.FromUnstructured(obj.Object)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// TestV2ProtobufOnly: client-go's OpenAPISchema asks for protobuf only;
// the server answers 406 rather than JSON the client cannot parse.
func TestV2ProtobufOnly(t *testing.T) {
	dc, _ := clients(t)
	_, err := dc.OpenAPISchema()
	if !apierrors.IsNotAcceptable(err) {
		t.Fatalf("error %v, want 406 Not Acceptable", err)
	}
}
