package openapi

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

const widgetSchema = `{"type":"object","properties":{
 "spec":{"type":"object","required":["color","note"],"properties":{
  "color":{"type":"string","enum":["red","blue"],"default":"blue"},
  "port":{"x-kubernetes-int-or-string":true},
  "note":{"type":"string","nullable":true},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
   "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{"type":"string"}}},
  "template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"x":{"type":"string"}}}}}}}`

func mustSchema(t testing.TB, js string) *schema.Schema {
	t.Helper()
	v, err := jsonx.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.FromCRD(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func widget(t testing.TB) *resource.Resource {
	return &resource.Resource{
		Group: "stable.example.com", Version: "v1", Resource: "widgets", Singular: "widget",
		Kind: "Widget", ListKind: "WidgetList", Namespaced: true, ShortNames: []string{"wdg"},
		Status: true, Scale: &resource.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"},
		Schema: mustSchema(t, widgetSchema), CRD: true, SelectableFields: []string{"spec.color"},
	}
}

func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	m, err := jsonx.DecodeObject(b)
	if err != nil {
		t.Fatalf("%v in %.200s", err, b)
	}
	return m
}

// at follows a path of object keys.
func at(t testing.TB, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object", strings.Join(keys, "."))
		}
		v = m[k]
	}
	return v
}

func js(v any) string {
	b, _ := jsonx.Marshal(v)
	return string(b)
}

func TestV3GroupVersionBuiltin(t *testing.T) {
	rs := builtin.Resources()
	b, ok := V3GroupVersion(rs, "apis/apps/v1")
	if !ok {
		t.Fatal("no apps/v1 document")
	}
	doc := decode(t, b)
	schemas := at(t, doc, "components", "schemas")
	for _, tc := range []struct {
		name string
		path []string
		want string
	}{
		{"kind GVK", []string{"io.k8s.api.apps.v1.Deployment", "x-kubernetes-group-version-kind"},
			`[{"group":"apps","kind":"Deployment","version":"v1"}]`},
		{"list GVK", []string{"io.k8s.api.apps.v1.DeploymentList", "x-kubernetes-group-version-kind"},
			`[{"group":"apps","kind":"DeploymentList","version":"v1"}]`},
		{"reference with a default", []string{"io.k8s.api.apps.v1.Deployment", "properties", "metadata"},
			`{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"default":{},"description":"Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}`},
		{"list items", []string{"io.k8s.api.apps.v1.DeploymentList", "properties", "items", "items"},
			`{"$ref":"#/components/schemas/io.k8s.api.apps.v1.Deployment"}`},
		{"strategic merge and list map", []string{"io.k8s.api.core.v1.PodSpec", "properties", "containers"},
			`{"description":"List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.","items":{"$ref":"#/components/schemas/io.k8s.api.core.v1.Container"},"nullable":true,"type":"array","x-kubernetes-list-map-keys":["name"],"x-kubernetes-list-type":"map","x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge"}`},
		{"retainKeys", []string{"io.k8s.api.core.v1.PodSpec", "properties", "volumes", "x-kubernetes-patch-strategy"}, `"merge,retainKeys"`},
		{"atomic map", []string{"io.k8s.api.core.v1.PodSpec", "properties", "nodeSelector", "x-kubernetes-map-type"}, `"atomic"`},
		{"scale GVK", []string{"io.k8s.api.autoscaling.v1.Scale", "x-kubernetes-group-version-kind"},
			`[{"group":"autoscaling","kind":"Scale","version":"v1"}]`},
		{"status GVK", []string{"io.k8s.apimachinery.pkg.apis.meta.v1.Status", "x-kubernetes-group-version-kind"},
			`[{"group":"","kind":"Status","version":"v1"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := js(at(t, schemas, tc.path...)); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}

	paths := at(t, doc, "paths").(map[string]any)
	var deployPaths []string
	for p := range paths {
		if strings.Contains(p, "deployments") {
			deployPaths = append(deployPaths, p)
		}
	}
	sort.Strings(deployPaths)
	want := []string{
		"/apis/apps/v1/deployments",
		"/apis/apps/v1/namespaces/{namespace}/deployments",
		"/apis/apps/v1/namespaces/{namespace}/deployments/{name}",
		"/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale",
		"/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status",
	}
	if strings.Join(deployPaths, " ") != strings.Join(want, " ") {
		t.Fatalf("paths %v", deployPaths)
	}
	for _, tc := range []struct {
		path, method, action, opID, gvk, resp string
	}{
		{want[0], "get", "list", "listAppsV1DeploymentForAllNamespaces", "apps/v1/Deployment", "DeploymentList"},
		{want[1], "get", "list", "listAppsV1NamespacedDeployment", "apps/v1/Deployment", "DeploymentList"},
		{want[1], "post", "post", "createAppsV1NamespacedDeployment", "apps/v1/Deployment", "Deployment"},
		{want[1], "delete", "deletecollection", "deletecollectionAppsV1NamespacedDeployment", "apps/v1/Deployment", "Status"},
		{want[2], "get", "get", "readAppsV1NamespacedDeployment", "apps/v1/Deployment", "Deployment"},
		{want[2], "put", "put", "replaceAppsV1NamespacedDeployment", "apps/v1/Deployment", "Deployment"},
		{want[2], "patch", "patch", "patchAppsV1NamespacedDeployment", "apps/v1/Deployment", "Deployment"},
		{want[2], "delete", "delete", "deleteAppsV1NamespacedDeployment", "apps/v1/Deployment", "Status"},
		{want[3], "patch", "patch", "patchAppsV1NamespacedDeploymentScale", "autoscaling/v1/Scale", "Scale"},
		{want[4], "put", "put", "replaceAppsV1NamespacedDeploymentStatus", "apps/v1/Deployment", "Deployment"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			op, _ := at(t, paths, tc.path, tc.method).(map[string]any)
			if op == nil {
				t.Fatal("no operation")
			}
			g := op["x-kubernetes-group-version-kind"].(map[string]any)
			if op["x-kubernetes-action"] != tc.action || op["operationId"] != tc.opID || g["group"].(string)+"/"+g["version"].(string)+"/"+g["kind"].(string) != tc.gvk {
				t.Fatalf("action %v operationId %v gvk %v", op["x-kubernetes-action"], op["operationId"], g)
			}
			ref := at(t, op, "responses", "200", "content", "application/json", "schema", "$ref").(string)
			if !strings.HasSuffix(ref, "."+tc.resp) {
				t.Fatalf("200 response %s", ref)
			}
		})
	}
	patch := at(t, paths, want[2], "patch").(map[string]any)
	var params []string
	for _, p := range patch["parameters"].([]any) {
		params = append(params, p.(map[string]any)["name"].(string))
	}
	if got := strings.Join(params, ","); got != "dryRun,fieldManager,fieldValidation,force" {
		t.Errorf("patch parameters %s", got)
	}
	var types []string
	for ct := range at(t, patch, "requestBody", "content").(map[string]any) {
		types = append(types, ct)
	}
	sort.Strings(types)
	if got := strings.Join(types, " "); got != "application/apply-patch+yaml application/json-patch+json application/merge-patch+json application/strategic-merge-patch+json" {
		t.Errorf("patch types %s", got)
	}
}

func TestV3GroupVersionNotServed(t *testing.T) {
	rs := builtin.Resources()
	for _, gv := range []string{"apis/nope/v1", "apps/v1", "api/v2", "", "apis/apps"} {
		t.Run(gv, func(t *testing.T) {
			if b, ok := V3GroupVersion(rs, gv); ok || b != nil {
				t.Fatalf("served %q", gv)
			}
		})
	}
}

func TestCustomResourceDefinitions(t *testing.T) {
	rs := []*resource.Resource{widget(t)}
	v3, _ := V3GroupVersion(rs, "apis/stable.example.com/v1")
	v2 := V2(rs)
	s3 := at(t, decode(t, v3), "components", "schemas")
	s2 := at(t, decode(t, v2), "definitions")
	for _, tc := range []struct {
		name string
		doc  any
		path []string
		want string
	}{
		{"v3 GVK", s3, []string{"com.example.stable.v1.Widget", "x-kubernetes-group-version-kind"}, `[{"group":"stable.example.com","kind":"Widget","version":"v1"}]`},
		{"v3 selectable fields", s3, []string{"com.example.stable.v1.Widget", "x-kubernetes-selectable-fields"}, `[{"fieldPath":"spec.color"}]`},
		{"v3 metadata", s3, []string{"com.example.stable.v1.Widget", "properties", "metadata"},
			`{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"description":"` + objectMetaDoc + `"}`},
		{"v3 apiVersion", s3, []string{"com.example.stable.v1.Widget", "properties", "apiVersion"}, `{"description":"` + apiVersionDoc + `","type":"string"}`},
		{"v3 default and enum", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "color"}, `{"default":"blue","enum":["red","blue"],"type":"string"}`},
		{"v3 int-or-string unfolded", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "port"},
			`{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}`},
		{"v3 nullable", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "note"}, `{"nullable":true,"type":"string"}`},
		{"v3 required", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "required"}, `["color","note"]`},
		{"v3 embedded resource", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "template", "required"}, `["kind","apiVersion"]`},
		{"v3 embedded metadata", s3, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "template", "properties", "metadata", "allOf"},
			`[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}]`},
		{"v3 list", s3, []string{"com.example.stable.v1.WidgetList", "x-kubernetes-group-version-kind"}, `[{"group":"stable.example.com","kind":"WidgetList","version":"v1"}]`},
		{"v3 list items", s3, []string{"com.example.stable.v1.WidgetList", "properties", "items", "items"}, `{"$ref":"#/components/schemas/com.example.stable.v1.Widget"}`},
		{"v2 metadata", s2, []string{"com.example.stable.v1.Widget", "properties", "metadata"},
			`{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta","description":"` + objectMetaDoc + `"}`},
		{"v2 no default", s2, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "color"}, `{"enum":["red","blue"],"type":"string"}`},
		{"v2 nullable loses its type", s2, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "note"}, `{}`},
		{"v2 nullable not required", s2, []string{"com.example.stable.v1.Widget", "properties", "spec", "required"}, `["color"]`},
		{"v2 preserved unknown fields", s2, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "extra"}, `{"x-kubernetes-preserve-unknown-fields":true}`},
		{"v2 int-or-string", s2, []string{"com.example.stable.v1.Widget", "properties", "spec", "properties", "port"}, `{"x-kubernetes-int-or-string":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := js(at(t, tc.doc, tc.path...)); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	// CRDs take no strategic merge patch.
	patch := at(t, decode(t, v3), "paths", "/apis/stable.example.com/v1/namespaces/{namespace}/widgets/{name}", "patch", "requestBody", "content").(map[string]any)
	if _, ok := patch["application/strategic-merge-patch+json"]; ok || len(patch) != 3 {
		t.Fatalf("CRD patch types %v", patch)
	}
}

func TestCRDWithoutSchema(t *testing.T) {
	r := widget(t)
	r.Schema = nil
	b, _ := V3GroupVersion([]*resource.Resource{r}, "apis/stable.example.com/v1")
	got := js(at(t, decode(t, b), "components", "schemas", "com.example.stable.v1.Widget"))
	want := `{"type":"object","x-kubernetes-group-version-kind":[{"group":"stable.example.com","kind":"Widget","version":"v1"}],"x-kubernetes-selectable-fields":[{"fieldPath":"spec.color"}]}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestCyclicSchemaStaysFinite(t *testing.T) {
	r := widget(t)
	self := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{}}
	self.Properties["next"] = self
	self.Items = self
	r.Schema = &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{"spec": self}}
	b, _ := V3GroupVersion([]*resource.Resource{r}, "apis/stable.example.com/v1")
	got := js(at(t, decode(t, b), "components", "schemas", "com.example.stable.v1.Widget", "properties", "spec"))
	if want := `{"items":{},"properties":{"next":{}},"type":"object"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestV2Document checks the Swagger 2.0 specifics: #/definitions/
// references, no OpenAPI 3 keywords, body parameters and consumes.
func TestV2Document(t *testing.T) {
	b := V2(append(builtin.Resources(), widget(t)))
	doc := decode(t, b)
	if doc["swagger"] != "2.0" {
		t.Fatalf("swagger %v", doc["swagger"])
	}
	s := string(b)
	for _, bad := range []string{`"nullable"`, `"allOf"`, `"#/components/`, `"requestBody"`} {
		if strings.Contains(s, bad) {
			t.Errorf("v2 document contains %s", bad)
		}
	}
	// No schema carries a default (a property may be named "default", as
	// LimitRangeItem's is).
	if where := keywordAt(doc, "default", ""); where != "" {
		t.Errorf("v2 document has a default at %s", where)
	}
	patch := at(t, doc, "paths", "/api/v1/namespaces/{namespace}/pods/{name}", "patch").(map[string]any)
	if got := js(patch["consumes"]); got != `["application/apply-patch+yaml","application/json-patch+json","application/merge-patch+json","application/strategic-merge-patch+json"]` {
		t.Errorf("consumes %s", got)
	}
	params := patch["parameters"].([]any)
	body := params[len(params)-1].(map[string]any)
	if js(body) != `{"in":"body","name":"body","required":true,"schema":{"$ref":"#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}}` {
		t.Errorf("body parameter %s", js(body))
	}
	if got := js(at(t, patch, "responses", "200")); got != `{"description":"OK","schema":{"$ref":"#/definitions/io.k8s.api.core.v1.Pod"}}` {
		t.Errorf("200 response %s", got)
	}
	// Namespaces serve no deletecollection.
	if _, ok := at(t, doc, "paths", "/api/v1/namespaces").(map[string]any)["delete"]; ok {
		t.Error("namespaces offer deletecollection")
	}
}

// keywordAt finds key used as a keyword (not as a property name) in v and
// returns where, or "".
func keywordAt(v any, key, path string) string {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v[key]; ok && !strings.HasSuffix(path, "/properties") {
			return path
		}
		for k, c := range v {
			if w := keywordAt(c, key, path+"/"+k); w != "" {
				return w
			}
		}
	case []any:
		for _, c := range v {
			if w := keywordAt(c, key, path+"/[]"); w != "" {
				return w
			}
		}
	}
	return ""
}

func TestV3Root(t *testing.T) {
	rs := append(builtin.Resources(), widget(t))
	var root struct {
		Paths map[string]struct {
			ServerRelativeURL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(V3Root(rs), &root); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k, v := range root.Paths {
		keys = append(keys, k)
		doc, _ := V3GroupVersion(rs, k)
		if want := "/openapi/v3/" + k + "?hash=" + Hash(doc); v.ServerRelativeURL != want {
			t.Errorf("%s: %s, want %s", k, v.ServerRelativeURL, want)
		}
	}
	sort.Strings(keys)
	if got := strings.Join(keys, " "); got != "api/v1 apis/admissionregistration.k8s.io/v1 apis/apiextensions.k8s.io/v1 apis/apps/v1 apis/authentication.k8s.io/v1 "+
		"apis/authorization.k8s.io/v1 apis/autoscaling/v1 apis/autoscaling/v2 apis/batch/v1 apis/certificates.k8s.io/v1 apis/coordination.k8s.io/v1 apis/discovery.k8s.io/v1 "+
		"apis/events.k8s.io/v1 apis/networking.k8s.io/v1 apis/policy/v1 apis/rbac.authorization.k8s.io/v1 apis/scheduling.k8s.io/v1 "+
		"apis/stable.example.com/v1 apis/storage.k8s.io/v1" {
		t.Fatalf("paths %s", got)
	}
}

func TestHash(t *testing.T) {
	const empty = "CF83E1357EEFB8BDF1542850D66D8007D620E4050B5715DC83F4A921D36CE9CE47D0D13C5D85F2B0FF8318D2877EEC2F63B931BD47417A81A538327AF927DA3E"
	if got := Hash(nil); got != empty {
		t.Fatalf("Hash(nil) = %s", got)
	}
}

func TestDeterministic(t *testing.T) {
	rs := append(builtin.Resources(), widget(t))
	rev := make([]*resource.Resource, len(rs))
	for i, r := range rs {
		rev[len(rs)-1-i] = r
	}
	if string(V2(rs)) != string(V2(rev)) || string(V3Root(rs)) != string(V3Root(rev)) ||
		string(AggregatedDiscovery(rs, false)) != string(AggregatedDiscovery(rev, false)) {
		t.Fatal("documents depend on the order of the resources")
	}
}

func TestAcceptsJSON(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                 true,
		"application/json": true,
		"*/*":              true,
		"application/*":    true,
		"application/com.github.proto-openapi.spec.v2@v1.0+protobuf":                   false,
		"application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json": true,
		"application/yaml":     false,
		"text/html, */*;q=0.1": true,
	} {
		t.Run(accept, func(t *testing.T) {
			if got := AcceptsJSON(accept); got != want {
				t.Fatalf("got %v", got)
			}
		})
	}
}

// The apimachinery types the built-in schemas hold inline are written as
// references to their definitions, as kube-openapi writes them, so
// kubectl explain names them ("maxSurge <IntOrString>", "limits
// <map[string]Quantity>", "fieldsV1 <FieldsV1>", "data <RawExtension>").
func TestApimachineryReferences(t *testing.T) {
	v3b, ok := V3GroupVersion(builtin.Resources(), "apis/apps/v1")
	if !ok {
		t.Fatal("no apps/v1 document")
	}
	v3 := at(t, decode(t, v3b), "components", "schemas")
	v2 := at(t, decode(t, V2(builtin.Resources())), "definitions")
	const (
		ios = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
		qty = "io.k8s.apimachinery.pkg.api.resource.Quantity"
		fv1 = "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"
		raw = "io.k8s.apimachinery.pkg.runtime.RawExtension"
	)
	for _, tc := range []struct {
		name   string
		doc    any
		path   []string
		want   string
		prefix bool // want is a prefix of the rendered value (a long description follows)
	}{
		{"v3 IntOrString property", v3, []string{"io.k8s.api.apps.v1.RollingUpdateDeployment", "properties", "maxSurge", "allOf"}, `[{"$ref":"#/components/schemas/` + ios + `"}]`, false},
		{"v3 Quantity map values", v3, []string{"io.k8s.api.core.v1.ResourceRequirements", "properties", "limits", "additionalProperties"}, `{"$ref":"#/components/schemas/` + qty + `"}`, false},
		{"v3 FieldsV1", v3, []string{"io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry", "properties", "fieldsV1", "allOf"}, `[{"$ref":"#/components/schemas/` + fv1 + `"}]`, false},
		{"v3 RawExtension", v3, []string{"io.k8s.api.apps.v1.ControllerRevision", "properties", "data"}, `{"allOf":[{"$ref":"#/components/schemas/` + raw + `"}],"description":"Data is the serialized representation of the state."}`, false},
		{"v3 IntOrString definition", v3, []string{ios}, `{"description":"IntOrString is a type that can hold an int32 or a string.`, true},
		{"v3 IntOrString shape", v3, []string{ios, "oneOf"}, `[{"type":"integer"},{"type":"string"}]`, false},
		{"v3 Quantity shape", v3, []string{qty, "oneOf"}, `[{"type":"string"},{"type":"number"}]`, false},
		{"v3 FieldsV1 type", v3, []string{fv1, "type"}, `"object"`, false},
		{"v2 IntOrString property", v2, []string{"io.k8s.api.apps.v1.RollingUpdateDeployment", "properties", "maxSurge", "$ref"}, `"#/definitions/` + ios + `"`, false},
		{"v2 IntOrString definition", v2, []string{ios, "format"}, `"int-or-string"`, false},
		{"v2 Quantity definition", v2, []string{qty, "type"}, `"string"`, false},
		{"v2 FieldsV1", v2, []string{"io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry", "properties", "fieldsV1", "$ref"}, `"#/definitions/` + fv1 + `"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := js(at(t, tc.doc, tc.path...))
			if got != tc.want && !(tc.prefix && strings.HasPrefix(got, tc.want)) {
				t.Fatalf("got  %.300s\nwant %s", got, tc.want)
			}
		})
	}
}
