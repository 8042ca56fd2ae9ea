package controllers_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// A ReplicationController runs the ReplicaSet controller's code: it adopts
// a matching orphan Pod, creates the rest, reports a status without
// terminatingReplicas, and its events come from replication-controller. A
// DELETE without a propagation policy orphans its Pods (the v1 strategy's
// default GC policy); kubectl's Background deletes them.
func TestReplicationController(t *testing.T) {
	e := start(t)
	const rcs = "/api/v1/namespaces/default/replicationcontrollers"
	orphan := m{"apiVersion": "v1", "kind": "Pod", "metadata": m{"name": "stray", "labels": m{"app": "rc"}},
		"spec": m{"containers": []any{m{"name": "c", "image": "nginx"}}}}
	e.must(201, "POST", pods, "application/json", orphan)
	rc := m{"apiVersion": "v1", "kind": "ReplicationController", "metadata": m{"name": "rc"},
		"spec": m{"replicas": int64(3), "template": m{"metadata": m{"labels": m{"app": "rc"}},
			"spec": m{"containers": []any{m{"name": "c", "image": "nginx"}}}}}}
	e.must(201, "POST", rcs, "application/json", rc)
	e.eventually("3 pods ready", func() (bool, string) {
		r := e.must(200, "GET", rcs+"/rc", "", nil)
		b, _ := json.Marshal(r["status"])
		return string(b) == `{"availableReplicas":3,"fullyLabeledReplicas":3,"observedGeneration":1,"readyReplicas":3,"replicas":3}`, string(b)
	})
	_, total, all := e.runningPods("rc")
	owned := 0
	for _, p := range all {
		if ownerKind(p) == "ReplicationController" {
			owned++
		}
	}
	if total != 3 || owned != 3 {
		t.Errorf("pods: %d, owned by the ReplicationController: %d", total, owned)
	}
	e.idle()
	var created int
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		if gets(ev, "involvedObject", "name") != "rc" {
			continue
		}
		if gets(ev, "source", "component") != "replication-controller" || gets(ev, "reason") != "SuccessfulCreate" {
			t.Errorf("event %s from %s", gets(ev, "reason"), gets(ev, "source", "component"))
		}
		created++
	}
	if created != 2 { // the stray pod was adopted
		t.Errorf("SuccessfulCreate events: %d, want 2", created)
	}

	e.must(200, "DELETE", rcs+"/rc", "", nil)
	e.eventually("pods orphaned, rc gone", func() (bool, string) {
		_, total, all := e.runningPods("rc")
		var owners []string
		for _, p := range all {
			owners = append(owners, ownerKind(p))
		}
		st, _ := e.do("GET", rcs+"/rc", "", nil)
		return st == 404 && total == 3 && strings.Join(owners, "") == "", strings.Join(owners, ",")
	})
}

func ownerKind(p m) string {
	refs, _ := get(p, "metadata", "ownerReferences").([]any)
	for _, r := range refs {
		if rm, ok := r.(map[string]any); ok && rm["controller"] == true {
			return gets(rm, "kind")
		}
	}
	return ""
}
