package controllers_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/controllers"
)

const (
	services  = "/api/v1/namespaces/default/services"
	endpoints = "/api/v1/namespaces/default/endpoints"
	slices    = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices"
)

func service(name string, spec m) m {
	s := m{"selector": m{"app": "web"}, "ports": []any{m{"port": 80, "targetPort": "http"}}}
	for k, v := range spec {
		if v == nil {
			delete(s, k)
		} else {
			s[k] = v
		}
	}
	return m{"apiVersion": "v1", "kind": "Service", "metadata": m{"name": name, "labels": m{"tier": "fe"}}, "spec": s}
}

func webPod(name string, extra m) m {
	spec := m{"containers": []any{m{"name": "app", "image": "nginx",
		"ports": []any{m{"name": "http", "containerPort": 8080}}}}}
	for k, v := range extra {
		spec[k] = v
	}
	return m{"apiVersion": "v1", "kind": "Pod", "metadata": m{"name": name, "labels": m{"app": "web"}}, "spec": spec}
}

// setPodStatus writes a Pod's status as a kubelet would: Running with an
// IP, Ready or not.
func (e *env) setPodStatus(name, ip string, ready bool, at time.Time) {
	e.t.Helper()
	p := e.must(200, "GET", pods+"/"+name, "", nil)
	r := "False"
	if ready {
		r = "True"
	}
	ts := at.UTC().Format(time.RFC3339)
	p["status"] = m{"phase": "Running", "podIP": ip, "podIPs": []any{m{"ip": ip}},
		"conditions": []any{m{"type": "Ready", "status": r, "lastTransitionTime": ts}}}
	e.must(200, "PUT", pods+"/"+name+"/status", "application/json", p)
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

// sliceOf returns the one EndpointSlice of a Service (fatal otherwise).
func (e *env) sliceOf(svc string) m {
	e.t.Helper()
	l := e.items(slices + "?labelSelector=kubernetes.io%2Fservice-name%3D" + svc)
	if len(l) != 1 {
		e.t.Fatalf("%d EndpointSlices for %s: %s", len(l), svc, js(l))
	}
	return l[0]
}

func TestEndpointsAndSlices(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	t.Run("the kubernetes Service's endpoint is the API server", func(t *testing.T) {
		// kube-apiserver's endpoint reconciler writes them, not the
		// controllers: `kubectl get endpointslices` lists "kubernetes"
		// on every cluster, and the controllers leave it alone
		e, _ := startAt(t, t0, controllers.Options{Nodes: 1})
		e.idle()
		ep := e.must(200, "GET", endpoints+"/kubernetes", "", nil)
		if got, want := js(ep["subsets"]), `[{"addresses":[{"ip":"172.18.0.2"}],"ports":[{"name":"https","port":6443,"protocol":"TCP"}]}]`; got != want {
			t.Errorf("endpoints/kubernetes subsets = %s, want %s", got, want)
		}
		s := e.sliceOf("kubernetes")
		if got, want := js(s["endpoints"]), `[{"addresses":["172.18.0.2"],"conditions":{"ready":true}}]`; gets(s, "metadata", "name") != "kubernetes" || got != want {
			t.Errorf("endpointslice %s endpoints = %s, want %s", gets(s, "metadata", "name"), got, want)
		}
	})
	t.Run("ready and not-ready Pods, ports by name", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("web", nil))
		e.must(201, "POST", pods, "application/json", webPod("a", nil))
		e.must(201, "POST", pods, "application/json", webPod("b", nil))
		e.must(201, "POST", pods, "application/json", webPod("pending", nil)) // no IP: left out
		e.idle()                                                              // the first sync stamps the Service's creation; the next ones the Pods' changes
		clk.set(t0.Add(10 * time.Second))
		e.setPodStatus("a", "10.244.0.5", true, clk.Now())
		e.setPodStatus("b", "10.244.0.6", false, clk.Now())
		e.idle()
		ep := e.must(200, "GET", endpoints+"/web", "", nil)
		a := e.must(200, "GET", pods+"/a", "", nil)
		b := e.must(200, "GET", pods+"/b", "", nil)
		want := `[{"addresses":[{"ip":"10.244.0.5","targetRef":{"kind":"Pod","name":"a","namespace":"default","uid":"` + gets(a, "metadata", "uid") + `"}}],` +
			`"notReadyAddresses":[{"ip":"10.244.0.6","targetRef":{"kind":"Pod","name":"b","namespace":"default","uid":"` + gets(b, "metadata", "uid") + `"}}],` +
			`"ports":[{"port":8080,"protocol":"TCP"}]}]`
		if got := js(ep["subsets"]); got != want {
			t.Errorf("subsets =\n%s\nwant\n%s", got, want)
		}
		if got := js(get(ep, "metadata", "labels")); got != `{"endpoints.kubernetes.io/managed-by":"endpoint-controller","tier":"fe"}` {
			t.Errorf("labels = %s", got)
		}
		if got := gets(ep, "metadata", "annotations", "endpoints.kubernetes.io/last-change-trigger-time"); got != "2026-01-01T10:00:10Z" {
			t.Errorf("last-change-trigger-time = %q", got)
		}

		s := e.sliceOf("web")
		if !strings.HasPrefix(gets(s, "metadata", "name"), "web-") || gets(s, "metadata", "generateName") != "web-" || gets(s, "addressType") != "IPv4" {
			t.Errorf("slice meta = %s addressType %s", js(s["metadata"]), gets(s, "addressType"))
		}
		if got := js(get(s, "metadata", "labels")); got != `{"endpointslice.kubernetes.io/managed-by":"endpointslice-controller.k8s.io","kubernetes.io/service-name":"web","tier":"fe"}` {
			t.Errorf("slice labels = %s", got)
		}
		refs, _ := get(s, "metadata", "ownerReferences").([]any)
		if len(refs) != 1 || gets(refs[0], "kind") != "Service" || gets(refs[0], "name") != "web" || get(refs[0], "controller") != true {
			t.Errorf("ownerReferences = %s", js(refs))
		}
		wantEps := `[{"addresses":["10.244.0.5"],"conditions":{"ready":true,"serving":true,"terminating":false},"targetRef":{"kind":"Pod","name":"a","namespace":"default","uid":"` + gets(a, "metadata", "uid") + `"}},` +
			`{"addresses":["10.244.0.6"],"conditions":{"ready":false,"serving":false,"terminating":false},"targetRef":{"kind":"Pod","name":"b","namespace":"default","uid":"` + gets(b, "metadata", "uid") + `"}}]`
		if got := js(s["endpoints"]); got != wantEps {
			t.Errorf("endpoints =\n%s\nwant\n%s", got, wantEps)
		}
		if got := js(s["ports"]); got != `[{"name":"","port":8080,"protocol":"TCP"}]` {
			t.Errorf("ports = %s", got)
		}

		// b becomes ready, a is deleted
		e.setPodStatus("b", "10.244.0.6", true, clk.Now())
		e.must(200, "DELETE", pods+"/a", "", nil)
		e.idle()
		ep = e.must(200, "GET", endpoints+"/web", "", nil)
		if got := js(ep["subsets"]); !strings.Contains(got, `"addresses":[{"ip":"10.244.0.6"`) || strings.Contains(got, "10.244.0.5") || strings.Contains(got, "notReady") {
			t.Errorf("subsets after change = %s", got)
		}
		s = e.sliceOf("web")
		if got := js(s["endpoints"]); strings.Contains(got, "10.244.0.5") || !strings.Contains(got, `"ready":true`) {
			t.Errorf("slice endpoints after change = %s", got)
		}

		// the Service goes: its Endpoints and (garbage collector) slices too
		e.must(200, "DELETE", services+"/web", "", nil)
		e.idle()
		e.eventually("endpoints and slices gone", func() (bool, string) {
			code, _ := e.do("GET", endpoints+"/web", "", nil)
			l := e.items(slices + "?labelSelector=kubernetes.io%2Fservice-name%3Dweb")
			return code == 404 && len(l) == 0, js(l)
		})
	})

	t.Run("publishNotReadyAddresses, numeric targetPort, hostname", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("db", m{"publishNotReadyAddresses": true,
			"ports": []any{m{"name": "pg", "port": 5432, "targetPort": 15432}}}))
		e.must(201, "POST", pods, "application/json", webPod("db-0", m{"hostname": "db-0", "subdomain": "db"}))
		e.setPodStatus("db-0", "10.244.0.9", false, clk.Now())
		e.idle()
		ep := e.must(200, "GET", endpoints+"/db", "", nil)
		if got := js(ep["subsets"]); !strings.Contains(got, `"addresses":[{"hostname":"db-0","ip":"10.244.0.9"`) || !strings.Contains(got, `"ports":[{"name":"pg","port":15432,"protocol":"TCP"}]`) {
			t.Errorf("subsets = %s", got)
		}
		s := e.sliceOf("db")
		if got := js(s["endpoints"]); !strings.Contains(got, `"conditions":{"ready":true,"serving":false,"terminating":false}`) || !strings.Contains(got, `"hostname":"db-0"`) {
			t.Errorf("slice endpoints = %s", got)
		}
	})

	t.Run("a terminating Pod: out of Endpoints, serving but not ready in its slice", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("web", nil))
		p := webPod("a", nil)
		p["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"} // keeps it terminating
		e.must(201, "POST", pods, "application/json", p)
		e.setPodStatus("a", "10.244.0.5", true, clk.Now())
		e.idle()
		e.must(200, "DELETE", pods+"/a", "application/json", m{"gracePeriodSeconds": 0})
		e.idle()
		if ep := e.must(200, "GET", endpoints+"/web", "", nil); ep["subsets"] != nil {
			t.Errorf("subsets = %s, want none", js(ep["subsets"]))
		}
		eps := anyList(e.sliceOf("web")["endpoints"])
		if len(eps) != 1 || js(get(eps[0], "conditions")) != `{"ready":false,"serving":true,"terminating":true}` {
			t.Errorf("slice endpoints = %s", js(eps))
		}
		e.must(200, "PATCH", pods+"/a", "application/merge-patch+json", m{"metadata": m{"finalizers": nil}})
		e.idle()
		if eps := anyList(e.sliceOf("web")["endpoints"]); len(eps) != 0 {
			t.Errorf("slice endpoints after the Pod went = %s", js(eps))
		}
	})

	t.Run("headless Service and the placeholder slice", func(t *testing.T) {
		e, _ := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("hl", m{"clusterIP": "None"}))
		e.idle()
		ep := e.must(200, "GET", endpoints+"/hl", "", nil)
		if _, ok := get(ep, "metadata", "labels", "service.kubernetes.io/headless").(string); !ok || ep["subsets"] != nil {
			t.Errorf("endpoints = %s", js(ep))
		}
		s := e.sliceOf("hl")
		if _, ok := get(s, "metadata", "labels", "service.kubernetes.io/headless").(string); !ok {
			t.Errorf("slice labels = %s", js(get(s, "metadata", "labels")))
		}
		if len(anyList(s["endpoints"])) != 0 || len(anyList(s["ports"])) != 0 {
			t.Errorf("placeholder = %s", js(s))
		}
		if got := gets(s, "metadata", "annotations", "endpoints.kubernetes.io/last-change-trigger-time"); got != "2026-01-01T10:00:00Z" {
			t.Errorf("trigger time = %q (the Service's creation)", got)
		}
	})

	t.Run("a Service without selector gets none", func(t *testing.T) {
		e, _ := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("ext", m{"selector": nil}))
		e.must(201, "POST", pods, "application/json", webPod("a", nil))
		e.idle()
		if code, _ := e.do("GET", endpoints+"/ext", "", nil); code != 404 {
			t.Errorf("GET endpoints/ext = %d, want 404", code)
		}
		if l := e.items(slices + "?labelSelector=kubernetes.io%2Fservice-name%3Dext"); len(l) != 0 {
			t.Errorf("slices = %s", js(l))
		}
	})

	t.Run("a deleted slice is put back", func(t *testing.T) {
		e, _ := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", services, "application/json", service("web", nil))
		e.idle()
		first := gets(e.sliceOf("web"), "metadata", "name")
		e.must(200, "DELETE", slices+"/"+first, "", nil)
		e.idle()
		if again := gets(e.sliceOf("web"), "metadata", "name"); again == first {
			t.Errorf("slice %s not recreated", first)
		}
	})
}

func TestEndpointsWithDeployment(t *testing.T) {
	e := start(t)
	d := deployment("web", 3, "nginx")
	e.must(201, "POST", deploys, "application/json", d)
	e.must(201, "POST", services, "application/json", m{"apiVersion": "v1", "kind": "Service",
		"metadata": m{"name": "web"}, "spec": m{"selector": m{"app": "web"}, "ports": []any{m{"port": 80}}}})
	e.waitRollout("web", 3)
	e.eventually("3 ready endpoints", func() (bool, string) {
		ep := e.must(200, "GET", endpoints+"/web", "", nil)
		ss, _ := get(ep, "subsets").([]any)
		if len(ss) != 1 {
			return false, js(ep["subsets"])
		}
		s := e.sliceOf("web")
		return len(anyList(get(ss[0], "addresses"))) == 3 && len(anyList(s["endpoints"])) == 3, js(ep["subsets"])
	})
}

func anyList(v any) []any { l, _ := v.([]any); return l }
