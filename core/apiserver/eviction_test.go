package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// pods/eviction (core/builtin/eviction.go) against PodDisruptionBudgets
// whose status the test writes, as the disruption controller would: the
// answers, texts and causes of kube-apiserver v1.37.2's EvictionREST.

const pdbsPath = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"

func eviction(name, extra string) string {
	return `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"` + name + `"}` + extra + `}`
}

// runningPod creates pod name with labels app=web, on node n1, Running,
// Ready as given.
func runningPod(t *testing.T, s *Server, name string, ready bool) {
	t.Helper()
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"`+name+`","labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`)
	mustDo(t, s, 201, "POST", podsPath+"/"+name+"/binding", hooksJSON, binding(name, "n1"))
	r := "False"
	if ready {
		r = "True"
	}
	mustDo(t, s, 200, "PATCH", podsPath+"/"+name+"/status", hooksMerge, `{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"`+r+`"}]}}`)
}

func pdbStatus(t *testing.T, s *Server, name string, current, desired, allowed int) {
	t.Helper()
	mustDo(t, s, 200, "PATCH", pdbsPath+"/"+name+"/status", hooksMerge, `{"status":{"observedGeneration":1,"currentHealthy":`+strconv.Itoa(current)+
		`,"desiredHealthy":`+strconv.Itoa(desired)+`,"expectedPods":2,"disruptionsAllowed":`+strconv.Itoa(allowed)+`}}`)
}

func TestPodEviction(t *testing.T) {
	s := New(Options{})
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pending","labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`)
	runningPod(t, s, "a", true)
	runningPod(t, s, "b", true)
	runningPod(t, s, "sick", false)
	mustDo(t, s, 201, "POST", pdbsPath, hooksJSON, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`)

	type step struct {
		name, pod, body string
		query           string
		setup           func()
		code            int
		reason, message string
		cause           string // the DisruptionBudget cause's message
		retryAfter      string
		gone            bool // the pod is deleted (or being deleted) afterwards
	}
	budgetSays := "Cannot evict pod as it would violate the pod's disruption budget."
	for _, c := range []step{
		{name: "name mismatch", pod: "a", body: eviction("b", ""), code: 400, reason: "BadRequest", message: "name in URL does not match name in Eviction object"},
		{name: "namespace mismatch", pod: "a", body: `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"a","namespace":"kube-system"}}`, code: 400, message: "the namespace of the provided object does not match the namespace sent on the request"},
		{name: "no such pod", pod: "nope", body: eviction("nope", ""), code: 404, reason: "NotFound", message: `pods "nope" not found`},
		{name: "dry-run options disagree", pod: "a", query: "?dryRun=All", body: eviction("a", `,"deleteOptions":{"dryRun":["Bogus"]}`), code: 500, message: "Non-matching dry-run options in request and content: [All] and [Bogus]"},
		{name: "ignoreStoreReadError refused", pod: "a", body: eviction("a", `,"deleteOptions":{"ignoreStoreReadErrorWithClusterBreakingPotential":true}`), code: 422, reason: "Invalid",
			message: `Eviction.policy "a" is invalid: deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: can not be set for pod eviction, try after removing the option`},
		{name: "a pending pod goes without a budget check", pod: "pending", body: eviction("pending", ""), code: 201, gone: true},
		{name: "a budget not yet observed", pod: "a", body: eviction("a", ""), code: 429, reason: "TooManyRequests", message: budgetSays,
			cause: "The disruption budget web is still being processed by the server.", retryAfter: "10"},
		{name: "dry run", pod: "a", body: eviction("a", `,"deleteOptions":{"dryRun":["All"]}`), setup: func() { pdbStatus(t, s, "web", 3, 1, 2) }, code: 201},
		{name: "evicted", pod: "a", body: eviction("a", ""), code: 201, gone: true},
		{name: "an unready pod goes when the budget is met", pod: "sick", body: eviction("sick", ""), code: 201, gone: true},
		{name: "budget spent", pod: "b", body: eviction("b", ""), setup: func() { pdbStatus(t, s, "web", 2, 1, 0) }, code: 429, reason: "TooManyRequests", message: budgetSays,
			cause: "The disruption budget web does not allow evicting pods currently"},
		{name: "budget needs more", pod: "b", body: eviction("b", ""), setup: func() { pdbStatus(t, s, "web", 1, 1, 0) }, code: 429, message: budgetSays,
			cause: "The disruption budget web needs 1 healthy pods and has 1 currently"},
		{name: "negative budget", pod: "b", body: eviction("b", ""), setup: func() {
			// policy/v1 status writes refuse a negative count (a v1beta1
			// client could write one); set it in storage
			res := s.reg.lookup("policy", "v1", "poddisruptionbudgets")
			_, _, err := s.store.Update(storageKey(res, "default", "web"), func(cur *store.KV, next store.Revision) (store.Op, error) {
				obj, err := decodeStoredFor(res, *cur)
				if err != nil {
					return store.NoOp(), err
				}
				obj["status"].(map[string]any)["disruptionsAllowed"] = int64(-1)
				b, err := encodeForStore(res, obj, next)
				return store.PutOp(b), err
			})
			if err != nil {
				t.Fatal(err)
			}
		}, code: 403, reason: "Forbidden", message: `poddisruptionbudget.policy "web" is forbidden: pdb disruptions allowed is negative`,
			cause: "The disruption budget web does not allow evicting pods currently: pdb disruptions allowed is negative"},
		{name: "two budgets", pod: "b", body: eviction("b", ""), setup: func() {
			mustDo(t, s, 201, "POST", pdbsPath, hooksJSON, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"all"},"spec":{"maxUnavailable":1,"selector":{}}}`)
		}, code: 201, message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."},
		{name: "GET is not served", pod: "b", code: 405, reason: "MethodNotAllowed", message: `get is not supported on resources of kind "pods/eviction"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup()
			}
			method := "POST"
			if c.body == "" {
				method = "GET"
			}
			req := httptest.NewRequest(method, podsPath+"/"+c.pod+"/eviction"+c.query, strings.NewReader(c.body))
			req.Header.Set("Content-Type", hooksJSON)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var out map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
				t.Fatal(err)
			}
			if w.Code != c.code || (c.reason != "" && out["reason"] != c.reason) || (c.message != "" && out["message"] != c.message) {
				t.Fatalf("%d %s, want %d %s %q", w.Code, w.Body, c.code, c.reason, c.message)
			}
			if got := w.Header().Get("Retry-After"); got != c.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, c.retryAfter)
			}
			if c.cause != "" {
				d, _ := out["details"].(map[string]any)
				causes, _ := d["causes"].([]any)
				if len(causes) != 1 || jsonOf(causes[0]) != jsonOf(map[string]any{"reason": "DisruptionBudget", "message": c.cause}) {
					t.Errorf("causes %v, want %q", causes, c.cause)
				}
			}
			if c.code == 201 && c.message == "" && jsonOf(out) != `{"apiVersion":"v1","code":201,"kind":"Status","metadata":{},"status":"Success"}` {
				t.Errorf("answer %s", w.Body)
			}
			if c.code == 201 && c.message != "" && (out["status"] != "Failure" || out["code"] != float64(500)) {
				t.Errorf("answer %s", w.Body)
			}
			code, pod := do(t, s, "GET", podsPath+"/"+c.pod, "", "")
			if gone := code == 404 || metaOf(pod)["deletionTimestamp"] != nil; c.code != 404 && gone != c.gone {
				t.Errorf("pod %s: GET answers %d %v, gone should be %v", c.pod, code, metaOf(pod), c.gone)
			}
		})
	}
	pdb := mustDo(t, s, 200, "GET", pdbsPath+"/web", "", "")
	st, _ := pdb["status"].(map[string]any)
	if st["disruptionsAllowed"] != float64(-1) {
		t.Errorf("status %v", st)
	}
	if mf := jsonOf(metaOf(pdb)["managedFields"]); !strings.Contains(mf, `"manager":"kube-apiserver","operation":"Update","subresource":"status"`) {
		t.Errorf("the eviction's status write is not kube-apiserver's: %v", metaOf(pdb)["managedFields"])
	}
}

// The eviction's effect on the budget and on the pod: disruptionsAllowed
// decremented, the pod recorded in disruptedPods, the DisruptionAllowed
// condition False once none is left, the pod's DisruptionTarget condition.
func TestPodEvictionRecordsDisruption(t *testing.T) {
	s := New(Options{})
	runningPod(t, s, "a", true)
	runningPod(t, s, "b", true)
	mustDo(t, s, 201, "POST", pdbsPath, hooksJSON, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`)
	pdbStatus(t, s, "web", 2, 1, 1)
	// a pod on a node is deleted gracefully: it stays, marked, with the condition
	mustDo(t, s, 201, "POST", podsPath+"/a/eviction", hooksJSON, eviction("a", `,"deleteOptions":{"gracePeriodSeconds":30}`))
	pod := mustDo(t, s, 200, "GET", podsPath+"/a", "", "")
	if metaOf(pod)["deletionTimestamp"] == nil || metaOf(pod)["deletionGracePeriodSeconds"] != float64(30) {
		t.Errorf("pod not being deleted: %v", metaOf(pod))
	}
	if !strings.Contains(jsonOf(pod["status"]), `"message":"Eviction API: evicting","reason":"EvictionByEvictionAPI","status":"True","type":"DisruptionTarget"`) {
		t.Errorf("no DisruptionTarget condition: %v", pod["status"])
	}
	st, _ := mustDo(t, s, 200, "GET", pdbsPath+"/web", "", "")["status"].(map[string]any)
	dp, _ := st["disruptedPods"].(map[string]any)
	if st["disruptionsAllowed"] != float64(0) || dp["a"] == nil {
		t.Errorf("status %v", st)
	}
	if !strings.Contains(jsonOf(st["conditions"]), `"reason":"InsufficientPods","status":"False","type":"DisruptionAllowed"`) {
		t.Errorf("conditions %v", st["conditions"])
	}
}
