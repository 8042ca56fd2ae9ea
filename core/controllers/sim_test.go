package controllers_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

// Nodes, the scheduler and the kubelets (nodes.go, scheduler.go,
// kubelet.go), with Options.Instant: every step as soon as the last.

const nodesPath = "/api/v1/nodes"

func (e *env) pod(name string) m { return e.must(200, "GET", pods+"/"+name, "", nil) }

// events lists "reason: message" of the events about the object name.
func (e *env) events(name string) []string {
	var out []string
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		if gets(ev, "involvedObject", "name") == name {
			out = append(out, gets(ev, "reason")+": "+gets(ev, "message"))
		}
	}
	return out
}

// hasEventSoon is hasEvent polled for a while: the writer's event and its
// status write are two requests, and either may land first.
func (e *env) hasEventSoon(name, want string) (ok bool, got string) {
	for deadline := time.Now().Add(liveness); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok, got = e.hasEvent(name, want); ok {
			return
		}
	}
	return
}

func (e *env) hasEvent(name, want string) (bool, string) {
	evs := e.events(name)
	for _, s := range evs {
		if s == want {
			return true, ""
		}
	}
	return false, strings.Join(evs, " | ")
}

func (e *env) waitPhase(name, phase string) m {
	e.t.Helper()
	var p m
	e.eventually(name+" "+phase, func() (bool, string) {
		p = e.pod(name)
		return gets(p, "status", "phase") == phase, gets(p, "status", "phase")
	})
	return p
}

func podWith(name string, spec m) m {
	s := m{"containers": []any{m{"name": "app", "image": "nginx"}}}
	for k, v := range spec {
		s[k] = v
	}
	return m{"apiVersion": "v1", "kind": "Pod", "metadata": m{"name": name, "labels": m{"app": name}}, "spec": s}
}

func (e *env) waitNodesReady(n int) {
	e.t.Helper()
	e.eventually("nodes ready", func() (bool, string) {
		l := e.items(nodesPath)
		ready := 0
		for _, no := range l {
			if gets(cond(no, "Ready"), "status") == "True" && gets(no, "spec", "podCIDR") != "" {
				ready++
			}
		}
		return ready == n, itoa(int64(ready))
	})
}

func TestNodesRegistered(t *testing.T) {
	e := startNodes(t, 3)
	e.waitNodesReady(3)
	l := e.items(nodesPath)
	var names []string
	for _, no := range l {
		names = append(names, gets(no, "metadata", "name"))
	}
	if got := strings.Join(names, ","); got != "sandbox-control-plane,sandbox-worker,sandbox-worker2" {
		t.Fatalf("nodes = %s", got)
	}
	for i, no := range l {
		t.Run(names[i], func(t *testing.T) {
			r := cond(no, "Ready")
			if r["reason"] != "KubeletReady" || r["message"] != "kubelet is posting ready status" {
				t.Errorf("Ready = %v", r)
			}
			for _, c := range []string{"MemoryPressure", "DiskPressure", "PIDPressure"} {
				if gets(cond(no, c), "status") != "False" {
					t.Errorf("%s = %v", c, cond(no, c))
				}
			}
			if gets(no, "metadata", "labels", "kubernetes.io/hostname") != names[i] ||
				gets(no, "metadata", "labels", "kubernetes.io/os") != "linux" ||
				gets(no, "metadata", "labels", "beta.kubernetes.io/arch") != "amd64" {
				t.Errorf("labels = %v", get(no, "metadata", "labels"))
			}
			if gets(no, "status", "allocatable", "cpu") != "4" || gets(no, "status", "allocatable", "pods") != "110" ||
				gets(no, "status", "nodeInfo", "kubeletVersion") != "v1.37.2" {
				t.Errorf("status = %v", get(no, "status"))
			}
			var taints []string
			for _, tt := range asList(get(no, "spec", "taints")) {
				taints = append(taints, gets(tt, "key")+":"+gets(tt, "effect"))
			}
			want := ""
			if i == 0 {
				want = "node-role.kubernetes.io/control-plane:NoSchedule"
			}
			if strings.Join(taints, ",") != want {
				t.Errorf("taints = %v, want %q (not-ready lifted)", taints, want)
			}
			if gets(no, "spec", "podCIDR") != "10.244."+itoa(int64(i))+".0/24" {
				t.Errorf("podCIDR = %v", get(no, "spec", "podCIDR"))
			}
			lease := e.must(200, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/"+names[i], "", nil)
			owners := asList(get(lease, "metadata", "ownerReferences"))
			if gets(lease, "spec", "holderIdentity") != names[i] || geti(lease, "spec", "leaseDurationSeconds") != 40 ||
				len(owners) != 1 || gets(owners[0], "uid") != gets(no, "metadata", "uid") || gets(lease, "spec", "renewTime") == "" {
				t.Errorf("node lease = %v", lease)
			}
			for _, want := range []string{"Starting: Starting kubelet.", "NodeReady: Node " + names[i] + " status is now: NodeReady",
				"RegisteredNode: Node " + names[i] + " event: Registered Node " + names[i] + " in Controller"} {
				if ok, got := e.hasEventSoon(names[i], want); !ok {
					t.Errorf("no %q in %s", want, got)
				}
			}
		})
	}
	t.Run("restart keeps them", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		mgr := controllers.Start(ctx, e.srv, e.srv.Store(), controllers.Options{Logf: t.Logf, Nodes: 3, Instant: true})
		e.eventually("idle", func() (bool, string) { return mgr.Idle(), "" })
		again := e.items(nodesPath)
		if len(again) != 3 {
			t.Fatalf("%d nodes", len(again))
		}
		for i := range again {
			if gets(again[i], "metadata", "uid") != gets(l[i], "metadata", "uid") {
				t.Errorf("%s was made again", names[i])
			}
		}
	})
}

func asList(v any) []any { l, _ := v.([]any); return l }

func TestDeploymentSpreadsOverWorkers(t *testing.T) {
	e := startNodes(t, 3)
	e.must(201, "POST", deploys, "application/json", deployment("web", 3, "nginx"))
	e.waitRollout("web", 3)
	_, _, all := e.runningPods("web")
	used := map[string]bool{}
	for _, p := range all {
		node := gets(p, "spec", "nodeName")
		used[node] = true
		t.Run(gets(p, "metadata", "name"), func(t *testing.T) {
			if !strings.HasPrefix(node, "sandbox-worker") {
				t.Errorf("on %q", node)
			}
			var types []string
			for _, c := range asList(get(p, "status", "conditions")) {
				if gets(c, "status") != "True" {
					t.Errorf("condition %v", c)
				}
				types = append(types, gets(c, "type"))
			}
			if strings.Join(types, ",") != "PodReadyToStartContainers,Initialized,Ready,ContainersReady,PodScheduled" {
				t.Errorf("conditions %v", types)
			}
			cs := asList(get(p, "status", "containerStatuses"))
			if len(cs) != 1 || get(cs[0], "ready") != true || get(cs[0], "started") != true ||
				!strings.HasPrefix(gets(cs[0], "containerID"), "containerd://") || gets(cs[0], "state", "running", "startedAt") == "" ||
				gets(cs[0], "image") != "docker.io/library/nginx:latest" {
				t.Errorf("containerStatuses %v", cs)
			}
			ip := "172.18.0.3"
			if node == "sandbox-worker2" {
				ip = "172.18.0.4"
			}
			if gets(p, "status", "hostIP") != ip || !strings.HasPrefix(gets(p, "status", "podIP"), "10.244.") {
				t.Errorf("hostIP %v podIP %v", get(p, "status", "hostIP"), get(p, "status", "podIP"))
			}
			name := gets(p, "metadata", "name")
			for _, want := range []string{"Scheduled: Successfully assigned default/" + name + " to " + node,
				`Pulling: Pulling image "nginx:latest"`, "Created: Container created", "Started: Container started"} {
				if ok, got := e.hasEventSoon(name, want); !ok {
					t.Errorf("no %q in %s", want, got)
				}
			}
		})
	}
	if !used["sandbox-worker"] || !used["sandbox-worker2"] {
		t.Errorf("nodes used: %v", used)
	}
}

func TestScheduling(t *testing.T) {
	const pre = "0/3 nodes are available: "
	for _, c := range []struct {
		name   string
		spec   m
		before []m // pods bound first
		want   string
		fix    func(e *env) // makes it schedulable; "" node: none
		node   string
	}{
		{name: "nodeSelector without a match", spec: m{"nodeSelector": m{"disktype": "ssd"}},
			want: pre + "1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
			fix: func(e *env) {
				e.must(200, "PATCH", nodesPath+"/sandbox-worker2", "application/merge-patch+json", m{"metadata": m{"labels": m{"disktype": "ssd"}}})
			}, node: "sandbox-worker2"},
		{name: "required node affinity", spec: m{"affinity": m{"nodeAffinity": m{"requiredDuringSchedulingIgnoredDuringExecution": m{
			"nodeSelectorTerms": []any{m{"matchExpressions": []any{m{"key": "kubernetes.io/hostname", "operator": "In", "values": []any{"sandbox-worker"}}}}}}}}},
			node: "sandbox-worker"},
		{name: "toleration for the control plane", spec: m{"nodeSelector": m{"node-role.kubernetes.io/control-plane": ""},
			"tolerations": []any{m{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}}},
			node: "sandbox-control-plane"},
		{name: "cpu more than any node has", spec: m{"containers": []any{m{"name": "app", "image": "nginx",
			"resources": m{"requests": m{"cpu": "5"}}}}},
			want: pre + "1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		{name: "cpu taken by bound pods", spec: m{"containers": []any{m{"name": "app", "image": "nginx",
			"resources": m{"requests": m{"cpu": "2"}}}}},
			before: []m{podWith("big1", m{"containers": []any{m{"name": "app", "image": "nginx", "resources": m{"requests": m{"cpu": "3"}}}}}),
				podWith("big2", m{"containers": []any{m{"name": "app", "image": "nginx", "resources": m{"requests": m{"cpu": "3"}}}}})},
			want: pre + "1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
			fix: func(e *env) {
				e.must(200, "DELETE", pods+"/big1", "application/json", m{"gracePeriodSeconds": 0})
			}},
		{name: "cordoned workers", spec: m{},
			before: nil,
			want:   pre + "1 node(s) had untolerated taint(s), 2 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
			fix: func(e *env) {
				e.must(200, "PATCH", nodesPath+"/sandbox-worker", "application/merge-patch+json", m{"spec": m{"unschedulable": nil}})
			}, node: "sandbox-worker"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := startNodes(t, 3)
			e.waitNodesReady(3)
			for _, b := range c.before {
				e.must(201, "POST", pods, "application/json", b)
				e.waitPhase(gets(b, "metadata", "name"), "Running")
			}
			if c.name == "cordoned workers" {
				for _, n := range []string{"sandbox-worker", "sandbox-worker2"} {
					e.must(200, "PATCH", nodesPath+"/"+n, "application/merge-patch+json", m{"spec": m{"unschedulable": true}})
				}
			}
			e.must(201, "POST", pods, "application/json", podWith("p", c.spec))
			if c.want != "" {
				e.eventually("FailedScheduling", func() (bool, string) { return e.hasEvent("p", "FailedScheduling: "+c.want) })
				// The event and the PodScheduled condition are two writes, as
				// kube-scheduler's; either may be seen first.
				var p m
				e.eventually("PodScheduled=False", func() (bool, string) {
					p = e.pod("p")
					return cond(p, "PodScheduled") != nil, gets(p, "status", "phase")
				})
				sc := cond(p, "PodScheduled")
				if gets(p, "status", "phase") != "Pending" || sc["status"] != "False" || sc["reason"] != "Unschedulable" || sc["message"] != c.want {
					t.Errorf("status = %v", get(p, "status"))
				}
				if gets(p, "spec", "nodeName") != "" {
					t.Fatalf("bound to %s", gets(p, "spec", "nodeName"))
				}
				if c.fix == nil {
					return
				}
				c.fix(e)
			}
			p := e.waitPhase("p", "Running")
			if c.node != "" && gets(p, "spec", "nodeName") != c.node {
				t.Errorf("on %q, want %q", gets(p, "spec", "nodeName"), c.node)
			}
			if sc := cond(p, "PodScheduled"); sc["status"] != "True" || sc["reason"] != nil {
				t.Errorf("PodScheduled = %v", sc)
			}
		})
	}
}

func TestImagePullFailure(t *testing.T) {
	e := startNodes(t, 2)
	e.must(201, "POST", pods, "application/json", podWith("bad", m{"containers": []any{m{"name": "app", "image": "nginx:fail"}}}))
	e.eventually("ImagePullBackOff", func() (bool, string) {
		p := e.pod("bad")
		r := ""
		cs := asList(get(p, "status", "containerStatuses"))
		if len(cs) == 1 {
			r = gets(cs[0], "state", "waiting", "reason")
		}
		return r == "ImagePullBackOff", r
	})
	why := `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:fail": failed to resolve reference "docker.io/library/nginx:fail": docker.io/library/nginx:fail: not found`
	for _, want := range []string{
		`Pulling: Pulling image "nginx:fail"`,
		`Failed: Failed to pull image "nginx:fail": ` + why,
		"Failed: Error: ErrImagePull",
		`BackOff: Back-off pulling image "nginx:fail"`,
		"Failed: Error: ImagePullBackOff",
	} {
		t.Run(want, func(t *testing.T) {
			if ok, got := e.hasEventSoon("bad", want); !ok {
				t.Errorf("events: %s", got)
			}
		})
	}
	p := e.pod("bad")
	cs := asList(get(p, "status", "containerStatuses"))
	if msg := gets(cs[0], "state", "waiting", "message"); msg != `Back-off pulling image "nginx:fail": ErrImagePull: `+why {
		t.Errorf("waiting message %q", msg)
	}
	if gets(p, "status", "phase") != "Pending" || gets(cond(p, "Ready"), "reason") != "ContainersNotReady" {
		t.Errorf("status %v", get(p, "status"))
	}
	code, out := e.do("GET", pods+"/bad/log", "", nil)
	if code != 400 || out["message"] != `container "app" in pod "bad" is waiting to start: trying and failing to pull image` {
		t.Errorf("log: %d %v", code, out)
	}
}

func TestGracefulDelete(t *testing.T) {
	e := startNodes(t, 2)
	e.must(201, "POST", pods, "application/json", podWith("web", nil))
	e.waitPhase("web", "Running")
	code, out := e.do("DELETE", pods+"/web", "", nil)
	if code != 200 || gets(out, "metadata", "deletionTimestamp") == "" || geti(out, "metadata", "deletionGracePeriodSeconds") != 30 {
		t.Fatalf("DELETE: %d %v", code, get(out, "metadata"))
	}
	e.eventually("gone", func() (bool, string) {
		code, _ := e.do("GET", pods+"/web", "", nil)
		return code == 404, itoa(int64(code))
	})
	if ok, got := e.hasEventSoon("web", "Killing: Stopping container app"); !ok {
		t.Errorf("events: %s", got)
	}
}

// TestGracefulDeleteStopsContainers: before its final DELETE the kubelet
// reports the containers stopped — `kubectl get pods -w` shows the Pod
// "0/1 Completed" before it goes, as on a real cluster (a finalizer keeps
// it here to look at).
func TestGracefulDeleteStopsContainers(t *testing.T) {
	// with the kubelet's delays, as `make serve` runs it
	srv := apiserver.New(apiserver.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	mgr := controllers.Start(ctx, srv, srv.Store(), controllers.Options{Logf: t.Logf, Nodes: 1})
	t.Cleanup(func() { cancel(); <-mgr.Done() })
	e := &env{t: t, srv: srv, mgr: mgr}
	p := podWith("web", nil)
	p["metadata"].(m)["finalizers"] = []any{"example.com/hold"}
	e.must(201, "POST", pods, "application/json", p)
	e.waitPhase("web", "Running")
	e.must(200, "DELETE", pods+"/web", "", nil)
	e.eventually("containers stopped", func() (bool, string) {
		p := e.pod("web")
		cs := asList(get(p, "status", "containerStatuses"))
		return gets(p, "status", "phase") == "Succeeded" && len(cs) == 1 && gets(cs[0], "state", "terminated", "reason") == "Completed" &&
			get(cs[0], "ready") == false, js(get(p, "status"))
	})
	e.must(200, "PATCH", pods+"/web", "application/merge-patch+json", m{"metadata": m{"finalizers": nil}})
}

func TestDaemonSetOnePerNode(t *testing.T) {
	for _, c := range []struct {
		name  string
		tols  []any
		nodes []string
	}{
		{"workers only", nil, []string{"sandbox-worker", "sandbox-worker2"}},
		{"control plane tolerated", []any{m{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"}},
			[]string{"sandbox-control-plane", "sandbox-worker", "sandbox-worker2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := startNodes(t, 3)
			spec := m{"containers": []any{m{"name": "a", "image": "busybox"}}}
			if c.tols != nil {
				spec["tolerations"] = c.tols
			}
			ds := m{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": m{"name": "agent"},
				"spec": m{"selector": m{"matchLabels": m{"app": "agent"}},
					"template": m{"metadata": m{"labels": m{"app": "agent"}}, "spec": spec}}}
			e.must(201, "POST", "/apis/apps/v1/namespaces/default/daemonsets", "application/json", ds)
			n := int64(len(c.nodes))
			e.eventually("daemonset ready", func() (bool, string) {
				d := e.must(200, "GET", "/apis/apps/v1/namespaces/default/daemonsets/agent", "", nil)
				st := get(d, "status")
				r, _, _ := e.runningPods("agent")
				return geti(st, "desiredNumberScheduled") == n && geti(st, "currentNumberScheduled") == n &&
					geti(st, "numberReady") == n && geti(st, "numberAvailable") == n && geti(st, "updatedNumberScheduled") == n &&
					get(st, "numberUnavailable") == nil && int64(r) == n, itoa(int64(r))
			})
			_, _, all := e.runningPods("agent")
			var got []string
			for _, p := range all {
				got = append(got, gets(p, "spec", "nodeName"))
				if gets(p, "metadata", "labels", "pod-template-generation") != "1" || gets(p, "metadata", "labels", "controller-revision-hash") == "" {
					t.Errorf("labels %v", get(p, "metadata", "labels"))
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(c.nodes, ",") {
				t.Errorf("on %v, want %v", got, c.nodes)
			}
		})
	}
}

// Without Instant the image back-off goes round (pull, fail, back off,
// pull again) and the kubelet's repeated events are one Event each whose
// count grows, as client-go's EventCorrelator aggregates them.
func TestRepeatedEventsAggregate(t *testing.T) {
	srv := apiserver.New(apiserver.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	mgr := controllers.Start(ctx, srv, srv.Store(), controllers.Options{Logf: t.Logf, Nodes: 2,
		PullDelay: time.Millisecond, RunDelay: time.Millisecond, KillDelay: time.Millisecond})
	t.Cleanup(func() { cancel(); <-mgr.Done() })
	e := &env{t: t, srv: srv, mgr: mgr}
	e.must(201, "POST", pods, "application/json", podWith("bad", m{"containers": []any{m{"name": "app", "image": "nginx:fail"}}}))
	var same []m
	e.eventually("Error: ErrImagePull twice", func() (bool, string) {
		same = nil
		for _, ev := range e.items("/api/v1/namespaces/default/events") {
			if gets(ev, "involvedObject", "name") == "bad" && gets(ev, "message") == "Error: ErrImagePull" {
				same = append(same, ev)
			}
		}
		return len(same) == 1 && geti(same[0], "count") >= 2, itoa(int64(len(same)))
	})
	ev := same[0]
	if gets(ev, "source", "component") != "kubelet" || gets(ev, "source", "host") != "sandbox-worker" ||
		gets(ev, "involvedObject", "fieldPath") != "spec.containers{app}" || gets(ev, "lastTimestamp") < gets(ev, "firstTimestamp") {
		t.Errorf("event %v", ev)
	}
}

func TestNoNodeLeft(t *testing.T) {
	e := startNodes(t, 1)
	e.waitNodesReady(1)
	e.must(200, "DELETE", nodesPath+"/sandbox-control-plane", "", nil)
	e.must(201, "POST", pods, "application/json", podWith("p", nil))
	e.eventually("FailedScheduling", func() (bool, string) {
		return e.hasEvent("p", "FailedScheduling: no nodes available to schedule pods")
	})
}

// imagePullPolicy IfNotPresent (a tagged image): a Node pulls it once.
func TestImagePulledOncePerNode(t *testing.T) {
	e := startNodes(t, 2) // one worker
	e.must(201, "POST", deploys, "application/json", deployment("web", 3, "nginx:1.27"))
	e.waitRollout("web", 3)
	pulled, present := 0, 0
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		msg := gets(ev, "message")
		if strings.HasPrefix(msg, `Successfully pulled image "nginx:1.27" in `) {
			pulled++
		}
		if msg == `Container image "nginx:1.27" already present on machine and can be accessed by the pod` {
			present++
		}
	}
	if pulled != 1 || present != 2 {
		t.Errorf("pulled %d, already present %d", pulled, present)
	}
}

// A finalizer keeps the Pod the kubelet deleted: its last status shows
// the containers stopped and the Pod Succeeded.
func TestDeletedPodsLastStatus(t *testing.T) {
	e := startNodes(t, 2)
	p := podWith("held", nil)
	p["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
	e.must(201, "POST", pods, "application/json", p)
	e.waitPhase("held", "Running")
	e.must(200, "DELETE", pods+"/held", "", nil)
	got := e.waitPhase("held", "Succeeded")
	cs := asList(get(got, "status", "containerStatuses"))
	if len(cs) != 1 || gets(cs[0], "state", "terminated", "reason") != "Completed" || get(cs[0], "ready") != false ||
		gets(cond(got, "Ready"), "reason") != "PodCompleted" {
		t.Errorf("status %v", get(got, "status"))
	}
	e.must(200, "PATCH", pods+"/held", "application/merge-patch+json", m{"metadata": m{"finalizers": nil}})
	e.eventually("gone", func() (bool, string) {
		code, _ := e.do("GET", pods+"/held", "", nil)
		return code == 404, itoa(int64(code))
	})
}
