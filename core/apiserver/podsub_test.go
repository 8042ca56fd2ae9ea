package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// A Pod's own subresources (core/builtin/podsub.go) through the generic
// resource.Subresource dispatch, on a server without controllers: binding
// as BindingREST answers it, log/exec/attach/portforward as kube-apiserver
// answers for a Pod with no running container.

const (
	podsPath = "/api/v1/namespaces/default/pods"
	podJSON  = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`
)

func binding(name, node string) string {
	return `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"` + name + `"},"target":{"apiVersion":"v1","kind":"Node","name":"` + node + `"}}`
}

func TestPodBinding(t *testing.T) {
	s := New(Options{})
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, podJSON)
	for _, c := range []struct {
		name, path, body string
		code             int
		message          string
	}{
		{"name mismatch", podsPath + "/web/binding", binding("other", "n1"), 400, "name in URL does not match name in Binding object"},
		{"no target", podsPath + "/web/binding", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"web"},"target":{}}`, 500, "target.name: Required value"},
		{"no such pod", podsPath + "/nope/binding", binding("nope", "n1"), 404, `pods "nope" not found`},
		{"dry run binds nothing", podsPath + "/web/binding?dryRun=All", binding("web", "n9"), 201, ""},
		{"binds", podsPath + "/web/binding", binding("web", "n1"), 201, ""},
		{"already bound", podsPath + "/web/binding", binding("web", "n2"), 409, `Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1"`},
		{"GET is not served", podsPath + "/web/binding", "", 405, `get is not supported on resources of kind "pods/binding"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			method := "POST"
			if c.body == "" {
				method = "GET"
			}
			code, out := do(t, s, method, c.path, hooksJSON, c.body)
			if code != c.code || (c.message != "" && out["message"] != c.message) {
				t.Fatalf("%d %v, want %d %q", code, out, c.code, c.message)
			}
			if c.code == 201 {
				b, _ := json.Marshal(out)
				if string(b) != `{"apiVersion":"v1","code":201,"kind":"Status","metadata":{},"status":"Success"}` {
					t.Errorf("answer %s", b)
				}
			}
		})
	}
	p := mustDo(t, s, 200, "GET", podsPath+"/web", "", "")
	spec, _ := p["spec"].(map[string]any)
	st, _ := p["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	if spec["nodeName"] != "n1" || len(conds) != 1 {
		t.Fatalf("pod %v", p)
	}
	c := conds[0].(map[string]any)
	if c["type"] != "PodScheduled" || c["status"] != "True" || c["lastTransitionTime"] == nil {
		t.Errorf("condition %v", c)
	}
	for _, f := range metaOf(p)["managedFields"].([]any) {
		if strings.Contains(jsonOf(f), "nodeName") {
			t.Errorf("binding recorded in managedFields: %v", f)
		}
	}
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestPodLogAndStreams(t *testing.T) {
	s := New(Options{})
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, podJSON)
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"two"},"spec":{"containers":[{"name":"a","image":"nginx"},{"name":"b","image":"nginx"}]}}`)
	t.Run("log of an unbound pod is empty", func(t *testing.T) {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", podsPath+"/web/log", nil))
		if w.Code != 200 || w.Body.Len() != 0 {
			t.Errorf("%d %q", w.Code, w.Body.String())
		}
	})
	for _, c := range []struct {
		name, method, path string
		code               int
		message            string
	}{
		{"log: which container", "GET", podsPath + "/two/log", 400, "a container name must be specified for pod two, choose one of: [a b]"},
		{"log: no such container", "GET", podsPath + "/web/log?container=x", 400, "container x is not valid for pod web"},
		{"exec: no host", "POST", podsPath + "/web/exec?command=ls&container=app", 400, "pod web does not have a host assigned"},
		{"portforward: no host", "POST", podsPath + "/web/portforward?ports=80", 400, "pod web does not have a host assigned"},
		{"log: not started", "GET", podsPath + "/bound/log", 400, `container "app" in pod "bound" is not available`},
		{"exec without upgrade", "POST", podsPath + "/bound/exec?command=ls", 400, "Upgrade request required"},
		{"attach without upgrade", "POST", podsPath + "/bound/attach", 400, "Upgrade request required"},
	} {
		if c.name == "log: not started" {
			mustDo(t, s, 201, "POST", podsPath, hooksJSON, strings.Replace(podJSON, `"web"`, `"bound"`, 1))
			mustDo(t, s, 201, "POST", podsPath+"/bound/binding", hooksJSON, binding("bound", "n1"))
		}
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, c.method, c.path, "", "")
			if code != c.code || out["message"] != c.message || out["kind"] != "Status" {
				t.Errorf("%d %v, want %d %q", code, out, c.code, c.message)
			}
		})
	}
	t.Run("running container: the simulated line", func(t *testing.T) {
		p := mustDo(t, s, 200, "GET", podsPath+"/bound", "", "")
		p["status"] = map[string]any{"phase": "Running", "containerStatuses": []any{map[string]any{"name": "app", "image": "docker.io/library/nginx:latest",
			"imageID": "", "ready": true, "restartCount": 0, "state": map[string]any{"running": map[string]any{"startedAt": "2026-01-01T00:00:00Z"}}}}}
		mustDo(t, s, 200, "PUT", podsPath+"/bound/status", hooksJSON, jsonOf(p))
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", podsPath+"/bound/log", nil))
		want := "kubesandbox: container \"app\" (docker.io/library/nginx:latest) has no process here; no log lines were written\n"
		if w.Code != 200 || w.Body.String() != want || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
			t.Errorf("%d %q %q", w.Code, w.Body.String(), w.Header().Get("Content-Type"))
		}
	})
}

func TestPodSubresourceDiscovery(t *testing.T) {
	s := New(Options{})
	out := mustDo(t, s, 200, "GET", "/api/v1", "", "")
	got := map[string]string{}
	for _, r := range out["resources"].([]any) {
		rm := r.(map[string]any)
		if n, _ := rm["name"].(string); strings.HasPrefix(n, "pods/") || n == "nodes" || n == "nodes/status" {
			got[n] = jsonOf(rm["verbs"]) + " " + rm["kind"].(string)
		}
	}
	want := map[string]string{
		"pods/attach": `["create","get"] PodAttachOptions`, "pods/binding": `["create"] Binding`,
		"pods/exec": `["create","get"] PodExecOptions`, "pods/log": `["get"] Pod`,
		"pods/portforward": `["create","get"] PodPortForwardOptions`, "pods/status": `["get","patch","update"] Pod`,
		"nodes":        `["create","delete","deletecollection","get","list","patch","update","watch"] Node`,
		"nodes/status": `["get","patch","update"] Node`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestNodeValidation(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct {
		name, taints string
		code         int
		message      string
	}{
		{"duplicate taint", `[{"key":"a","effect":"NoSchedule"},{"key":"a","value":"x","effect":"NoSchedule"}]`, 422,
			// ValidateNode names the taints under metadata (its fldPath), and
			// apimachinery prints the internal core.Taint as JSON (reference/validation)
			`Node "n" is invalid: metadata.taints[1]: Duplicate value: {"Key":"a","Value":"x","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair`},
		{"bad effect", `[{"key":"a","effect":"Sometimes"}]`, 422,
			`Node "n" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"bad key", `[{"key":"a b","effect":"NoSchedule"}]`, 422, ""},
		{"same key, other effect", `[{"key":"a","effect":"NoSchedule"},{"key":"a","effect":"NoExecute"}]`, 201, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, "POST", "/api/v1/nodes", hooksJSON, `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"spec":{"taints":`+c.taints+`}}`)
			if code != c.code || (c.message != "" && out["message"] != c.message) {
				t.Errorf("%d %v, want %d %q", code, out["message"], c.code, c.message)
			}
		})
	}
}
