package controllers_test

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJobCompletes(t *testing.T) {
	e := start(t)
	job := m{"apiVersion": "batch/v1", "kind": "Job", "metadata": m{"name": "pi"},
		"spec": m{"completions": int64(2), "template": m{"spec": m{"restartPolicy": "Never",
			"containers": []any{m{"name": "pi", "image": "perl"}}}}}}
	e.must(201, "POST", "/apis/batch/v1/namespaces/default/jobs", "application/json", job)
	var j m
	e.eventually("job complete", func() (bool, string) {
		j = e.must(200, "GET", "/apis/batch/v1/namespaces/default/jobs/pi", "", nil)
		b, _ := json.Marshal(j["status"])
		return gets(cond(j, "Complete"), "status") == "True", string(b)
	})
	st := j["status"]
	if geti(st, "succeeded") != 2 || gets(st, "completionTime") == "" || gets(st, "startTime") == "" || get(st, "active") != nil {
		t.Errorf("status = %v", st)
	}
	sc := cond(j, "SuccessCriteriaMet")
	if sc["reason"] != "CompletionsReached" || sc["message"] != "Reached expected number of succeeded pods" {
		t.Errorf("SuccessCriteriaMet = %v", sc)
	}
	if b, _ := json.Marshal(get(st, "uncountedTerminatedPods")); string(b) != "{}" {
		t.Errorf("uncountedTerminatedPods = %s", b)
	}
	e.eventually("pods released", func() (bool, string) {
		l := e.items(pods + "?labelSelector=job-name%3Dpi")
		done := 0
		for _, p := range l {
			if gets(p, "status", "phase") == "Succeeded" && get(p, "metadata", "finalizers") == nil {
				done++
			}
		}
		return len(l) == 2 && done == 2, itoa(int64(done))
	})
}

func TestStatefulSetAndDaemonSet(t *testing.T) {
	e := start(t)
	sts := m{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": m{"name": "db"},
		"spec": m{"replicas": int64(3), "serviceName": "db", "selector": m{"matchLabels": m{"app": "db"}},
			"template": m{"metadata": m{"labels": m{"app": "db"}},
				"spec": m{"containers": []any{m{"name": "db", "image": "postgres"}}}}}}
	e.must(201, "POST", "/apis/apps/v1/namespaces/default/statefulsets", "application/json", sts)
	e.eventually("db-0..2 ready", func() (bool, string) {
		r, total, all := e.runningPods("db")
		var names []string
		for _, p := range all {
			names = append(names, gets(p, "metadata", "name"))
		}
		s := e.must(200, "GET", "/apis/apps/v1/namespaces/default/statefulsets/db", "", nil)
		return r == 3 && total == 3 && strings.Join(names, ",") == "db-0,db-1,db-2" && geti(s, "status", "readyReplicas") == 3,
			strings.Join(names, ",")
	})
	// each Pod made once, at the one revision: the first sync's revision
	// once differed (no collisionCount yet) and db-0 was replaced at once
	e.idle()
	want := "SuccessfulCreate: create Pod db-0 in StatefulSet db successful\n" +
		"SuccessfulCreate: create Pod db-1 in StatefulSet db successful\n" +
		"SuccessfulCreate: create Pod db-2 in StatefulSet db successful"
	if got := strings.Join(e.eventsFor("default", "db"), "\n"); got != want {
		t.Errorf("StatefulSet events:\n%s\nwant\n%s", got, want)
	}
	e.must(200, "PATCH", "/apis/apps/v1/namespaces/default/statefulsets/db/scale", "application/merge-patch+json", m{"spec": m{"replicas": 1}})
	e.eventually("scaled to db-0", func() (bool, string) {
		_, total, _ := e.runningPods("db")
		return total == 1, itoa(int64(total))
	})

	ds := m{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": m{"name": "agent"},
		"spec": m{"selector": m{"matchLabels": m{"app": "agent"}},
			"template": m{"metadata": m{"labels": m{"app": "agent"}},
				"spec": m{"containers": []any{m{"name": "a", "image": "busybox"}}}}}}
	e.must(201, "POST", "/apis/apps/v1/namespaces/default/daemonsets", "application/json", ds)
	e.eventually("daemonset status", func() (bool, string) {
		d := e.must(200, "GET", "/apis/apps/v1/namespaces/default/daemonsets/agent", "", nil)
		b, _ := json.Marshal(d["status"])
		return string(b) == `{"currentNumberScheduled":1,"desiredNumberScheduled":1,"numberAvailable":1,"numberMisscheduled":0,"numberReady":1,"observedGeneration":1,"updatedNumberScheduled":1}`, string(b)
	})
}

func TestRecreateStrategy(t *testing.T) {
	e := start(t)
	d := deployment("web", 3, "nginx:1.25")
	d["spec"].(map[string]any)["strategy"] = m{"type": "Recreate"}
	e.must(201, "POST", deploys, "application/json", d)
	e.waitRollout("web", 3)
	e.must(200, "PATCH", deploys+"/web", "application/strategic-merge-patch+json",
		m{"spec": m{"template": m{"spec": m{"containers": []any{m{"name": "app", "image": "nginx:1.26"}}}}}})
	e.waitRollout("web", 3)
	var msgs []string
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		if ev["reason"] == "ScalingReplicaSet" {
			msgs = append(msgs, strings.Split(gets(ev, "message"), " replica set ")[0]+" "+strings.SplitN(gets(ev, "message"), " from ", 2)[1])
		}
	}
	// Recreate: down to 0 before the new set goes up (no surge)
	if strings.Join(msgs, "; ") != "Scaled up 0 to 3; Scaled down 3 to 0; Scaled up 0 to 3" {
		t.Errorf("scaling = %v", msgs)
	}
}

func TestNamespaceDeletionWithWorkloads(t *testing.T) {
	e := start(t)
	e.must(201, "POST", "/api/v1/namespaces", "application/json", m{"metadata": m{"name": "demo"}})
	e.must(201, "POST", "/apis/apps/v1/namespaces/demo/deployments", "application/json", deployment("web", 2, "nginx"))
	e.eventually("pods running", func() (bool, string) {
		l := e.items("/api/v1/namespaces/demo/pods")
		return len(l) == 2 && gets(l[0], "status", "phase") == "Running", ""
	})
	e.must(200, "DELETE", "/api/v1/namespaces/demo", "", nil)
	e.eventually("namespace gone", func() (bool, string) {
		code, o := e.do("GET", "/api/v1/namespaces/demo", "", nil)
		return code == 404, gets(o, "status", "phase")
	})
}

func TestPausedDeployment(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 2, "nginx"))
	e.waitRollout("web", 2)
	e.must(200, "PATCH", deploys+"/web", "application/merge-patch+json", m{"spec": m{"paused": true}})
	e.eventually("paused condition", func() (bool, string) {
		d := e.must(200, "GET", deploys+"/web", "", nil)
		c := cond(d, "Progressing")
		return c["reason"] == "DeploymentPaused" && c["status"] == "Unknown" && c["message"] == "Deployment is paused", gets(c, "reason")
	})
	e.must(200, "PATCH", deploys+"/web", "application/strategic-merge-patch+json",
		m{"spec": m{"template": m{"spec": m{"containers": []any{m{"name": "app", "image": "nginx:2"}}}}}})
	e.eventually("idle", func() (bool, string) { return e.mgr.Idle(), "" })
	if n := len(e.items(rsets)); n != 1 {
		t.Fatalf("paused deployment rolled out: %d replica sets", n)
	}
	e.must(200, "PATCH", deploys+"/web", "application/merge-patch+json", m{"spec": m{"paused": false}})
	e.waitRollout("web", 2)
	if n := len(e.items(rsets)); n != 2 {
		t.Fatalf("resumed deployment: %d replica sets", n)
	}
}

// TestJobSuspendResume: a suspended Job gets Suspended=True (JobSuspended)
// and no pods or startTime; resuming turns the condition False (JobResumed),
// sets startTime and starts its pod.
func TestJobSuspendResume(t *testing.T) {
	e := start(t)
	const path = "/apis/batch/v1/namespaces/default/jobs"
	job := m{"apiVersion": "batch/v1", "kind": "Job", "metadata": m{"name": "later"},
		"spec": m{"suspend": true, "template": m{"spec": m{"restartPolicy": "Never",
			"containers": []any{m{"name": "c", "image": "busybox"}}}}}}
	e.must(201, "POST", path, "application/json", job)
	var j m
	e.eventually("Suspended", func() (bool, string) {
		j = e.must(200, "GET", path+"/later", "", nil)
		b, _ := json.Marshal(j["status"])
		return gets(cond(j, "Suspended"), "status") == "True", string(b)
	})
	e.eventually("idle", func() (bool, string) { return e.mgr.Idle(), "" })
	j = e.must(200, "GET", path+"/later", "", nil)
	t.Run("suspended", func(t *testing.T) {
		c := cond(j, "Suspended")
		if c["reason"] != "JobSuspended" || c["message"] != "Job suspended" || get(j, "status", "startTime") != nil {
			t.Errorf("status = %v", j["status"])
		}
		if n := len(e.items(pods + "?labelSelector=job-name%3Dlater")); n != 0 {
			t.Errorf("%d pods", n)
		}
	})
	e.must(200, "PATCH", path+"/later", "application/merge-patch+json", m{"spec": m{"suspend": false}})
	e.eventually("resumed", func() (bool, string) {
		j = e.must(200, "GET", path+"/later", "", nil)
		b, _ := json.Marshal(j["status"])
		c := cond(j, "Suspended")
		return c["status"] == "False" && c["reason"] == "JobResumed" && gets(j, "status", "startTime") != "", string(b)
	})
	e.eventually("its pod", func() (bool, string) {
		n := len(e.items(pods + "?labelSelector=job-name%3Dlater"))
		return n == 1, itoa(int64(n))
	})
}
