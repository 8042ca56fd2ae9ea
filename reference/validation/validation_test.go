package validation

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
)

// casesPerKind is the size of the generated corpus per kind and operation
// (VALIDATION_DIFF_CASES overrides it: docs/differential.md reports a run
// of 1000, create and update, 2000 per kind); agreementFloor is the share
// of cases (modulo the known rendering of internal structs) that must
// agree, per kind and operation.
var casesPerKind = 250

const agreementFloor = 99.0

func init() {
	if n, err := strconv.Atoi(os.Getenv("VALIDATION_DIFF_CASES")); err == nil && n > 0 {
		casesPerKind = n
	}
}

var uidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// outcome is the list of causes ("reason|field|message"), none for a
// success; bad is set when the object could not be judged (a decoding
// error on the reference side).
type outcome struct {
	causes []string
	bad    string
}

func (o outcome) String() string {
	if o.bad != "" {
		return "undecodable: " + o.bad
	}
	if len(o.causes) == 0 {
		return "accepted"
	}
	return strings.Join(o.causes, "\n      ")
}

func norm(causes []string) []string {
	out := make([]string, len(causes))
	for i, c := range causes {
		out[i] = uidRE.ReplaceAllString(c, "<uid>")
	}
	return out
}

type server struct{ h http.Handler }

func newServer(t testing.TB) *server {
	s := &server{h: apiserver.New(apiserver.Options{})}
	s.must(t, "POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"v"}}`, 201)
	return s
}

func (s *server) do(method, path string, body []byte) (int, []byte) {
	req := httptest.NewRequest(method, path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

func (s *server) must(t testing.TB, method, path, body string, want int) {
	if code, b := s.do(method, path, []byte(body)); code != want {
		t.Fatalf("%s %s: %d %s", method, path, code, b)
	}
}

func collection(k *Kind) string {
	if k.Cluster {
		if k.GVK.Group == "" {
			return "/api/v1/" + k.Plural
		}
		return "/apis/" + k.GVK.Group + "/" + k.GVK.Version + "/" + k.Plural
	}
	if k.GVK.Group == "" {
		return "/api/v1/namespaces/v/" + k.Plural
	}
	return "/apis/" + k.GVK.Group + "/" + k.GVK.Version + "/namespaces/v/" + k.Plural
}

// ours sends the object to the sandbox (dry run) and reads the causes.
func (s *server) ours(k *Kind, method, path string, obj []byte) outcome {
	code, b := s.do(method, path+"?dryRun=All", obj)
	if code == 200 || code == 201 {
		return outcome{}
	}
	var st struct {
		Message string
		Details struct {
			Causes []struct{ Reason, Field, Message string }
		}
	}
	_ = json.Unmarshal(b, &st)
	if code != 422 {
		return outcome{bad: fmt.Sprintf("%d %s", code, st.Message)}
	}
	var causes []string
	for _, c := range st.Details.Causes {
		causes = append(causes, c.Reason+"|"+c.Field+"|"+c.Message)
	}
	return outcome{causes: norm(causes)}
}

// ref runs the real validation on what the server would hand it: the
// object in namespace v, on update with the stored resourceVersion.
//
// The real code ranges over Go maps (data keys, resource names), so its
// cause order can vary from run to run: when ours differs, the reference
// is run again, and ours agrees if any run gives its list.
func ref(k *Kind, obj, old []byte, ours outcome) outcome {
	obj = withMeta(obj, old != nil, k.Cluster)
	var first outcome
	for i := 0; i < 32; i++ {
		causes, err := RefCauses(k.GVK, obj, old)
		r := outcome{causes: norm(causes)}
		if err != nil {
			r = outcome{bad: err.Error()}
		}
		if i == 0 {
			first = r
		}
		if modRendering(r).String() == modRendering(ours).String() || r.bad != "" {
			return r
		}
	}
	return first
}

func withMeta(b []byte, update, cluster bool) []byte {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	if m["kind"] == "Service" && !update {
		allocate(m)
	}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		m["metadata"] = meta
	}
	if !cluster {
		meta["namespace"] = "v"
	}
	if update {
		meta["resourceVersion"] = "1"
	}
	out, _ := json.Marshal(m)
	return out
}

// allocate does for the reference what the service registry does before
// validation (the sandbox allocates after): a cluster IP, its family, and
// node ports for NodePort and LoadBalancer services.
func allocate(m map[string]any) {
	spec, _ := m["spec"].(map[string]any)
	if spec == nil || spec["type"] == "ExternalName" {
		return
	}
	if ip, _ := spec["clusterIP"].(string); ip == "" {
		spec["clusterIP"] = "10.96.0.10"
		spec["clusterIPs"] = []any{"10.96.0.10"}
	}
	if spec["ipFamilyPolicy"] == nil {
		spec["ipFamilyPolicy"] = "SingleStack"
	}
	if spec["ipFamilies"] == nil {
		spec["ipFamilies"] = []any{"IPv4"}
	}
	if t := spec["type"]; t == "NodePort" || t == "LoadBalancer" {
		ports, _ := spec["ports"].([]any)
		for i, p := range ports {
			if pm, ok := p.(map[string]any); ok && pm["nodePort"] == nil {
				pm["nodePort"] = 30000 + i
			}
		}
	}
}

type tally struct {
	kind, op         string
	n, agree, skip   int
	strict           int // agreeing byte for byte, rendering included
	disagree         []string
	refAccept, refNo int
}

var (
	podDiffRE      = regexp.MustCompile(`((?:pod updates may not change fields other than|spec is immutable after creation except|spec.persistentvolumesource is immutable after creation)[^\n]*)\n(?s:.*)$`)
	immutableTmpRE = regexp.MustCompile(`^(FieldValueInvalid\|[a-zA-Z.]*template\|Invalid value: )(?s:.*)(: field is immutable)$`)
)

// outsideValidation: the sandbox refused the object where a real server
// does too, outside the validation this differential compares — 403 from
// an admission plugin that runs before validation (Priority: a Pod naming
// a PriorityClass that does not exist, such as the generator's invalid
// names) and 409 AlreadyExists after it (the two system PriorityClasses
// every kube-apiserver bootstraps). Admission has its own transcripts
// (bi-admission-*).
func outsideValidation(o outcome) bool {
	return strings.HasPrefix(o.bad, "403 ") || (strings.HasPrefix(o.bad, "409 ") && strings.Contains(o.bad, "already exists"))
}

// modRendering hides the two texts in which the real server prints its
// internal Go structs (whose JSON has Go field names and every zero
// field): the diff after "pod updates may not change fields other than
// ...", and the bad value of an immutable pod template. They are the
// known disagreements listed in docs/differential.md.
func modRendering(o outcome) outcome {
	out := outcome{bad: o.bad}
	for _, c := range o.causes {
		c = podDiffRE.ReplaceAllString(c, "$1\n<diff>")
		c = immutableTmpRE.ReplaceAllString(c, "$1<template>$2")
		out.causes = append(out.causes, c)
	}
	return out
}

func (t *tally) add(id string, ours, r outcome) {
	if r.bad != "" {
		t.skip++ // the real server refuses it before validation (400)
		return
	}
	if outsideValidation(ours) {
		t.skip++
		return
	}
	t.n++
	if len(r.causes) == 0 {
		t.refAccept++
	} else {
		t.refNo++
	}
	if ours.String() == r.String() {
		t.strict++
		t.agree++
		return
	}
	if modRendering(ours).String() == modRendering(r).String() {
		t.agree++
		return
	}
	t.disagree = append(t.disagree, fmt.Sprintf("%s\n    ours: %s\n    real: %s", id, ours, r))
}

// TestValidationDifferential creates (and updates) generated objects of
// each kind in the sandbox and runs the real validation on them; the cause
// lists must agree. The per-kind table is in docs/differential.md; set
// VALIDATION_DIFF_VERBOSE=1 to list every disagreement, and
// VALIDATION_DIFF_KINDS=Ingress,Lease to run some kinds only.
func TestValidationDifferential(t *testing.T) {
	var tallies []*tally
	only := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("VALIDATION_DIFF_KINDS"), ",") {
		if n != "" {
			only[n] = true
		}
	}
	for _, k := range Kinds {
		if len(only) > 0 && !only[k.Name] {
			continue
		}
		s := newServer(t)
		create := &tally{kind: k.Name, op: "create"}
		for _, c := range k.Cases(casesPerKind, 1) {
			b, _ := json.Marshal(c.Obj)
			o := s.ours(k, "POST", collection(k), b)
			create.add(c.ID, o, ref(k, b, nil, o))
		}
		// updates: the base object stored, then each case's mutations of
		// the stored object PUT over it
		base, _ := json.Marshal(k.base())
		code, stored := s.do("POST", collection(k), base)
		if code != 201 {
			t.Fatalf("%s: base object refused: %s", k.Name, stored)
		}
		var storedObj map[string]any
		_ = json.Unmarshal(stored, &storedObj)
		delete(storedObj["metadata"].(map[string]any), "managedFields")
		stored, _ = json.Marshal(storedObj)
		oldForRef := withMeta(stored, true, k.Cluster)
		name := k.base()["metadata"].(map[string]any)["name"].(string)
		update := &tally{kind: k.Name, op: "update"}
		for _, c := range k.Cases(casesPerKind, 2) {
			var obj map[string]any
			_ = json.Unmarshal(stored, &obj)
			for _, m := range c.Muts {
				if m.Path != "metadata.name" { // a PUT to another name is a 400 before validation
					apply(obj, m)
				}
			}
			b, _ := json.Marshal(obj)
			o := s.ours(k, "PUT", collection(k)+"/"+name, b)
			update.add(c.ID, o, ref(k, b, oldForRef, o))
		}
		tallies = append(tallies, create, update)
	}
	verbose := os.Getenv("VALIDATION_DIFF_VERBOSE") != ""
	t.Logf("%-12s %-6s %6s %8s %6s %6s %8s %8s", "kind", "op", "cases", "rejected", "agree", "%", "strict", "skipped")
	for _, tl := range tallies {
		pct := 100 * float64(tl.agree) / float64(max(tl.n, 1))
		t.Logf("%-12s %-6s %6d %8d %6d %6.1f %8d %8d", tl.kind, tl.op, tl.n, tl.refNo, tl.agree, pct, tl.strict, tl.skip)
		if pct < agreementFloor {
			t.Errorf("%s %s: %.1f%% agreement, below the floor of %.0f%%", tl.kind, tl.op, pct, agreementFloor)
		}
	}
	for _, tl := range tallies {
		for i, d := range tl.disagree {
			if i >= 5 && !verbose {
				t.Logf("%s %s: %d more", tl.kind, tl.op, len(tl.disagree)-i)
				break
			}
			t.Logf("%s %s: %s", tl.kind, tl.op, d)
		}
	}
}
