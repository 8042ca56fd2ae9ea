package controllers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// ---- harness ----------------------------------------------------------------

type env struct {
	t   *testing.T
	srv *apiserver.Server
	mgr *controllers.Manager
}

func start(t *testing.T) *env { return startNodes(t, 1) }

// startNodes runs the controllers with that many simulated Nodes.
func startNodes(t *testing.T, nodes int) *env {
	t.Helper()
	return startWith(t, apiserver.Options{}, controllers.Options{Nodes: nodes})
}

// startWith runs a server with sopts and the controllers with copts
// (Logf and Instant set here), stopped when the test ends.
func startWith(t *testing.T, sopts apiserver.Options, copts controllers.Options) *env {
	t.Helper()
	srv := apiserver.New(sopts)
	ctx, cancel := context.WithCancel(context.Background())
	copts.Logf, copts.Instant = t.Logf, true
	mgr := controllers.Start(ctx, srv, srv.Store(), copts)
	t.Cleanup(func() {
		cancel()
		select {
		case <-mgr.Done():
		case <-time.After(liveness):
			t.Error("controllers did not stop")
		}
	})
	return &env{t: t, srv: srv, mgr: mgr}
}

type m = map[string]any

func (e *env) do(method, path, ctype string, body any) (int, m) {
	e.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, path, rd)
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("User-Agent", "kubectl/v1.37.2 (linux/amd64) kubernetes/test")
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	out, _ := jsonx.DecodeObject(rec.Body.Bytes())
	return rec.Code, out
}

func (e *env) must(code int, method, path, ctype string, body any) m {
	e.t.Helper()
	got, out := e.do(method, path, ctype, body)
	if got != code {
		e.t.Fatalf("%s %s: %d %v, want %d", method, path, got, out, code)
	}
	return out
}

// liveness bounds every wait of these tests. It only ends a test that
// would otherwise hang — it is not a timing assertion: a rollout takes
// milliseconds, but several seconds under -race on a loaded 2-core
// machine (make test).
const liveness = 60 * time.Second

// eventually polls cond every 5 ms until it holds or liveness passes.
func (e *env) eventually(what string, cond func() (bool, string)) {
	e.t.Helper()
	deadline := time.Now().Add(liveness)
	last := ""
	for time.Now().Before(deadline) {
		ok, msg := cond()
		if ok {
			return
		}
		last = msg
		time.Sleep(5 * time.Millisecond)
	}
	e.t.Fatalf("timed out waiting for %s: %s", what, last)
}

func (e *env) items(path string) []m {
	e.t.Helper()
	out := e.must(200, "GET", path, "", nil)
	var l []m
	for _, it := range out["items"].([]any) {
		l = append(l, it.(map[string]any))
	}
	return l
}

func get(o any, path ...string) any {
	for _, p := range path {
		mm, ok := o.(map[string]any)
		if !ok {
			return nil
		}
		o = mm[p]
	}
	return o
}

func gets(o any, path ...string) string { s, _ := get(o, path...).(string); return s }
func geti(o any, path ...string) int64  { n, _ := get(o, path...).(int64); return n }

func cond(o m, typ string) m {
	l, _ := get(o, "status", "conditions").([]any)
	for _, c := range l {
		if cm, ok := c.(map[string]any); ok && cm["type"] == typ {
			return cm
		}
	}
	return nil
}

func deployment(name string, replicas int64, image string) m {
	return m{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": m{"name": name, "labels": m{"app": name}},
		"spec": m{"replicas": replicas, "selector": m{"matchLabels": m{"app": name}},
			"template": m{"metadata": m{"labels": m{"app": name}},
				"spec": m{"containers": []any{m{"name": "app", "image": image}}}}}}
}

const (
	deploys = "/apis/apps/v1/namespaces/default/deployments"
	rsets   = "/apis/apps/v1/namespaces/default/replicasets"
	pods    = "/api/v1/namespaces/default/pods"
)

// runningPods lists the pods with label app=name that are Running & Ready.
func (e *env) runningPods(app string) (running, total int, all []m) {
	for _, p := range e.items(pods + "?labelSelector=app%3D" + app) {
		total++
		if gets(p, "status", "phase") == "Running" && gets(cond(p, "Ready"), "status") == "True" {
			running++
		}
		all = append(all, p)
	}
	return running, total, all
}

// waitRollout waits until the deployment reports n available, updated
// replicas for its generation, and exactly n running pods exist.
func (e *env) waitRollout(name string, n int64) m {
	e.t.Helper()
	var d m
	e.eventually("rollout of "+name, func() (bool, string) {
		d = e.must(200, "GET", deploys+"/"+name, "", nil)
		st := d["status"]
		r, total, _ := e.runningPods(name)
		ok := geti(st, "observedGeneration") == geti(d, "metadata", "generation") &&
			geti(st, "replicas") == n && geti(st, "updatedReplicas") == n && geti(st, "availableReplicas") == n &&
			gets(cond(d, "Progressing"), "reason") == "NewReplicaSetAvailable" && int64(r) == n && int64(total) == n
		b, _ := json.Marshal(st)
		return ok, string(b)
	})
	return d
}

// ---- tests ------------------------------------------------------------------

func TestDeploymentRollsOut(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 3, "nginx"))
	d := e.waitRollout("web", 3)

	t.Run("status", func(t *testing.T) {
		st := d["status"].(map[string]any)
		if geti(st, "readyReplicas") != 3 || st["unavailableReplicas"] != nil {
			t.Errorf("status = %v", st)
		}
		av := cond(d, "Available")
		if av["status"] != "True" || av["reason"] != "MinimumReplicasAvailable" || av["message"] != "Deployment has minimum availability." {
			t.Errorf("Available = %v", av)
		}
		l := d["status"].(map[string]any)["conditions"].([]any)
		if len(l) != 2 || get(l[0], "type") != "Available" || get(l[1], "type") != "Progressing" {
			t.Errorf("conditions order = %v", l)
		}
		if gets(d, "metadata", "annotations", "deployment.kubernetes.io/revision") != "1" {
			t.Errorf("revision annotation = %v", get(d, "metadata", "annotations"))
		}
	})
	rsl := e.items(rsets)
	if len(rsl) != 1 {
		t.Fatalf("replicasets = %d", len(rsl))
	}
	rs := rsl[0]
	hash := gets(rs, "metadata", "labels", "pod-template-hash")
	t.Run("replicaset", func(t *testing.T) {
		if len(hash) < 6 || strings.Trim(hash, "bcdfghjklmnpqrstvwxz2456789") != "" {
			t.Errorf("pod-template-hash = %q", hash)
		}
		if gets(rs, "metadata", "name") != "web-"+hash {
			t.Errorf("name = %v", gets(rs, "metadata", "name"))
		}
		want := m{"deployment.kubernetes.io/desired-replicas": "3", "deployment.kubernetes.io/max-replicas": "4",
			"deployment.kubernetes.io/revision": "1"}
		b1, _ := json.Marshal(get(rs, "metadata", "annotations"))
		b2, _ := json.Marshal(want)
		if string(b1) != string(b2) {
			t.Errorf("annotations = %s, want %s", b1, b2)
		}
		if gets(rs, "spec", "selector", "matchLabels", "pod-template-hash") != hash {
			t.Errorf("selector = %v", get(rs, "spec", "selector"))
		}
		ref := get(rs, "metadata", "ownerReferences").([]any)[0]
		if get(ref, "kind") != "Deployment" || get(ref, "controller") != true || get(ref, "blockOwnerDeletion") != true || get(ref, "uid") != gets(d, "metadata", "uid") {
			t.Errorf("ownerReferences = %v", ref)
		}
		mf := get(rs, "metadata", "managedFields").([]any)
		if get(mf[0], "manager") != "kube-controller-manager" {
			t.Errorf("managedFields = %v", mf)
		}
		st := rs["status"]
		if geti(st, "replicas") != 3 || geti(st, "fullyLabeledReplicas") != 3 || geti(st, "readyReplicas") != 3 ||
			geti(st, "availableReplicas") != 3 || geti(st, "observedGeneration") != 1 {
			t.Errorf("rs status = %v", st)
		}
	})
	t.Run("pods", func(t *testing.T) {
		_, _, all := e.runningPods("web")
		for _, p := range all {
			n := gets(p, "metadata", "name")
			if !strings.HasPrefix(n, "web-"+hash+"-") || len(n) != len("web-"+hash+"-")+5 {
				t.Errorf("pod name %q", n)
			}
			if gets(p, "metadata", "generateName") != "web-"+hash+"-" {
				t.Errorf("generateName = %v", get(p, "metadata", "generateName"))
			}
			if gets(p, "metadata", "labels", "pod-template-hash") != hash {
				t.Errorf("labels = %v", get(p, "metadata", "labels"))
			}
			if ip := gets(p, "status", "podIP"); !strings.HasPrefix(ip, "10.244.") {
				t.Errorf("podIP = %q", ip)
			}
			cs := get(p, "status", "containerStatuses").([]any)[0]
			if get(cs, "ready") != true || get(cs, "started") != true || gets(cs, "state", "running", "startedAt") == "" ||
				gets(cs, "image") != "docker.io/library/nginx:latest" {
				t.Errorf("containerStatus = %v", cs)
			}
			var types []string
			for _, c := range get(p, "status", "conditions").([]any) {
				types = append(types, gets(c, "type")+"="+gets(c, "status"))
			}
			if strings.Join(types, ",") != "PodReadyToStartContainers=True,Initialized=True,Ready=True,ContainersReady=True,PodScheduled=True" {
				t.Errorf("conditions = %v", types)
			}
			var managers []string
			for _, e := range get(p, "metadata", "managedFields").([]any) {
				managers = append(managers, gets(e, "manager")+"/"+gets(e, "subresource"))
			}
			if strings.Join(managers, ",") != "kube-controller-manager/,kubelet/status" {
				t.Errorf("managers = %v", managers)
			}
		}
	})
	t.Run("quiescent", func(t *testing.T) {
		e.eventually("idle", func() (bool, string) { return e.mgr.Idle(), "" })
		rev := e.srv.Store().Rev()
		time.Sleep(50 * time.Millisecond)
		if now := e.srv.Store().Rev(); now != rev || !e.mgr.Idle() {
			t.Errorf("controllers keep writing: rev %d → %d", rev, now)
		}
	})
	t.Run("events", func(t *testing.T) {
		var msgs []string
		for _, ev := range e.items("/api/v1/namespaces/default/events") {
			msgs = append(msgs, gets(ev, "source", "component")+": "+gets(ev, "message"))
		}
		joined := strings.Join(msgs, "\n")
		if !strings.Contains(joined, "deployment-controller: Scaled up replica set web-"+hash+" from 0 to 3") ||
			strings.Count(joined, "replicaset-controller: Created pod: web-"+hash+"-") != 3 {
			t.Errorf("events:\n%s", joined)
		}
	})
}

func TestDeploymentScaleSubresource(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 2, "nginx"))
	e.waitRollout("web", 2)
	for _, n := range []int64{5, 1, 0, 3} {
		t.Run("to "+itoa(n), func(t *testing.T) {
			e.must(200, "PATCH", deploys+"/web/scale", "application/merge-patch+json", m{"spec": m{"replicas": n}})
			if n == 0 {
				e.eventually("scaled to 0", func() (bool, string) {
					_, total, _ := e.runningPods("web")
					d := e.must(200, "GET", deploys+"/web", "", nil)
					return total == 0 && get(d, "status", "replicas") == nil, itoa(int64(total))
				})
				return
			}
			e.waitRollout("web", n)
			rs := e.items(rsets)[0]
			if gets(rs, "metadata", "annotations", "deployment.kubernetes.io/desired-replicas") != itoa(n) {
				t.Errorf("desired-replicas = %v", get(rs, "metadata", "annotations"))
			}
		})
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestDeploymentRollingUpdate(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 4, "nginx:1.25"))
	e.waitRollout("web", 4)
	oldRS := e.items(rsets)[0]
	e.must(200, "PATCH", deploys+"/web", "application/strategic-merge-patch+json",
		m{"spec": m{"template": m{"spec": m{"containers": []any{m{"name": "app", "image": "nginx:1.26"}}}}}})
	d := e.waitRollout("web", 4)
	e.eventually("old replica set at 0", func() (bool, string) {
		old := e.must(200, "GET", rsets+"/"+gets(oldRS, "metadata", "name"), "", nil)
		return geti(old, "spec", "replicas") == 0 && geti(old, "status", "replicas") == 0, ""
	})
	rsl := e.items(rsets)
	if len(rsl) != 2 {
		t.Fatalf("replicasets = %d", len(rsl))
	}
	if gets(d, "metadata", "annotations", "deployment.kubernetes.io/revision") != "2" {
		t.Errorf("deployment revision = %v", get(d, "metadata", "annotations"))
	}
	_, _, all := e.runningPods("web")
	for _, p := range all {
		if img := gets(get(p, "spec", "containers").([]any)[0], "image"); img != "nginx:1.26" {
			t.Errorf("pod %s runs %s", gets(p, "metadata", "name"), img)
		}
	}
	var scaled []string
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		if ev["reason"] == "ScalingReplicaSet" {
			scaled = append(scaled, gets(ev, "message"))
		}
	}
	if len(scaled) < 3 {
		t.Errorf("scaling events = %v", scaled)
	}
}

func TestDeleteDeploymentPropagation(t *testing.T) {
	cases := []struct {
		policy         string
		wantRS, wantPo int
	}{
		{"Background", 0, 0},
		{"Foreground", 0, 0},
		{"Orphan", 1, 2},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			e := start(t)
			e.must(201, "POST", deploys, "application/json", deployment("web", 2, "nginx"))
			e.waitRollout("web", 2)
			out := e.must(200, "DELETE", deploys+"/web", "application/json", m{"propagationPolicy": c.policy})
			if c.policy != "Background" && gets(out, "metadata", "deletionTimestamp") == "" {
				t.Errorf("%s delete answered %v", c.policy, out)
			}
			e.eventually("deployment gone", func() (bool, string) {
				code, _ := e.do("GET", deploys+"/web", "", nil)
				return code == 404, itoa(int64(code))
			})
			e.eventually("dependents settled", func() (bool, string) {
				rs := e.items(rsets)
				_, np, _ := e.runningPods("web")
				return len(rs) == c.wantRS && np == c.wantPo && e.mgr.Idle(), itoa(int64(len(rs))) + "/" + itoa(int64(np))
			})
			if c.policy == "Orphan" {
				rs := e.items(rsets)[0]
				if refs := get(rs, "metadata", "ownerReferences"); refs != nil {
					t.Errorf("orphaned replica set keeps ownerReferences %v", refs)
				}
				_, _, all := e.runningPods("web")
				for _, p := range all {
					if gets(get(p, "metadata", "ownerReferences").([]any)[0], "kind") != "ReplicaSet" {
						t.Errorf("pod owner = %v", get(p, "metadata", "ownerReferences"))
					}
				}
			}
		})
	}
}

func TestForegroundWaitsForBlockingDependents(t *testing.T) {
	e := start(t)
	cm := func(name string, owner m, block bool) m {
		md := m{"name": name}
		if owner != nil {
			md["ownerReferences"] = []any{m{"apiVersion": "v1", "kind": "ConfigMap", "name": gets(owner, "metadata", "name"),
				"uid": gets(owner, "metadata", "uid"), "blockOwnerDeletion": block}}
		}
		return m{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md}
	}
	const cms = "/api/v1/namespaces/default/configmaps"
	owner := e.must(201, "POST", cms, "application/json", cm("owner", nil, false))
	// a dependent held by its own finalizer keeps a blocked owner alive
	dep := cm("dep", owner, true)
	dep["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
	e.must(201, "POST", cms, "application/json", dep)
	e.must(201, "POST", cms, "application/json", cm("loose", owner, false))
	e.must(200, "DELETE", cms+"/owner", "application/json", m{"propagationPolicy": "Foreground"})
	e.eventually("non-blocking dependent deleted", func() (bool, string) {
		code, _ := e.do("GET", cms+"/loose", "", nil)
		return code == 404, ""
	})
	e.eventually("blocking dependent terminating", func() (bool, string) {
		d := e.must(200, "GET", cms+"/dep", "", nil)
		return gets(d, "metadata", "deletionTimestamp") != "" && e.mgr.Idle(), ""
	})
	if code, o := e.do("GET", cms+"/owner", "", nil); code != 200 || gets(o, "metadata", "finalizers") != "" && len(get(o, "metadata", "finalizers").([]any)) != 1 {
		t.Fatalf("owner while blocked: %d %v", code, get(o, "metadata"))
	}
	e.must(200, "PATCH", cms+"/dep", "application/merge-patch+json", m{"metadata": m{"finalizers": nil}})
	e.eventually("owner deleted", func() (bool, string) {
		code, _ := e.do("GET", cms+"/owner", "", nil)
		return code == 404, ""
	})
}

func TestDanglingOwnerIsCollected(t *testing.T) {
	e := start(t)
	const cms = "/api/v1/namespaces/default/configmaps"
	e.must(201, "POST", cms, "application/json", m{"metadata": m{"name": "a", "ownerReferences": []any{
		m{"apiVersion": "v1", "kind": "ConfigMap", "name": "nobody", "uid": "0c1f0a43-0000-4000-8000-000000000000"}}}})
	owner := e.must(201, "POST", cms, "application/json", m{"metadata": m{"name": "alive"}})
	// two owners, one dangling: only the dangling reference goes
	e.must(201, "POST", cms, "application/json", m{"metadata": m{"name": "b", "ownerReferences": []any{
		m{"apiVersion": "v1", "kind": "ConfigMap", "name": "nobody", "uid": "0c1f0a43-0000-4000-8000-000000000000"},
		m{"apiVersion": "v1", "kind": "ConfigMap", "name": "alive", "uid": gets(owner, "metadata", "uid")}}}})
	e.eventually("dangling dependent deleted, shared one patched", func() (bool, string) {
		code, _ := e.do("GET", cms+"/a", "", nil)
		b := e.must(200, "GET", cms+"/b", "", nil)
		refs, _ := get(b, "metadata", "ownerReferences").([]any)
		return code == 404 && len(refs) == 1 && gets(refs[0], "name") == "alive", itoa(int64(len(refs)))
	})
}

func TestStopsOnCancel(t *testing.T) {
	srv := apiserver.New(apiserver.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	mgr := controllers.Start(ctx, srv, srv.Store(), controllers.Options{Nodes: 1})
	cancel()
	select {
	case <-mgr.Done():
	case <-time.After(liveness):
		t.Fatal("not stopped")
	}
	// writes after the stop are not acted on
	req := httptest.NewRequest("POST", pods, strings.NewReader(`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"x"}]}}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d", rec.Code)
	}
	time.Sleep(20 * time.Millisecond)
	req = httptest.NewRequest("GET", pods+"/p", nil)
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if strings.Contains(rec.Body.String(), `"Running"`) {
		t.Error("pod started after stop")
	}
}

// TestNoNodes: with Nodes 0 (make serve NODES=0, the shape of a control
// plane without scheduler or kubelet) the workload controllers still create
// pods, but nothing makes them Running: they stay Pending as created, with
// no kubelet entry in their managedFields.
func TestNoNodes(t *testing.T) {
	e := startNodes(t, 0)
	e.must(201, "POST", pods, "application/json", m{"metadata": m{"name": "solo"},
		"spec": m{"containers": []any{m{"name": "c", "image": "nginx"}}}})
	e.must(201, "POST", deploys, "application/json", deployment("web", 2, "nginx"))
	e.eventually("the ReplicaSet's 2 pods", func() (bool, string) {
		n := len(e.items(pods + "?labelSelector=app%3Dweb"))
		return n == 2, itoa(int64(n))
	})
	e.eventually("idle", func() (bool, string) { return e.mgr.Idle(), "" })
	if l := e.items("/api/v1/nodes"); len(l) != 0 {
		t.Errorf("%d Nodes, want none", len(l))
	}
	for _, p := range e.items(pods) {
		t.Run(gets(p, "metadata", "name"), func(t *testing.T) {
			if ph := gets(p, "status", "phase"); ph != "Pending" {
				t.Errorf("phase = %q, want Pending", ph)
			}
			if cs := get(p, "status", "containerStatuses"); cs != nil {
				t.Errorf("containerStatuses = %v", cs)
			}
			for _, f := range get(p, "metadata", "managedFields").([]any) {
				if gets(f, "manager") == "kubelet" {
					t.Errorf("kubelet wrote %v", f)
				}
			}
		})
	}
	d := e.must(200, "GET", deploys+"/web", "", nil)
	if geti(d, "status", "readyReplicas") != 0 || geti(d, "status", "replicas") != 2 {
		t.Errorf("deployment status = %v", get(d, "status"))
	}
}

// Objects stored before the controllers start (a restored sandbox) are
// reconciled by the resync: a ConfigMap whose owner is gone is collected,
// and plain ConfigMaps, which the resync no longer decodes, stay as they
// are.
func TestResyncCollectsRestoredObjects(t *testing.T) {
	srv := apiserver.New(apiserver.Options{})
	post := func(obj m) {
		t.Helper()
		b, _ := json.Marshal(obj)
		req := httptest.NewRequest("POST", "/api/v1/namespaces/default/configmaps", bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			t.Fatalf("create: %d %s", rec.Code, rec.Body)
		}
	}
	post(m{"metadata": m{"name": "orphan", "ownerReferences": []any{
		m{"apiVersion": "v1", "kind": "ConfigMap", "name": "nobody", "uid": "0c1f0a43-0000-4000-8000-000000000000"}}}})
	for _, name := range []string{"plain-1", "plain-2"} {
		post(m{"metadata": m{"name": name}, "data": m{"k": "v"}})
	}
	before := func(name string) string {
		kv, _, err := srv.Store().Get("/core/configmaps/default/"+name, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(kv.Value)
	}
	plain := before("plain-1")
	ctx, cancel := context.WithCancel(context.Background())
	mgr := controllers.Start(ctx, srv, srv.Store(), controllers.Options{Nodes: 0, Logf: t.Logf, Instant: true})
	defer func() { cancel(); <-mgr.Done() }()
	e := &env{t: t, srv: srv, mgr: mgr}
	e.eventually("the orphan collected by the resync", func() (bool, string) {
		code, _ := e.do("GET", "/api/v1/namespaces/default/configmaps/orphan", "", nil)
		return code == 404 && mgr.Idle(), ""
	})
	if got := before("plain-1"); got != plain {
		t.Errorf("a plain ConfigMap changed: %s → %s", plain, got)
	}
}
