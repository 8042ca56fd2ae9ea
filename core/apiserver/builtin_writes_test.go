package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Graceful deletion of Pods (the pod strategy's CheckGracefulDelete, wired
// by resource.Hooks.GracePeriod), as the real control plane answers: a pod
// no node runs is marked (deletionTimestamp, deletionGracePeriodSeconds 0,
// generation+1) and removed by a second write; a pod bound to a node keeps
// its grace period and stays until it is cut to 0.
func TestPodGracefulDelete(t *testing.T) {
	const pods = "/api/v1/namespaces/default/pods"
	pod := func(name, extra string) string {
		return `{"metadata":{"name":"` + name + `"` + extra + `},"spec":{` +
			map[bool]string{true: `"nodeName":"n1",`, false: ""}[name == "bound"] +
			`"containers":[{"name":"c","image":"nginx"}]}}`
	}
	rvOf := func(o map[string]any) int {
		n, _ := strconv.Atoi(metaStr(o, "resourceVersion"))
		return n
	}
	for _, c := range []struct {
		name, extra, query string
		wantGrace          int64
		wantGone           bool
	}{
		{name: "unscheduled", wantGrace: 0, wantGone: true},
		{name: "bound", wantGrace: 30},
		{name: "held", extra: `,"finalizers":["example.com/hold"]`, wantGrace: 0},
		{name: "dryrun", query: "?dryRun=All", wantGrace: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			created := mustDo(t, s, 201, "POST", pods, "application/json", pod(c.name, c.extra))
			out := mustDo(t, s, 200, "DELETE", pods+"/"+c.name+c.query, "", "")
			m := metaOf(out)
			if metaStr(out, "deletionTimestamp") == "" {
				t.Errorf("no deletionTimestamp: %v", m)
			}
			if g, ok := jsonx.Int64(m["deletionGracePeriodSeconds"]); !ok || g != c.wantGrace {
				t.Errorf("deletionGracePeriodSeconds = %v, want %d", m["deletionGracePeriodSeconds"], c.wantGrace)
			}
			if g, _ := jsonx.Int64(m["generation"]); g != 2 {
				t.Errorf("generation = %v, want 2", m["generation"])
			}
			if c.query == "" && rvOf(out) <= rvOf(created) {
				t.Errorf("resourceVersion %d not after the create's %d", rvOf(out), rvOf(created))
			}
			code, got := do(t, s, "GET", pods+"/"+c.name, "", "")
			if gone := code == 404; gone != c.wantGone {
				t.Fatalf("GET after DELETE: %d %v", code, got)
			}
			if c.query != "" && metaStr(got, "deletionTimestamp") != "" {
				t.Errorf("a dry run marked the stored pod: %v", metaOf(got))
			}
		})
	}
	// ShouldDeleteDuringUpdate: a write to a bound pod in its grace period
	// (the kubelet reporting its containers stopped, a label) keeps it;
	// the pod was removed at once, the watch never saw it stop
	t.Run("an update in the grace period keeps a bound pod", func(t *testing.T) {
		s := New(Options{})
		mustDo(t, s, 201, "POST", pods, "application/json", pod("bound", ""))
		mustDo(t, s, 200, "DELETE", pods+"/bound", "", "")
		mustDo(t, s, 200, "PATCH", pods+"/bound/status", "application/merge-patch+json", `{"status":{"phase":"Succeeded"}}`)
		mustDo(t, s, 200, "PATCH", pods+"/bound", "application/merge-patch+json", `{"metadata":{"labels":{"a":"b"}}}`)
		got := mustDo(t, s, 200, "GET", pods+"/bound", "", "")
		if str(got["status"].(map[string]any), "phase") != "Succeeded" || metaStr(got, "deletionTimestamp") == "" {
			t.Errorf("after the updates: %v %v", metaOf(got), got["status"])
		}
		mustDo(t, s, 200, "DELETE", pods+"/bound?gracePeriodSeconds=0", "", "")
		if code, _ := do(t, s, "GET", pods+"/bound", "", ""); code != 404 {
			t.Errorf("GET after the DELETE with grace 0: %d", code)
		}
	})
	t.Run("a shorter grace period of 0 removes a bound pod", func(t *testing.T) {
		s := New(Options{})
		mustDo(t, s, 201, "POST", pods, "application/json", pod("bound", ""))
		mustDo(t, s, 200, "DELETE", pods+"/bound", "", "")
		mustDo(t, s, 200, "DELETE", pods+"/bound?gracePeriodSeconds=60", "", "") // longer: unchanged
		if g, _ := jsonx.Int64(metaOf(mustDo(t, s, 200, "GET", pods+"/bound", "", ""))["deletionGracePeriodSeconds"]); g != 30 {
			t.Errorf("a longer period changed it to %d", g)
		}
		out := mustDo(t, s, 200, "DELETE", pods+"/bound?gracePeriodSeconds=0", "", "")
		if g, ok := jsonx.Int64(metaOf(out)["deletionGracePeriodSeconds"]); !ok || g != 0 {
			t.Errorf("deletionGracePeriodSeconds = %v, want 0", metaOf(out)["deletionGracePeriodSeconds"])
		}
		mustDo(t, s, 404, "GET", pods+"/bound", "", "")
	})
	t.Run("a ConfigMap has no grace period", func(t *testing.T) {
		s := New(Options{})
		mustDo(t, s, 201, "POST", "/api/v1/namespaces/default/configmaps", "application/json", `{"metadata":{"name":"cm"}}`)
		out := mustDo(t, s, 200, "DELETE", "/api/v1/namespaces/default/configmaps/cm", "", "")
		if metaStr(out, "deletionTimestamp") != "" {
			t.Errorf("ConfigMap delete answered %v", out)
		}
	})
}

// A negative replicas in a built-in's Scale is the scale REST's
// ValidateScale error, named after the Scale (bi-deployment records it).
func TestBuiltinScaleNegativeReplicas(t *testing.T) {
	s := New(Options{})
	const deploys = "/apis/apps/v1/namespaces/default/deployments"
	mustDo(t, s, 201, "POST", deploys, "application/json", `{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`)
	for _, c := range []struct{ name, method, ctype, body string }{
		{"PUT", "PUT", "application/json", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":-3}}`},
		{"merge patch", "PATCH", "application/merge-patch+json", `{"spec":{"replicas":-3}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := mustDo(t, s, 422, c.method, deploys+"/web/scale", c.ctype, c.body)
			want := `Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -3: must be greater than or equal to 0`
			if got, _ := out["message"].(string); got != want {
				t.Errorf("message %q, want %q", got, want)
			}
		})
	}
	r := mustDo(t, s, 200, "GET", deploys+"/web", "", "")
	if n, _ := jsonx.Int64(r["spec"].(map[string]any)["replicas"]); n != 1 {
		t.Errorf("replicas changed: %v", r["spec"])
	}
}

// The scale subresource's managedFields entry owns spec.replicas; a Scale
// of 0 replicas (spec {}) owns nothing, so its entry is not kept, as the
// real server answers (bi-deployment, "scale to 0").
func TestScaleEntry(t *testing.T) {
	const deploys = "/apis/apps/v1/namespaces/default/deployments"
	for _, c := range []struct {
		replicas  string
		wantEntry bool
	}{{"0", false}, {"2", true}} {
		t.Run("replicas "+c.replicas, func(t *testing.T) {
			s := New(Options{})
			mustDo(t, s, 201, "POST", deploys, "application/json", `{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`)
			mustDo(t, s, 200, "PATCH", deploys+"/web/scale", "application/merge-patch+json", `{"spec":{"replicas":`+c.replicas+`}}`)
			d := mustDo(t, s, 200, "GET", deploys+"/web", "", "")
			found := false
			for _, e := range metaOf(d)["managedFields"].([]any) {
				if e.(map[string]any)["subresource"] == "scale" {
					found = true
				}
			}
			if found != c.wantEntry {
				t.Errorf("scale entry present = %v, want %v: %v", found, c.wantEntry, metaOf(d)["managedFields"])
			}
			if n, _ := jsonx.Int64(d["spec"].(map[string]any)["replicas"]); strconv.Itoa(int(n)) != c.replicas {
				t.Errorf("spec.replicas = %d", n)
			}
		})
	}
}

// A DaemonSet's Table row metadata lacks the template generation
// annotation (the printer sees the internal object); includeObject=Object
// keeps it. As the real control plane answers.
func TestDaemonSetTableMetadata(t *testing.T) {
	s := New(Options{})
	const dss = "/apis/apps/v1/namespaces/default/daemonsets"
	mustDo(t, s, 201, "POST", dss, "application/json", `{"metadata":{"name":"dsx","annotations":{"x":"y"}},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`)
	for _, c := range []struct {
		query string
		want  []string
	}{{"", []string{"x"}}, {"?includeObject=Object", []string{"deprecated.daemonset.template.generation", "x"}}} {
		t.Run("includeObject"+c.query, func(t *testing.T) {
			req := httptest.NewRequest("GET", dss+"/dsx"+c.query, nil)
			req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var tbl map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &tbl); err != nil || w.Code != 200 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			row := tbl["rows"].([]any)[0].(map[string]any)
			ann, _ := row["object"].(map[string]any)["metadata"].(map[string]any)["annotations"].(map[string]any)
			var got []string
			for k := range ann {
				got = append(got, k)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("annotations %v, want keys %v", ann, c.want)
			}
		})
	}
}

// A Table's rows carry their object as kube-apiserver converts it for
// the request: with includeObject=Object, list items have their apiVersion
// and kind (kubectl get --sort-by decodes them; without a kind it printed
// an empty table); Metadata gives PartialObjectMetadata; an unknown value
// is refused with apiserver's 400.
func TestTableIncludeObject(t *testing.T) {
	s := New(Options{})
	const cms = "/api/v1/namespaces/default/configmaps"
	mustDo(t, s, 201, "POST", cms, "application/json", `{"metadata":{"name":"one"}}`)
	for _, c := range []struct {
		name, path       string
		code             int
		apiVersion, kind string
	}{
		{"list Object", cms + "?includeObject=Object", 200, "v1", "ConfigMap"},
		{"get Object", cms + "/one?includeObject=Object", 200, "v1", "ConfigMap"},
		{"list Metadata", cms + "?includeObject=Metadata", 200, "meta.k8s.io/v1", "PartialObjectMetadata"},
		{"list default", cms, 200, "meta.k8s.io/v1", "PartialObjectMetadata"},
		{"unknown", cms + "?includeObject=Everything", 400, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", c.path, nil)
			req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var got map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != c.code {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			if c.code != 200 {
				if got["reason"] != "BadRequest" || got["message"] != `unrecognized includeObject value: "Everything"` {
					t.Errorf("status %v", got)
				}
				return
			}
			obj := got["rows"].([]any)[0].(map[string]any)["object"].(map[string]any)
			if obj["apiVersion"] != c.apiVersion || obj["kind"] != c.kind {
				t.Errorf("row object is %v %v, want %s %s", obj["apiVersion"], obj["kind"], c.apiVersion, c.kind)
			}
		})
	}
}
