package apiserver

import (
	"strings"
	"testing"
)

// Server-side apply on the scale and status subresources of a built-in
// kind (client-go's ApplyScale, ApplyStatus; kubectl apply --server-side
// --subresource=scale|status), as kube-apiserver v1.37.2 records them.

const (
	applyCT     = "application/apply-patch+yaml"
	deployPath  = "/apis/apps/v1/namespaces/default/deployments"
	deployJSON  = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}`
	scaleApply  = `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":%d}}`
	statusApply = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"status":{"observedGeneration":1,"replicas":2}}`
)

func scaleBody(n string) string { return strings.Replace(scaleApply, "%d", n, 1) }

// entryOf returns the managedFields entry of manager (and subresource).
func entryOf(obj map[string]any, manager, sub string) map[string]any {
	l, _ := metaOf(obj)["managedFields"].([]any)
	for _, e := range l {
		m, _ := e.(map[string]any)
		s, _ := m["subresource"].(string)
		if m["manager"] == manager && s == sub {
			return m
		}
	}
	return nil
}

func TestApplyScaleAndStatus(t *testing.T) {
	s := New(Options{})
	mustDo(t, s, 201, "POST", deployPath+"?fieldManager=kubectl-create", hooksJSON, deployJSON)
	for _, c := range []struct {
		name, path, body string
		code             int
		message          string
		replicas         float64 // the Deployment's spec.replicas afterwards
	}{
		{"the creator owns replicas", deployPath + "/web/scale?fieldManager=hpa", scaleBody("5"), 409,
			`Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.replicas`, 2},
		{"apply a Scale, forced", deployPath + "/web/scale?fieldManager=hpa&force=true", scaleBody("5"), 200, "", 5},
		{"negative replicas", deployPath + "/web/scale?fieldManager=hpa", scaleBody("-1"), 422,
			`Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`, 5},
		{"another manager conflicts", deployPath + "/web/scale?fieldManager=other", scaleBody("7"), 409,
			`Apply failed with 1 conflict: conflict with "hpa" with subresource "scale": .spec.replicas`, 5},
		{"the same value does not conflict", deployPath + "/web/scale?fieldManager=other", scaleBody("5"), 200, "", 5},
		{"force takes it", deployPath + "/web/scale?fieldManager=other&force=true", scaleBody("7"), 200, "", 7},
		{"no field manager", deployPath + "/web/scale", scaleBody("7"), 422, "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch", 7},
		{"apply status", deployPath + "/web/status?fieldManager=ctrl", statusApply, 200, "", 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, "PATCH", c.path, applyCT, c.body)
			if code != c.code || (c.message != "" && out["message"] != c.message) {
				t.Fatalf("%d %v, want %d %q", code, out, c.code, c.message)
			}
			if c.code == 200 && strings.Contains(c.path, "/scale") && (out["kind"] != "Scale" || out["spec"].(map[string]any)["replicas"] != c.replicas) {
				t.Errorf("answer %v", out)
			}
			d := mustDo(t, s, 200, "GET", deployPath+"/web", "", "")
			if got := d["spec"].(map[string]any)["replicas"]; got != c.replicas {
				t.Errorf("replicas %v, want %v", got, c.replicas)
			}
		})
	}
	d := mustDo(t, s, 200, "GET", deployPath+"/web", "", "")
	want := `{"apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}},"manager":"other","operation":"Apply","subresource":"scale"}`
	if got := jsonOf(entryOf(d, "other", "scale")); got != want {
		t.Errorf("scale entry\n%s\nwant\n%s", got, want)
	}
	if e := entryOf(d, "hpa", "scale"); e != nil {
		t.Errorf("hpa still owns replicas after the forced apply: %v", e)
	}
	st := entryOf(d, "ctrl", "status")
	if st == nil || st["operation"] != "Apply" || !strings.Contains(jsonOf(st["fieldsV1"]), `"f:status":{"f:observedGeneration":{},"f:replicas":{}}`) {
		t.Errorf("status entry %v", st)
	}
	if got := d["status"].(map[string]any)["replicas"]; got != float64(2) {
		t.Errorf("status %v", d["status"])
	}
	if e := entryOf(d, "kubectl-create", ""); e == nil || strings.Contains(jsonOf(e), "f:replicas") {
		t.Errorf("kubectl-create entry keeps replicas: %v", e)
	}
}
