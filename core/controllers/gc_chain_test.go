package controllers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// TestForegroundDeploymentChain deletes a Deployment in the foreground
// and reads the store's history: the Deployment and then its ReplicaSet
// carry the foregroundDeletion finalizer while their dependents go, the
// Pods are deleted before the ReplicaSet, the ReplicaSet before the
// Deployment, and nothing is left holding the finalizer.
func TestForegroundDeploymentChain(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 2, "nginx"))
	e.waitRollout("web", 2)
	e.idle()
	from := e.srv.Store().Rev()
	e.must(200, "DELETE", deploys+"/web", "application/json", m{"propagationPolicy": "Foreground"})
	e.eventually("deployment gone", func() (bool, string) {
		code, _ := e.do("GET", deploys+"/web", "", nil)
		return code == 404, ""
	})
	w, err := e.srv.Store().Watch("/", from)
	if err != nil {
		t.Fatal(err)
	}
	var history []store.Event
	for done := false; !done; {
		evs, err := w.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			history = append(history, ev)
			done = done || (ev.Type == store.Delete && ev.KV.Key == "/apps/deployments/default/web")
		}
	}
	deleted := map[string]int{} // kind → index of its last delete
	firstDelete := map[string]int{}
	marked := map[string]bool{} // kind → seen with foregroundDeletion
	for i, ev := range history {
		kind := strings.Split(ev.KV.Key, "/")[2]
		if ev.Type == store.Delete {
			if _, ok := firstDelete[kind]; !ok {
				firstDelete[kind] = i
			}
			deleted[kind] = i
			continue
		}
		o, _ := jsonx.DecodeObject(ev.KV.Value)
		for _, f := range anyList(get(o, "metadata", "finalizers")) {
			if f == "foregroundDeletion" {
				marked[kind] = true
			}
		}
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"the Deployment is marked foregroundDeletion", marked["deployments"]},
		{"the ReplicaSet is marked foregroundDeletion", marked["replicasets"]},
		{"pods go before the ReplicaSet", deleted["pods"] < firstDelete["replicasets"] && firstDelete["pods"] > 0},
		{"the ReplicaSet goes before the Deployment", deleted["replicasets"] < deleted["deployments"]},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !c.ok {
				t.Errorf("history: deletes %v (first %v), marked %v", deleted, firstDelete, marked)
			}
		})
	}
	if l := e.items(rsets); len(l) != 0 {
		t.Errorf("replica sets left: %d", len(l))
	}
	if _, n, _ := e.runningPods("web"); n != 0 {
		t.Errorf("pods left: %d", n)
	}
}
