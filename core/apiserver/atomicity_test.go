package apiserver_test

// Atomicity: a request that fails — for any reason, at any step of the
// write path — leaves no trace. The test populates a server, fingerprints
// the store (every live KV byte for byte, with its create/mod revisions),
// the revision, and the managedFields of the objects written by apply,
// runs a batch of failing (and dry-run) requests, and checks that:
//
//   - every request got the real server's Status (code, reason, message);
//   - the fingerprint and the revision are byte-identical afterwards;
//   - a watch from the revision before the batch sees no event at all.
//
// The helpers at the top (relServer, relDo, relStatus ...) are shared by
// concurrency_test.go, limits_test.go and fuzz_test.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// relWidgetCRD is the widget CRD of the conformance scenarios (status and
// scale subresources, defaults, enum, bounds, a map-list) in group
// rel.example.com.
const relWidgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.rel.example.com"},
"spec":{"group":"rel.example.com","names":{"kind":"Widget","listKind":"WidgetList","plural":"widgets","singular":"widget"},
"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,
"schema":{"openAPIV3Schema":{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "color":{"type":"string","default":"blue","enum":["red","green","blue"]},
  "config":{"type":"object","additionalProperties":{"type":"string"}},
  "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
   "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer","minimum":1,"maximum":65535},"protocol":{"type":"string","default":"TCP"}}}},
  "replicas":{"type":"integer","default":1,"minimum":0,"maximum":100},
  "counter":{"type":"integer"},
  "size":{"type":"string","maxLength":8},
  "tags":{"type":"array","items":{"type":"string"}}}},
 "status":{"type":"object","properties":{"message":{"type":"string"},"phase":{"type":"string"},"replicas":{"type":"integer"},"selector":{"type":"string"}}}}}},
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".status.selector"}}}]}}`

const (
	relNS      = "/api/v1/namespaces"
	relCMs     = "/api/v1/namespaces/rel/configmaps"
	relWidgets = "/apis/rel.example.com/v1/namespaces/rel/widgets"
	relJSON    = "application/json"
	relMerge   = "application/merge-patch+json"
	relJPatch  = "application/json-patch+json"
	relSMP     = "application/strategic-merge-patch+json"
	relApply   = "application/apply-patch+yaml"
)

// relResp is one recorded response.
type relResp struct {
	Code int
	Hdr  http.Header
	Body []byte
}

// relDo sends one request to h. path may carry a query ("?dryRun=All").
func relDo(h http.Handler, method, path, ct, body string) relResp {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	req.Header.Set("User-Agent", "reliability-test/v1")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return relResp{Code: rec.Code, Hdr: rec.Header(), Body: rec.Body.Bytes()}
}

// relMust sends a request that must answer want.
func relMust(t testing.TB, h http.Handler, want int, method, path, ct, body string) map[string]any {
	t.Helper()
	r := relDo(h, method, path, ct, body)
	if r.Code != want {
		t.Fatalf("%s %s: got %d, want %d: %s", method, path, r.Code, want, r.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("%s %s: response is not JSON: %v: %q", method, path, err, r.Body)
	}
	return m
}

// relStatus is the wire form of a failure Status.
type relStatus struct {
	Kind       string         `json:"kind"`
	APIVersion string         `json:"apiVersion"`
	Status     string         `json:"status"`
	Message    string         `json:"message"`
	Reason     string         `json:"reason"`
	Code       int            `json:"code"`
	Details    map[string]any `json:"details"`
	Metadata   map[string]any `json:"metadata"`
}

// relParseStatus checks that r is a well-formed failure Status whose code
// matches the HTTP code.
func relParseStatus(r relResp) (relStatus, error) {
	var st relStatus
	if ct := r.Hdr.Get("Content-Type"); ct != "application/json" {
		return st, fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return st, fmt.Errorf("not a Status: %v: %q", err, r.Body)
	}
	switch {
	case st.Kind != "Status" || st.APIVersion != "v1":
		return st, fmt.Errorf("kind/apiVersion %s/%s", st.Kind, st.APIVersion)
	case st.Status != "Failure":
		return st, fmt.Errorf("status %q", st.Status)
	case st.Code != r.Code:
		return st, fmt.Errorf("code %d in a %d response", st.Code, r.Code)
	case st.Metadata == nil:
		return st, fmt.Errorf("no metadata")
	case st.Message == "" && st.Code != http.StatusNotFound:
		return st, fmt.Errorf("empty message")
	}
	return st, nil
}

// relServer is a populated server:
//
//	namespace rel      configmap cm1 {count: "0"}, configmap held (finalizer,
//	                   deleting), widget w1 (applied by alice: managedFields
//	                   with an Apply entry), widget wfin (finalizer, deleting)
//	namespace doomed   Terminating, held by configmap pin (finalizer)
//	CRD widgets.rel.example.com
func relServer(t testing.TB) *apiserver.Server {
	t.Helper()
	s := apiserver.New(apiserver.Options{})
	relMust(t, s, 201, "POST", relNS, relJSON, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"rel"}}`)
	relMust(t, s, 201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", relJSON, relWidgetCRD)
	relMust(t, s, 201, "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","labels":{"app":"rel"}},"data":{"count":"0"}}`)
	relMust(t, s, 201, "PATCH", relWidgets+"/w1?fieldManager=alice", relApply,
		`{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"color":"red","replicas":2,"counter":0}}`)
	relMust(t, s, 200, "PATCH", relWidgets+"/w1?fieldManager=bob", relApply,
		`{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"tags":["a","b"]}}`)
	relMust(t, s, 201, "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"held","finalizers":["example.com/hold"]}}`)
	relMust(t, s, 200, "DELETE", relCMs+"/held", "", "")
	relMust(t, s, 201, "POST", relWidgets, relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"wfin","finalizers":["example.com/hold"]},"spec":{"color":"green"}}`)
	relMust(t, s, 200, "DELETE", relWidgets+"/wfin", "", "")
	relMust(t, s, 201, "POST", relNS, relJSON, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"doomed"}}`)
	relMust(t, s, 201, "POST", "/api/v1/namespaces/doomed/configmaps", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"pin","finalizers":["example.com/hold"]}}`)
	relMust(t, s, 200, "DELETE", relNS+"/doomed", "", "")
	return s
}

// relFingerprint is every live KV (key, revisions, value bytes) and the
// revision.
func relFingerprint(s *apiserver.Server) ([]byte, store.Revision) {
	kvs, rev := s.Store().Snapshot()
	var b bytes.Buffer
	for _, kv := range kvs {
		fmt.Fprintf(&b, "%s c=%d m=%d %s\n", kv.Key, kv.CreateRev, kv.ModRev, kv.Value)
	}
	return b.Bytes(), rev
}

// relManagedFields is the managedFields of an object as GET shows them.
func relManagedFields(t testing.TB, h http.Handler, path string) string {
	t.Helper()
	obj := relMust(t, h, 200, "GET", path, "", "")
	md, _ := obj["metadata"].(map[string]any)
	b, _ := json.Marshal(md["managedFields"])
	return string(b)
}

// relRV is the resourceVersion of the object at path.
func relRV(t testing.TB, h http.Handler, path string) string {
	t.Helper()
	obj := relMust(t, h, 200, "GET", path, "", "")
	md, _ := obj["metadata"].(map[string]any)
	rv, _ := md["resourceVersion"].(string)
	return rv
}

// relUID is the uid of the object at path.
func relUID(t testing.TB, h http.Handler, path string) string {
	t.Helper()
	obj := relMust(t, h, 200, "GET", path, "", "")
	md, _ := obj["metadata"].(map[string]any)
	uid, _ := md["uid"].(string)
	return uid
}

// relFailing is one request that must fail (code/reason/message) or, for
// dry runs, succeed (code only) — without writing anything.
type relFailing struct {
	name, method, path, ct, body string
	code                         int
	reason                       string
	msg                          string // exact message ("" = not checked)
	msgPrefix                    string
}

func relFailingRequests(t *testing.T, s *apiserver.Server) []relFailing {
	cmRV := relRV(t, s, relCMs+"/cm1")
	cmUID := relUID(t, s, relCMs+"/cm1")
	wRV := relRV(t, s, relWidgets+"/w1")
	stale := "2"
	if cmRV == stale || wRV == stale {
		t.Fatalf("fixture: rv %s / %s collide with the stale rv", cmRV, wRV)
	}
	cm := func(extra string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"` + extra + `},"data":{"count":"9"}}`
	}
	w := func(meta, spec string) string {
		return `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"` + meta + `},"spec":{` + spec + `}}`
	}
	big := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"x":"` + strings.Repeat("x", 3<<20) + `"}}`
	const tooLarge = "Request entity too large: limit is 3145728"
	const modified = "the object has been modified; please apply your changes to the latest version and try again"
	const generic422 = "the server rejected our request due to an error in our request"
	return []relFailing{
		// --- invalid bodies
		{name: "create/bad JSON", method: "POST", path: relCMs, ct: relJSON, body: `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"`,
			code: 400, reason: "BadRequest", msg: `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion": "v1", "kind": " ...)`},
		{name: "create CR/wrong kind", method: "POST", path: relWidgets, ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Gizmo","metadata":{"name":"w9"}}`,
			code: 422, reason: "Invalid", msg: `Gizmo.rel.example.com "w9" is invalid: kind: Invalid value: "Gizmo": must be Widget`},
		{name: "create CR/wrong apiVersion", method: "POST", path: relWidgets, ct: relJSON, body: `{"apiVersion":"other.example.com/v1","kind":"Widget","metadata":{"name":"w9"}}`,
			code: 400, reason: "BadRequest", msg: "the API version in the data (other.example.com/v1) does not match the expected API version (rel.example.com/v1)"},
		{name: "create/metadata array", method: "POST", path: relCMs, ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":[]}`,
			code: 400, reason: "BadRequest", msg: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta`},
		{name: "update/metadata string", method: "PUT", path: relCMs + "/cm1", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":"cm1"}`,
			code: 400, reason: "BadRequest", msg: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta`},
		{name: "create CR/metadata array", method: "POST", path: relWidgets, ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":[1]}`,
			code: 400, reason: "BadRequest", msg: `Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal array into Go value of type v1.ObjectMeta`},
		{name: "create/invalid name", method: "POST", path: relCMs, ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name"}}`,
			code: 422, reason: "Invalid", msgPrefix: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain`},
		{name: "create CR/invalid label", method: "POST", path: relWidgets, ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w9","labels":{"app":"not ok!"}}}`,
			code: 422, reason: "Invalid", msgPrefix: `Widget.rel.example.com "w9" is invalid: metadata.labels: Invalid value: "not ok!": a valid label must be`},
		{name: "create CR/schema violation", method: "POST", path: relWidgets, ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w9"},"spec":{"color":"purple"}}`,
			code: 422, reason: "Invalid", msg: `Widget.rel.example.com "w9" is invalid: spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"`},
		{name: "create CR/strict unknown field", method: "POST", path: relWidgets + "?fieldValidation=Strict", ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w9"},"spec":{"bogus":1}}`,
			code: 400, reason: "BadRequest", msg: `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"`},
		{name: "create/exists", method: "POST", path: relCMs, ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"}}`,
			code: 409, reason: "AlreadyExists", msg: `configmaps "cm1" already exists`},
		{name: "create/no namespace", method: "POST", path: "/api/v1/namespaces/nope/configmaps", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`,
			code: 404, reason: "NotFound", msg: `namespaces "nope" not found`},
		{name: "update/bad JSON", method: "PUT", path: relCMs + "/cm1", ct: relJSON, body: `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {`,
			code: 400, reason: "BadRequest", msgPrefix: "the object provided is unrecognized (must be of type ConfigMap)"},
		{name: "update CR/schema violation", method: "PUT", path: relWidgets + "/w1", ct: relJSON, body: w(`,"resourceVersion":"`+wRV+`"`, `"replicas":101`),
			code: 422, reason: "Invalid", msg: `Widget.rel.example.com "w1" is invalid: spec.replicas: Invalid value: 101: spec.replicas in body should be less than or equal to 100`},
		{name: "update/name mismatch", method: "PUT", path: relCMs + "/cm2", ct: relJSON, body: cm(""),
			code: 400, reason: "BadRequest", msg: "the name of the object (cm1) does not match the name on the URL (cm2)"},
		{name: "update CR/no resourceVersion", method: "PUT", path: relWidgets + "/w1", ct: relJSON, body: w("", `"replicas":3`),
			code: 422, reason: "Invalid", msg: `widgets.rel.example.com "w1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`},
		// --- conflicts
		{name: "update/stale resourceVersion", method: "PUT", path: relCMs + "/cm1", ct: relJSON, body: cm(`,"resourceVersion":"` + stale + `"`),
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on configmaps "cm1": ` + modified},
		{name: "update CR/stale resourceVersion", method: "PUT", path: relWidgets + "/w1", ct: relJSON, body: w(`,"resourceVersion":"`+stale+`"`, `"replicas":3`),
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on widgets.rel.example.com "w1": ` + modified},
		{name: "status/stale resourceVersion", method: "PUT", path: relWidgets + "/w1/status", ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1","resourceVersion":"` + stale + `"},"status":{"phase":"X"}}`,
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on widgets.rel.example.com "w1": ` + modified},
		{name: "merge patch/stale resourceVersion", method: "PATCH", path: relCMs + "/cm1", ct: relMerge, body: `{"metadata":{"resourceVersion":"` + stale + `"},"data":{"count":"5"}}`,
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on configmaps "cm1": ` + modified},
		{name: "delete/stale resourceVersion precondition", method: "DELETE", path: relCMs + "/cm1", ct: relJSON, body: `{"preconditions":{"resourceVersion":"` + stale + `"}}`,
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on ConfigMap "cm1": the ResourceVersion in the precondition (` + stale + `) does not match the ResourceVersion in record (` + cmRV + `). The object might have been modified`},
		{name: "delete/uid precondition", method: "DELETE", path: relCMs + "/cm1", ct: relJSON, body: `{"preconditions":{"uid":"00000000-0000-0000-0000-000000000000"}}`,
			code: 409, reason: "Conflict", msg: `Operation cannot be fulfilled on ConfigMap "cm1": the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record (` + cmUID + `). The object might have been deleted and then recreated`},
		{name: "apply/conflict without force", method: "PATCH", path: relWidgets + "/w1?fieldManager=carol", ct: relApply, body: w("", `"color":"blue"`),
			code: 409, reason: "Conflict", msg: `Apply failed with 1 conflict: conflict with "alice": .spec.color`},
		{name: "apply/two conflicts without force", method: "PATCH", path: relWidgets + "/w1?fieldManager=carol", ct: relApply, body: w("", `"color":"blue","replicas":7`),
			code: 409, reason: "Conflict", msg: "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .spec.color\n- .spec.replicas"},
		// --- forbidden
		{name: "patch/new finalizer while deleting", method: "PATCH", path: relCMs + "/held", ct: relJPatch, body: `[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/another"}]`,
			code: 422, reason: "Invalid", msg: `ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/another"}`},
		{name: "patch CR/new finalizer while deleting", method: "PATCH", path: relWidgets + "/wfin", ct: relMerge, body: `{"metadata":{"finalizers":["example.com/hold","example.com/another"]}}`,
			code: 422, reason: "Invalid", msg: `Widget.rel.example.com "wfin" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/another"}`},
		{name: "create in terminating namespace", method: "POST", path: "/api/v1/namespaces/doomed/configmaps", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"late"}}`,
			code: 403, reason: "Forbidden", msg: `configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated`},
		{name: "apply-create in terminating namespace", method: "PATCH", path: "/api/v1/namespaces/doomed/configmaps/late?fieldManager=alice", ct: relApply, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"late"}}`,
			code: 403, reason: "Forbidden", msg: `configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated`},
		// --- too large
		{name: "create/body over 3 MiB", method: "POST", path: relCMs, ct: relJSON, body: big, code: 413, reason: "RequestEntityTooLarge", msg: tooLarge},
		{name: "update/body over 3 MiB", method: "PUT", path: relCMs + "/cm1", ct: relJSON, body: big, code: 413, reason: "RequestEntityTooLarge", msg: tooLarge},
		{name: "patch/body over 3 MiB", method: "PATCH", path: relCMs + "/cm1", ct: relMerge, body: big, code: 413, reason: "RequestEntityTooLarge", msg: tooLarge},
		{name: "apply/body over 3 MiB", method: "PATCH", path: relWidgets + "/w1?fieldManager=alice", ct: relApply, body: big, code: 413, reason: "RequestEntityTooLarge", msg: tooLarge},
		// --- malformed patches
		{name: "json patch/test fails", method: "PATCH", path: relCMs + "/cm1", ct: relJPatch, body: `[{"op":"test","path":"/data/count","value":"41"},{"op":"replace","path":"/data/count","value":"42"}]`,
			code: 422, reason: "Invalid", msg: generic422},
		{name: "json patch/missing path", method: "PATCH", path: relCMs + "/cm1", ct: relJPatch, body: `[{"op":"remove","path":"/data/nope"}]`,
			code: 422, reason: "Invalid", msg: generic422},
		{name: "json patch/not JSON", method: "PATCH", path: relCMs + "/cm1", ct: relJPatch, body: `[{"op":`,
			code: 400, reason: "BadRequest"},
		{name: "merge patch/not JSON", method: "PATCH", path: relCMs + "/cm1", ct: relMerge, body: `{"data":`,
			code: 400, reason: "BadRequest"},
		{name: "merge patch/null", method: "PATCH", path: relCMs + "/cm1", ct: relMerge, body: `null`,
			code: 400, reason: "BadRequest", msg: "Invalid JSON Patch"},
		{name: "smp/bad retainKeys", method: "PATCH", path: relCMs + "/cm1", ct: relSMP, body: `{"data":{"$retainKeys":"count"}}`,
			code: 400, reason: "BadRequest", msg: "invalid patch format of retainKeys"},
		{name: "merge patch/changes name", method: "PATCH", path: relCMs + "/cm1", ct: relMerge, body: `{"metadata":{"name":"cm2"}}`,
			code: 400, reason: "BadRequest", msg: "the name of the object (cm2) does not match the name on the URL (cm1)"},
		{name: "merge patch CR/schema violation", method: "PATCH", path: relWidgets + "/w1", ct: relMerge, body: `{"spec":{"replicas":-1}}`,
			code: 422, reason: "Invalid", msgPrefix: `Widget.rel.example.com "w1" is invalid: [`}, // cause order is not significant (conformance rule 3)
		{name: "apply/not YAML", method: "PATCH", path: relWidgets + "/w1?fieldManager=alice", ct: relApply, body: "spec: [\n",
			code: 400, reason: "BadRequest"},
		// --- unsupported media types
		{name: "create/text/plain", method: "POST", path: relCMs, ct: "text/plain", body: cm(""),
			code: 415, reason: "UnsupportedMediaType", msg: "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"},
		{name: "patch CR/strategic merge patch", method: "PATCH", path: relWidgets + "/w1", ct: relSMP, body: `{"spec":{"replicas":3}}`,
			code: 415, reason: "UnsupportedMediaType", msg: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"},
		{name: "patch/application/json", method: "PATCH", path: relCMs + "/cm1", ct: relJSON, body: `{"data":{}}`,
			code: 415, reason: "UnsupportedMediaType", msg: "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml"},
		// --- invalid options
		{name: "create/dryRun=Maybe", method: "POST", path: relCMs + "?dryRun=Maybe", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`,
			code: 422, reason: "Invalid", msg: `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Maybe"]: supported values: "All"`},
		{name: "update/dryRun=Maybe", method: "PUT", path: relCMs + "/cm1?dryRun=Maybe", ct: relJSON, body: cm(""),
			code: 422, reason: "Invalid", msg: `UpdateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Maybe"]: supported values: "All"`},
		{name: "patch/dryRun=Maybe", method: "PATCH", path: relCMs + "/cm1?dryRun=Maybe", ct: relMerge, body: `{"data":{"count":"1"}}`,
			code: 422, reason: "Invalid", msg: `PatchOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Maybe"]: supported values: "All"`},
		{name: "delete/dryRun=Maybe", method: "DELETE", path: relCMs + "/cm1?dryRun=Maybe",
			code: 422, reason: "Invalid", msg: `DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Maybe"]: supported values: "All"`},
		{name: "create/fieldValidation=Loose", method: "POST", path: relCMs + "?fieldValidation=Loose", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`,
			code: 422, reason: "Invalid", msg: `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"`},
		{name: "delete/propagationPolicy=Sometimes", method: "DELETE", path: relCMs + "/cm1?propagationPolicy=Sometimes",
			code: 422, reason: "Invalid", msg: `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{name: "apply/no fieldManager", method: "PATCH", path: relWidgets + "/w1", ct: relApply, body: w("", `"color":"red"`),
			code: 422, reason: "Invalid", msg: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		{name: "merge patch/force", method: "PATCH", path: relCMs + "/cm1?force=true", ct: relMerge, body: `{"data":{"count":"1"}}`,
			code: 422, reason: "Invalid", msg: `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`},
		{name: "create/fieldManager too long", method: "POST", path: relCMs + "?fieldManager=" + strings.Repeat("m", 129), ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`,
			code: 422, reason: "Invalid", msg: `CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`},
		// --- dry-run writes of every verb (succeed, store nothing)
		{name: "dry run/create", method: "POST", path: relCMs + "?dryRun=All", ct: relJSON, body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dry"}}`, code: 201},
		{name: "dry run/create CR", method: "POST", path: relWidgets + "?dryRun=All", ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"dry"}}`, code: 201},
		{name: "dry run/update", method: "PUT", path: relCMs + "/cm1?dryRun=All", ct: relJSON, body: cm(`,"resourceVersion":"` + cmRV + `"`), code: 200},
		{name: "dry run/status update", method: "PUT", path: relWidgets + "/w1/status?dryRun=All", ct: relJSON, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1","resourceVersion":"` + wRV + `"},"status":{"phase":"Dry"}}`, code: 200},
		{name: "dry run/merge patch", method: "PATCH", path: relCMs + "/cm1?dryRun=All", ct: relMerge, body: `{"data":{"count":"7"}}`, code: 200},
		{name: "dry run/json patch", method: "PATCH", path: relCMs + "/cm1?dryRun=All", ct: relJPatch, body: `[{"op":"replace","path":"/data/count","value":"8"}]`, code: 200},
		{name: "dry run/strategic patch", method: "PATCH", path: relCMs + "/cm1?dryRun=All", ct: relSMP, body: `{"data":{"count":"9"}}`, code: 200},
		{name: "dry run/apply", method: "PATCH", path: relWidgets + "/w1?dryRun=All&fieldManager=alice", ct: relApply, body: w("", `"color":"green","replicas":5`), code: 200},
		{name: "dry run/forced apply", method: "PATCH", path: relWidgets + "/w1?dryRun=All&fieldManager=carol&force=true", ct: relApply, body: w("", `"color":"blue"`), code: 200},
		{name: "dry run/apply create", method: "PATCH", path: relWidgets + "/dry2?dryRun=All&fieldManager=alice", ct: relApply, body: `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"dry2"}}`, code: 201},
		{name: "dry run/scale", method: "PUT", path: relWidgets + "/w1/scale?dryRun=All", ct: relJSON, body: `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w1","namespace":"rel"},"spec":{"replicas":9}}`, code: 200},
		{name: "dry run/delete", method: "DELETE", path: relCMs + "/cm1?dryRun=All", code: 200},
		{name: "dry run/delete finalizing", method: "DELETE", path: relCMs + "/held?dryRun=All", code: 200},
		{name: "dry run/delete with finalizer removal", method: "PATCH", path: relWidgets + "/wfin?dryRun=All", ct: relMerge, body: `{"metadata":{"finalizers":null}}`, code: 200},
		{name: "dry run/delete namespace", method: "DELETE", path: relNS + "/rel?dryRun=All", code: 200},
		{name: "dry run/delete CRD", method: "DELETE", path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.rel.example.com?dryRun=All", code: 200},
		{name: "dry run/delete collection", method: "DELETE", path: relCMs + "?dryRun=All", code: 200},
	}
}

func TestFailedRequestsChangeNothing(t *testing.T) {
	s := relServer(t)
	reqs := relFailingRequests(t, s)

	beforeFP, beforeRev := relFingerprint(s)
	beforeMF := relManagedFields(t, s, relWidgets+"/w1")
	if !strings.Contains(beforeMF, `"operation":"Apply"`) {
		t.Fatalf("fixture: w1 has no Apply managedFields entry: %s", beforeMF)
	}

	for _, c := range reqs {
		t.Run(c.name, func(t *testing.T) {
			r := relDo(s, c.method, c.path, c.ct, c.body)
			if r.Code != c.code {
				t.Fatalf("got %d, want %d: %.400s", r.Code, c.code, r.Body)
			}
			if c.reason == "" {
				return // a dry run: success
			}
			st, err := relParseStatus(r)
			if err != nil {
				t.Fatal(err)
			}
			if st.Reason != c.reason {
				t.Errorf("reason %q, want %q (message %q)", st.Reason, c.reason, st.Message)
			}
			if c.msg != "" && st.Message != c.msg {
				t.Errorf("message\n got %q\nwant %q", st.Message, c.msg)
			}
			if c.msgPrefix != "" && !strings.HasPrefix(st.Message, c.msgPrefix) {
				t.Errorf("message\n got %q\nwant prefix %q", st.Message, c.msgPrefix)
			}
		})
	}

	afterFP, afterRev := relFingerprint(s)
	if afterRev != beforeRev {
		t.Errorf("revision moved from %d to %d", beforeRev, afterRev)
	}
	if !bytes.Equal(afterFP, beforeFP) {
		t.Errorf("store changed:\n%s", relDiffLines(string(beforeFP), string(afterFP)))
	}
	if mf := relManagedFields(t, s, relWidgets+"/w1"); mf != beforeMF {
		t.Errorf("managedFields of w1 changed:\n before %s\n after  %s", beforeMF, mf)
	}
	w, err := s.Store().Watch("", beforeRev)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if evs, err := w.Next(ctx); err == nil {
		t.Errorf("a watch from rev %d saw %d events, first on %s", beforeRev, len(evs), evs[0].KV.Key)
	}
	// the API's own watch agrees: nothing after beforeRev
	r := relDo(s, "GET", fmt.Sprintf("/api/v1/configmaps?watch=1&timeoutSeconds=1&resourceVersion=%d", beforeRev), "", "")
	if r.Code != 200 || len(bytes.TrimSpace(r.Body)) != 0 {
		t.Errorf("API watch from rev %d: %d %q", beforeRev, r.Code, r.Body)
	}
}

// relDiffLines lists the lines only in a (-) or only in b (+).
func relDiffLines(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out strings.Builder
	for _, l := range strings.Split(a, "\n") {
		if !mb[l] {
			fmt.Fprintf(&out, "- %.300s\n", l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ma[l] {
			fmt.Fprintf(&out, "+ %.300s\n", l)
		}
	}
	return out.String()
}

// A namespace is held by spec.finalizers ("kubernetes") until its content
// is gone, as the real namespace registry's ShouldDeleteNamespaceDuringUpdate
// rules: deleting it must neither drop the namespace while an object with
// a finalizer lives in it (leaving that object orphaned), nor keep content
// that has no finalizer.
func TestNamespaceDeleteWaitsForContent(t *testing.T) {
	s := apiserver.New(apiserver.Options{})
	relMust(t, s, 201, "POST", relNS, relJSON, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns1"}}`)
	relMust(t, s, 201, "POST", relNS+"/ns1/configmaps", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"plain"}}`)
	relMust(t, s, 201, "POST", relNS+"/ns1/configmaps", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"pin","finalizers":["example.com/hold"]}}`)
	ns := relMust(t, s, 200, "DELETE", relNS+"/ns1", "", "")
	if p, _ := ns["status"].(map[string]any)["phase"].(string); p != "Terminating" {
		t.Errorf("DELETE answered phase %q, want Terminating", p)
	}
	relMust(t, s, 404, "GET", relNS+"/ns1/configmaps/plain", "", "")
	pin := relMust(t, s, 200, "GET", relNS+"/ns1/configmaps/pin", "", "")
	if pin["metadata"].(map[string]any)["deletionTimestamp"] == nil {
		t.Errorf("pin is not being deleted: %v", pin["metadata"])
	}
	ns = relMust(t, s, 200, "GET", relNS+"/ns1", "", "")
	if p, _ := ns["status"].(map[string]any)["phase"].(string); p != "Terminating" {
		t.Errorf("namespace phase %q, want Terminating", p)
	}
	// releasing the last finalizer lets the namespace go
	relMust(t, s, 200, "PATCH", relNS+"/ns1/configmaps/pin", relMerge, `{"metadata":{"finalizers":null}}`)
	deadline := time.Now().Add(5 * time.Second)
	for relDo(s, "GET", relNS+"/ns1", "", "").Code != 404 {
		if time.Now().After(deadline) {
			t.Fatal("namespace ns1 still exists after its content is gone")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
