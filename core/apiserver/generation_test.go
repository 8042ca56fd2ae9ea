package apiserver

import (
	"encoding/json"
	"testing"
)

// metadata.generation moves as kube's strategies move it, once per write
// whose admitted spec differs from the stored one: mutating admission runs
// first (a Pod PUT that drops the priority the Priority plugin restores
// changes no spec), then the strategy's PrepareForUpdate — for an update
// of any patch type, an apply, a scale write; never a status write;
// autoscaling/v1's own rule (a change only the stored v2 spec shows) bumps
// it once too.
func TestGenerationAfterAdmission(t *testing.T) {
	const (
		deps  = "/apis/apps/v1/namespaces/default/deployments"
		dep   = deps + "/web"
		pods  = "/api/v1/namespaces/default/pods"
		hpas2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers"
		hpa1  = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h"
		hpa2  = hpas2 + "/h"
		merge = "application/merge-patch+json"
		apply = "application/apply-patch+yaml"
	)
	const deployment = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,
		"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	const hpa = `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h"},
		"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":3}}`
	// putBack: GET path, edit the object, PUT it to path+sub
	type putBack struct {
		path, sub string
		edit      func(obj map[string]any)
	}
	type step struct {
		method, path, ctype, body string
		put                       *putBack
	}
	cases := []struct {
		name   string
		create [2]string // path, body
		steps  []step
		get    string // the object whose generation is checked
		want   int64
	}{
		{"deployment PUT of the spec", [2]string{deps, deployment},
			[]step{{put: &putBack{path: dep, edit: func(o map[string]any) { o["spec"].(map[string]any)["replicas"] = 2 }}}}, dep, 2},
		{"deployment PUT of a label only", [2]string{deps, deployment},
			[]step{{put: &putBack{path: dep, edit: func(o map[string]any) { metaOf(o)["labels"] = map[string]any{"a": "b"} }}}}, dep, 1},
		{"deployment merge patch", [2]string{deps, deployment},
			[]step{{"PATCH", dep, merge, `{"spec":{"replicas":2}}`, nil}}, dep, 2},
		{"deployment JSON patch", [2]string{deps, deployment},
			[]step{{"PATCH", dep, "application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":2}]`, nil}}, dep, 2},
		{"deployment strategic merge patch", [2]string{deps, deployment},
			[]step{{"PATCH", dep, "application/strategic-merge-patch+json", `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}}}`, nil}}, dep, 2},
		{"deployment apply", [2]string{deps, deployment},
			[]step{{"PATCH", dep + "?fieldManager=me&force=true", apply, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}`, nil}}, dep, 2},
		{"two spec writes", [2]string{deps, deployment},
			[]step{{"PATCH", dep, merge, `{"spec":{"replicas":2}}`, nil}, {"PATCH", dep, merge, `{"spec":{"paused":true}}`, nil}}, dep, 3},
		{"deployment status PUT", [2]string{deps, deployment},
			[]step{{put: &putBack{path: dep, sub: "/status", edit: func(o map[string]any) {
				o["status"] = map[string]any{"replicas": 1, "observedGeneration": 1}
				o["spec"].(map[string]any)["replicas"] = 5 // reset by the status strategy
			}}}}, dep, 1},
		{"deployment status merge patch", [2]string{deps, deployment},
			[]step{{"PATCH", dep + "/status", merge, `{"status":{"replicas":1},"spec":{"replicas":5}}`, nil}}, dep, 1},
		{"scale PUT", [2]string{deps, deployment},
			[]step{{"PUT", dep + "/scale", "application/json", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":4}}`, nil}}, dep, 2},
		{"scale PUT of the same replicas", [2]string{deps, deployment},
			[]step{{"PUT", dep + "/scale", "application/json", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":1}}`, nil}}, dep, 1},
		{"scale merge patch", [2]string{deps, deployment},
			[]step{{"PATCH", dep + "/scale", merge, `{"spec":{"replicas":4}}`, nil}}, dep, 2},
		{"scale apply", [2]string{deps, deployment},
			[]step{{"PATCH", dep + "/scale?fieldManager=me&force=true", apply, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","namespace":"default"},"spec":{"replicas":4}}`, nil}}, dep, 2},
		{"pod PUT whose only change admission undoes", [2]string{pods, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`},
			[]step{{put: &putBack{path: pods + "/p", edit: func(o map[string]any) {
				spec := o["spec"].(map[string]any)
				delete(spec, "priority")
				delete(spec, "preemptionPolicy")
			}}}}, pods + "/p", 1},
		{"pod PUT of an image", [2]string{pods, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`},
			[]step{{put: &putBack{path: pods + "/p", edit: func(o map[string]any) {
				o["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["image"] = "nginx:2"
			}}}}, pods + "/p", 2},
		{"hpa v2 spec patch", [2]string{hpas2, hpa},
			[]step{{"PATCH", hpa2, merge, `{"spec":{"maxReplicas":5}}`, nil}}, hpa2, 2},
		{"hpa v1 spec patch", [2]string{hpas2, hpa},
			[]step{{"PATCH", hpa1, merge, `{"spec":{"targetCPUUtilizationPercentage":50}}`, nil}}, hpa2, 2},
		{"hpa v1 patch of what only v2's spec shows", [2]string{hpas2, hpa},
			[]step{{"PATCH", hpa1, merge, `{"metadata":{"annotations":{"autoscaling.alpha.kubernetes.io/behavior":"{\"ScaleUp\":{\"StabilizationWindowSeconds\":30}}"}}}`, nil}}, hpa2, 2},
		{"priorityclass update keeps generation 1 (its strategy never moves it)",
			[2]string{"/apis/scheduling.k8s.io/v1/priorityclasses", `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"pc"},"value":10}`},
			[]step{{"PATCH", "/apis/scheduling.k8s.io/v1/priorityclasses/pc", merge, `{"description":"x","globalDefault":true}`, nil}},
			"/apis/scheduling.k8s.io/v1/priorityclasses/pc", 1},
		{"hpa v1 status patch", [2]string{hpas2, hpa},
			[]step{{"PATCH", hpa1 + "/status", merge, `{"status":{"currentReplicas":1,"desiredReplicas":1}}`, nil}}, hpa2, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			mustDo(t, s, 201, "POST", c.create[0], "application/json", c.create[1])
			for _, st := range c.steps {
				if p := st.put; p != nil {
					obj := mustDo(t, s, 200, "GET", p.path, "", "")
					p.edit(obj)
					b, _ := json.Marshal(obj)
					mustDo(t, s, 200, "PUT", p.path+p.sub, "application/json", string(b))
					continue
				}
				mustDo(t, s, 200, st.method, st.path, st.ctype, st.body)
			}
			got := mustDo(t, s, 200, "GET", c.get, "", "")
			if g, _ := metaOf(got)["generation"].(float64); int64(g) != c.want {
				t.Errorf("generation = %v, want %d", metaOf(got)["generation"], c.want)
			}
		})
	}
}
