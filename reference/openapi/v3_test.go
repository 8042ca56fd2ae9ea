package openapi

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/openapi3"
	"k8s.io/client-go/rest"
	"k8s.io/kube-openapi/pkg/handler3"
	"k8s.io/kube-openapi/pkg/spec3"
	explainv2 "k8s.io/kubectl/pkg/explain/v2"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/openapi"
)

var gvPathsWant = []string{"api/v1", "apis/admissionregistration.k8s.io/v1", "apis/apiextensions.k8s.io/v1", "apis/apps/v1", "apis/authentication.k8s.io/v1",
	"apis/authorization.k8s.io/v1", "apis/autoscaling/v1", "apis/autoscaling/v2", "apis/batch/v1", "apis/certificates.k8s.io/v1", "apis/coordination.k8s.io/v1", "apis/discovery.k8s.io/v1",
	"apis/events.k8s.io/v1", "apis/networking.k8s.io/v1", "apis/policy/v1", "apis/rbac.authorization.k8s.io/v1",
	"apis/scheduling.k8s.io/v1", "apis/stable.example.com/v1", "apis/storage.k8s.io/v1"}

func TestV3Root(t *testing.T) {
	rs := allResources(t)
	var root handler3.OpenAPIV3Discovery
	if err := json.Unmarshal(openapi.V3Root(rs), &root); err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range root.Paths {
		got = append(got, p)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(gvPathsWant, " ") {
		t.Fatalf("paths = %v, want %v", got, gvPathsWant)
	}
	hex := regexp.MustCompile(`^[0-9A-F]{128}$`)
	for _, p := range gvPathsWant {
		t.Run(p, func(t *testing.T) {
			doc, ok := openapi.V3GroupVersion(rs, p)
			if !ok {
				t.Fatal("no document")
			}
			url := root.Paths[p].ServerRelativeURL
			hash := strings.TrimPrefix(url, "/openapi/v3/"+p+"?hash=")
			if !hex.MatchString(hash) || hash != openapi.Hash(doc) {
				t.Fatalf("serverRelativeURL %q, document hash %s", url, openapi.Hash(doc))
			}
		})
	}
}

// TestV3Documents parses each group/version document as kube-openapi's
// spec3.OpenAPI and checks what clients rely on: every $ref resolves, each
// served kind has its x-kubernetes-group-version-kind, every operation
// names its GVK and action, and PATCH offers fieldValidation.
func TestV3Documents(t *testing.T) {
	rs := allResources(t)
	for _, p := range gvPathsWant {
		t.Run(p, func(t *testing.T) {
			doc, _ := openapi.V3GroupVersion(rs, p)
			var spec spec3.OpenAPI
			if err := json.Unmarshal(doc, &spec); err != nil {
				t.Fatal(err)
			}
			if spec.Version != "3.0.0" || spec.Components == nil || len(spec.Components.Schemas) == 0 || spec.Paths == nil {
				t.Fatalf("incomplete document: version %q", spec.Version)
			}
			checkRefs(t, doc, "#/components/schemas/", spec.Components.Schemas)
			kinds := 0
			for _, r := range rs {
				if openapi.GVPath(r.Group, r.Version) != p {
					continue
				}
				kinds++
				found := false
				for name, s := range spec.Components.Schemas {
					var gvks []map[string]string
					if s.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks) != nil {
						continue
					}
					for _, g := range gvks {
						if g["group"] == r.Group && g["version"] == r.Version && g["kind"] == r.Kind {
							found = true
							if r.CRD && name != "com.example.stable.v1."+r.Kind {
								t.Errorf("%s is defined as %s", r.Kind, name)
							}
						}
					}
				}
				if !found {
					t.Errorf("no schema with the GVK of %s", r.Kind)
				}
			}
			if kinds == 0 {
				t.Fatal("no resources")
			}
			patches := 0
			for path, item := range spec.Paths.Paths {
				for method, op := range map[string]*spec3.Operation{"get": item.Get, "put": item.Put, "post": item.Post, "delete": item.Delete, "patch": item.Patch} {
					if op == nil {
						continue
					}
					var gvk map[string]string
					if err := op.Extensions.GetObject("x-kubernetes-group-version-kind", &gvk); err != nil || gvk["kind"] == "" {
						t.Errorf("%s %s: no x-kubernetes-group-version-kind", method, path)
					}
					if a, _ := op.Extensions.GetString("x-kubernetes-action"); a == "" {
						t.Errorf("%s %s: no x-kubernetes-action", method, path)
					}
					if method == "patch" {
						patches++
						if !hasParam(op, "fieldValidation") || op.RequestBody == nil || len(op.RequestBody.RequestBodyProps.Content) == 0 {
							t.Errorf("patch %s: no fieldValidation or no request body", path)
						}
					}
				}
			}
			if patches == 0 && !strings.HasPrefix(p, "apis/authentication.k8s.io/") && !strings.HasPrefix(p, "apis/authorization.k8s.io/") {
				t.Error("no PATCH operation") // the review APIs are create-only
			}
		})
	}
}

func hasParam(op *spec3.Operation, name string) bool {
	for _, p := range op.Parameters {
		if p.Name == name {
			return true
		}
	}
	return false
}

// checkRefs walks the raw document and fails on a $ref that does not name
// a definition of the document.
func checkRefs[V any](t *testing.T, doc []byte, prefix string, defs map[string]V) {
	t.Helper()
	v, err := jsonx.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				n++
				if _, ok := defs[strings.TrimPrefix(ref, prefix)]; !ok || !strings.HasPrefix(ref, prefix) {
					t.Errorf("dangling $ref %q", ref)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	if n == 0 {
		t.Error("no $ref at all")
	}
}

func clients(t *testing.T) (*discovery.DiscoveryClient, dynamic.Interface) {
	srv := server(t, allResources(t))
	cfg := &rest.Config{Host: srv.URL}
	return discovery.NewDiscoveryClientForConfigOrDie(cfg), dynamic.NewForConfigOrDie(cfg)
}

// TestOpenAPI3Root reads the documents through HTTP with client-go's
// openapi3 root, as kubectl does.
func TestOpenAPI3Root(t *testing.T) {
	dc, _ := clients(t)
	root := openapi3.NewRoot(dc.OpenAPIV3())
	gvs, err := root.GroupVersions()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, gv := range gvs {
		got = append(got, gv.String())
	}
	if want := "admissionregistration.k8s.io/v1 apiextensions.k8s.io/v1 apps/v1 authentication.k8s.io/v1 authorization.k8s.io/v1 autoscaling/v1 autoscaling/v2 batch/v1 certificates.k8s.io/v1 coordination.k8s.io/v1 " +
		"discovery.k8s.io/v1 events.k8s.io/v1 networking.k8s.io/v1 policy/v1 rbac.authorization.k8s.io/v1 scheduling.k8s.io/v1 stable.example.com/v1 " +
		"storage.k8s.io/v1 v1"; strings.Join(got, " ") != want {
		t.Fatalf("group versions %q, want %q", strings.Join(got, " "), want)
	}
	spec, err := root.GVSpec(schema.GroupVersion{Group: "apps", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Components.Schemas["io.k8s.api.apps.v1.Deployment"] == nil || spec.Components.Schemas["io.k8s.api.autoscaling.v1.Scale"] == nil {
		t.Fatal("Deployment or Scale missing from apps/v1")
	}
}

// TestFieldValidationProbe is kubectl's check (cli-runtime's
// QueryParamVerifierV3) that decides between server-side field
// validation and client-side schema validation.
func TestFieldValidationProbe(t *testing.T) {
	dc, dyn := clients(t)
	v := resource.NewQueryParamVerifierV3(dyn, dc.OpenAPIV3(), resource.QueryParamFieldValidation)
	for _, gvk := range []schema.GroupVersionKind{
		{Version: "v1", Kind: "Pod"}, {Version: "v1", Kind: "Namespace"}, {Group: "apps", Version: "v1", Kind: "Deployment"},
		{Group: "stable.example.com", Version: "v1", Kind: "Widget"},
		{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
	} {
		t.Run(gvk.Kind, func(t *testing.T) {
			if err := v.HasSupport(gvk); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestExplain runs kubectl explain's renderer over the documents.
func TestExplain(t *testing.T) {
	dc, _ := clients(t)
	for _, tc := range []struct {
		name      string
		gvr       schema.GroupVersionResource
		path      []string
		recursive bool
		want      []string
	}{
		{"pod containers", schema.GroupVersionResource{Version: "v1", Resource: "pods"}, []string{"spec", "containers"}, false,
			[]string{"KIND:       Pod\nVERSION:    v1\n", "FIELD: containers <[]Container>", "  name\t<string> -required-\n", "  ports\t<[]ContainerPort>",
				"DESCRIPTION:\n    List of containers belonging to the pod. Containers cannot currently be\n    added or removed.",
				"  imagePullPolicy\t<string>\n  enum: Always, IfNotPresent, Never\n    Image pull policy. One of Always, Never, IfNotPresent."}},
		{"deployment strategy", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, []string{"spec", "strategy"}, false,
			[]string{"FIELD: strategy <DeploymentStrategy>\n\n\nDESCRIPTION:\n    The deployment strategy to use to replace existing pods with new ones.\n    DeploymentStrategy describes how to replace existing pods with new ones.\n",
				"  type\t<string>\n  enum: Recreate, RollingUpdate\n"}},
		{"deployment", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, nil, false,
			[]string{"GROUP:      apps\nKIND:       Deployment\nVERSION:    v1\n", "  metadata\t<ObjectMeta>", "  spec\t<DeploymentSpec>"}},
		{"widget", schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "widgets"}, []string{"spec"}, false,
			[]string{"GROUP:      stable.example.com\nKIND:       Widget\nVERSION:    v1\n", "FIELD: spec <Object>", "  color\t<string> -required-", "  enum: red, green, blue", "  ports\t<[]Object>"}},
		{"crd recursive", schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, []string{"spec"}, true,
			[]string{"KIND:       CustomResourceDefinition", "\n  versions\t<[]CustomResourceDefinitionVersion> -required-\n", "\n      openAPIV3Schema\t<Object>\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := explainv2.PrintModelDescription(tc.path, &buf, dc.OpenAPIV3(), tc.gvr, tc.recursive, 0, "plaintext"); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, buf.String())
				}
			}
		})
	}
}

// kindSchema finds a kind's schema by its GVK, as kubectl apply does.
func kindSchema(t *testing.T, spec *spec3.OpenAPI, gvk schema.GroupVersionKind) strategicpatch.PatchMetaFromOpenAPIV3 {
	t.Helper()
	for _, s := range spec.Components.Schemas {
		var gvks []map[string]string
		if s.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks) != nil {
			continue
		}
		for _, g := range gvks {
			if g["group"] == gvk.Group && g["version"] == gvk.Version && g["kind"] == gvk.Kind {
				return strategicpatch.PatchMetaFromOpenAPIV3{Schema: s, SchemaList: spec.Components.Schemas}
			}
		}
	}
	t.Fatalf("no schema for %v", gvk)
	return strategicpatch.PatchMetaFromOpenAPIV3{}
}

func gvSpec(t *testing.T, gv schema.GroupVersion) *spec3.OpenAPI {
	t.Helper()
	p := "api/" + gv.Version
	if gv.Group != "" {
		p = "apis/" + gv.Group + "/" + gv.Version
	}
	doc, ok := openapi.V3GroupVersion(allResources(t), p)
	if !ok {
		t.Fatalf("no document %s", p)
	}
	var spec spec3.OpenAPI
	if err := json.Unmarshal(doc, &spec); err != nil {
		t.Fatal(err)
	}
	return &spec
}

// TestPatchMetaV3 looks up patch strategies as kubectl apply does and
// compares whole three-way strategic merge patches with those computed
// from the Go types.
func TestPatchMetaV3(t *testing.T) {
	pod := kindSchema(t, gvSpec(t, schema.GroupVersion{Version: "v1"}), schema.GroupVersionKind{Version: "v1", Kind: "Pod"})
	spec, _, err := pod.LookupPatchMetadataForStruct("spec")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field, strategies, key string
	}{
		{"containers", "merge", "name"},
		{"volumes", "merge,retainKeys", "name"},
		{"tolerations", "", ""},
	} {
		t.Run(tc.field, func(t *testing.T) {
			_, pm, err := spec.LookupPatchMetadataForSlice(tc.field)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(pm.GetPatchStrategies(), ","); got != tc.strategies || pm.GetPatchMergeKey() != tc.key {
				t.Fatalf("strategies %q key %q, want %q %q", got, pm.GetPatchMergeKey(), tc.strategies, tc.key)
			}
		})
	}

	original := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1"},"finalizers":["x"]},"spec":{"containers":[{"name":"a","image":"a:1","ports":[{"containerPort":80,"protocol":"TCP"}],"env":[{"name":"E","value":"1"}]},{"name":"b","image":"b:1"}],"volumes":[{"name":"v","emptyDir":{}}]}}`
	modified := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"b":"2"},"finalizers":["y"]},"spec":{"containers":[{"name":"a","image":"a:2","ports":[{"containerPort":81,"protocol":"TCP"}],"env":[{"name":"F","value":"2"}]}],"volumes":[{"name":"v","configMap":{"name":"c"}}],"tolerations":[{"key":"k","operator":"Exists"}]}}`
	current := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","c":"3"},"finalizers":["x","z"]},"spec":{"containers":[{"name":"a","image":"a:1","ports":[{"containerPort":80,"protocol":"TCP"}],"env":[{"name":"E","value":"1"}]},{"name":"b","image":"b:1"},{"name":"c","image":"c:1"}],"volumes":[{"name":"v","emptyDir":{}}]}}`
	fromStruct, err := strategicpatch.NewPatchMetaFromStruct(corev1.Pod{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), fromStruct, false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := strategicpatch.CreateThreeWayMergePatch([]byte(original), []byte(modified), []byte(current), pod, false)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("patch from OpenAPI v3:\n%s\nfrom the Go types:\n%s", got, want)
	}
}

// TestTypeConverterV3 builds the server-side apply type converter from
// the documents' schemas (what client-go's apply configurations and the
// apiserver do) and types objects with it.
func TestTypeConverterV3(t *testing.T) {
	for _, tc := range []struct {
		name    string
		gv      schema.GroupVersion
		obj     string
		wantErr string
	}{
		{"pod", schema.GroupVersion{Version: "v1"},
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}}`, ""},
		{"pod duplicate container", schema.GroupVersion{Version: "v1"},
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","image":"x"},{"name":"a","image":"y"}]}}`, "duplicate entries for key [name=\"a\"]"},
		{"deployment unknown field", schema.GroupVersion{Group: "apps", Version: "v1"},
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"bogus":1}}`, ".spec.bogus: field not declared in schema"},
		{"widget", schema.GroupVersion{Group: "stable.example.com", Version: "v1"},
			`{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"color":"red","port":"http","ports":[{"name":"a","port":1}],"extra":{"any":{"thing":1}},"template":{"apiVersion":"v1","kind":"X","metadata":{"name":"t"},"free":1}}}`, ""},
		{"widget duplicate port", schema.GroupVersion{Group: "stable.example.com", Version: "v1"},
			`{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"ports":[{"name":"a"},{"name":"a"}]}}`, "duplicate entries for key [name=\"a\"]"},
		{"widget unknown field", schema.GroupVersion{Group: "stable.example.com", Version: "v1"},
			`{"apiVersion":"stable.example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"bogus":1}}`, ".spec.bogus: field not declared in schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := gvSpec(t, tc.gv)
			tcv, err := managedfields.NewTypeConverter(spec.Components.Schemas, false)
			if err != nil {
				t.Fatal(err)
			}
			obj := &unstructured.Unstructured{}
			if err := obj.UnmarshalJSON([]byte(tc.obj)); err != nil {
				t.Fatal(err)
			}
			_, err = tcv.ObjectToTyped(obj)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
		})
	}
}
