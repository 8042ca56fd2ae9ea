package apiserver

import (
	"strings"
	"testing"
)

// The long tail of the API machinery (issue #15 item 9): each request gets
// the status and message kube-apiserver v1.37.2 answers (recorded in
// tests/conformance/transcripts/mx-*.json), for a built-in kind and a
// custom resource where their decoders differ.
func TestMachineryEdges(t *testing.T) {
	s := New(Options{})
	seed(t, s) // namespace team, ConfigMap cfg, CRD widgets.example.com, Widget w1
	const (
		cm     = "/api/v1/namespaces/team/configmaps/cfg"
		cms    = "/api/v1/namespaces/team/configmaps"
		widget = "/apis/example.com/v1/namespaces/team/widgets/w1"
		wids   = "/apis/example.com/v1/namespaces/team/widgets"
		json   = "application/json"
		apply  = "application/apply-patch+yaml"
	)
	tests := []struct {
		name, method, path, ctype, body string
		code                            int
		reason, message                 string // message: a prefix
	}{
		{"get with resourceVersion abc: the storage's plain error", "GET", cm + "?resourceVersion=abc", "", "",
			500, "", `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
		{"list with limit abc", "GET", cms + "?limit=abc", "", "",
			400, "BadRequest", `strconv.ParseInt: parsing "abc": invalid syntax`},
		{"fieldManager with a newline", "POST", cms + "?fieldManager=a%0Ab", json, `{"metadata":{"name":"x"}}`,
			422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\nb": invalid character U+000A (at position 1)`},
		{"watch with resourceVersionMatch=Exact: two causes", "GET", cms + "?watch=1&resourceVersion=1&resourceVersionMatch=Exact", "", "",
			422, "Invalid", `ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]`},
		{"delete with a body of another kind", "DELETE", cm, json, `{"apiVersion":"v1","kind":"ConfigMap"}`,
			400, "BadRequest", `no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"`},
		{"delete with a body that is not JSON", "DELETE", cm, json, `not json`,
			400, "BadRequest", `couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u')`},
		{"delete with orphanDependents and a propagation policy", "DELETE", cm, json, `{"kind":"DeleteOptions","apiVersion":"v1","orphanDependents":true,"propagationPolicy":"Foreground"}`,
			422, "Invalid", `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set`},
		{"delete with an empty resourceVersion precondition", "DELETE", cm, json, `{"preconditions":{"resourceVersion":""}}`,
			409, "Conflict", `Operation cannot be fulfilled on ConfigMap "cfg": the ResourceVersion in the precondition () does not match`},
		{"PUT with another uid: the storage precondition", "PUT", cm, json, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","uid":"other"}}`,
			409, "Conflict", `Operation cannot be fulfilled on configmaps "cfg": StorageError: invalid object, Code: 4, Key: /registry/configmaps/team/cfg, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: `},
		{"PUT with resourceVersion abc", "PUT", cm, json, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","resourceVersion":"abc"}}`,
			500, "", `strconv.ParseUint: parsing "abc": invalid syntax`},
		{"a custom resource without kind", "POST", wids, json, `{}`,
			400, "BadRequest", `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{}' ({})`},
		{"a custom resource of JSON null", "POST", wids, json, `null`,
			400, "BadRequest", `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in 'null'`},
		{"a custom resource without apiVersion", "POST", wids, json, `{"kind":"Widget","metadata":{"name":"w2"}}`,
			400, "BadRequest", `the API version in the data () does not match the expected API version (example.com/v1)`},
		{"a built-in without apiVersion or kind: defaulted", "POST", cms, json, `{"metadata":{"name":"plain"}}`,
			201, "", ""},
		{"apply that is not YAML", "PATCH", widget + "?fieldManager=m", apply, "kind: Widget\nmetadata: {name: w1\n",
			400, "BadRequest", `error encoding patch: yaml: line 2: did not find expected ',' or '}'`},
		{"apply without kind", "PATCH", widget + "?fieldManager=m", apply, "apiVersion: example.com/v1\nmetadata:\n  name: w1\n",
			400, "BadRequest", `invalid object type: example.com/v1, Kind=`},
		{"JSON patch removing metadata.name", "PATCH", cm, "application/json-patch+json", `[{"op":"remove","path":"/metadata/name"}]`,
			400, "BadRequest", `the name of the object (cfg based on URL) was undeterminable: name must be provided`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := do(t, s, tt.method, tt.path, tt.ctype, tt.body)
			if code != tt.code {
				t.Fatalf("%s %s: %d %v, want %d", tt.method, tt.path, code, out, tt.code)
			}
			if tt.code >= 300 {
				msg, _ := out["message"].(string)
				reason, _ := out["reason"].(string)
				if reason != tt.reason || !strings.HasPrefix(msg, tt.message) {
					t.Errorf("reason %q message %q\nwant %q %q", reason, msg, tt.reason, tt.message)
				}
			}
		})
	}
}

// With a body, DeleteOptions come from the body alone: dryRun in the query
// is not read, and the object is deleted.
func TestDeleteOptionsBodyWinsOverQuery(t *testing.T) {
	s := New(Options{})
	seed(t, s)
	const cm = "/api/v1/namespaces/team/configmaps/cfg"
	if code, out := do(t, s, "DELETE", cm+"?dryRun=All", "application/json", `{"kind":"DeleteOptions","apiVersion":"v1"}`); code != 200 {
		t.Fatalf("DELETE: %d %v", code, out)
	}
	if code, _ := do(t, s, "GET", cm, "", ""); code != 404 {
		t.Errorf("GET after DELETE with a body: %d, want 404 (the query's dryRun is ignored)", code)
	}
}
