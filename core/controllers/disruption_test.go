package controllers_test

import (
	"encoding/json"
	"testing"
)

const pdbs = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"

// The disruption controller keeps a budget's status as
// kube-controller-manager does, and an eviction spends it: minAvailable 2
// over a Deployment's 3 Ready pods allows one disruption; the eviction
// takes it (a second one at once answers 429), the Deployment replaces the
// pod, and the budget allows one again.
func TestDisruptionBudgetAndEviction(t *testing.T) {
	e := start(t)
	e.must(201, "POST", deploys, "application/json", deployment("web", 3, "nginx"))
	e.waitRollout("web", 3)
	for _, c := range []struct {
		name                                string
		spec                                m
		expected, desired, healthy, allowed int64
		condStatus, condReason              string
	}{
		{"minAvailable integer", m{"minAvailable": int64(2)}, 3, 2, 3, 1, "True", "SufficientPods"},
		{"minAvailable percent of the Deployment's replicas", m{"minAvailable": "50%"}, 3, 2, 3, 1, "True", "SufficientPods"},
		{"maxUnavailable", m{"maxUnavailable": int64(0)}, 3, 3, 3, 0, "False", "InsufficientPods"},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := m{"selector": m{"matchLabels": m{"app": "web"}}}
			for k, v := range c.spec {
				spec[k] = v
			}
			e.must(201, "POST", pdbs, "application/json", m{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
				"metadata": m{"name": "web"}, "spec": spec})
			defer e.must(200, "DELETE", pdbs+"/web", "", nil)
			e.eventually("budget observed", func() (bool, string) {
				p := e.must(200, "GET", pdbs+"/web", "", nil)
				st := p["status"]
				b, _ := json.Marshal(st)
				return geti(st, "observedGeneration") == 1 && geti(st, "expectedPods") == c.expected &&
					geti(st, "desiredHealthy") == c.desired && geti(st, "currentHealthy") == c.healthy &&
					geti(st, "disruptionsAllowed") == c.allowed &&
					gets(cond(p, "DisruptionAllowed"), "status") == c.condStatus &&
					gets(cond(p, "DisruptionAllowed"), "reason") == c.condReason, string(b)
			})
		})
	}
	e.must(201, "POST", pdbs, "application/json", m{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
		"metadata": m{"name": "web"}, "spec": m{"minAvailable": int64(2), "selector": m{"matchLabels": m{"app": "web"}}}})
	e.eventually("one disruption allowed", func() (bool, string) {
		st := e.must(200, "GET", pdbs+"/web", "", nil)["status"]
		return geti(st, "disruptionsAllowed") == 1, ""
	})
	_, _, all := e.runningPods("web")
	first, second := gets(all[0], "metadata", "name"), gets(all[1], "metadata", "name")
	ev := func(name string) m {
		return m{"apiVersion": "policy/v1", "kind": "Eviction", "metadata": m{"name": name}}
	}
	e.must(201, "POST", pods+"/"+first+"/eviction", "application/json", ev(first))
	if code, out := e.do("POST", pods+"/"+second+"/eviction", "application/json", ev(second)); code != 429 {
		t.Fatalf("second eviction at once: %d %v", code, out)
	}
	e.waitRollout("web", 3)
	e.eventually("the budget allows one again", func() (bool, string) {
		st := e.must(200, "GET", pdbs+"/web", "", nil)["status"]
		b, _ := json.Marshal(st)
		return geti(st, "disruptionsAllowed") == 1 && geti(st, "currentHealthy") == 3 && get(st, "disruptedPods") == nil, string(b)
	})
	e.must(201, "POST", pods+"/"+second+"/eviction", "application/json", ev(second))
}

// A budget over pods whose controller is a custom resource: the
// disruption controller reads the controller's /scale, as kube's
// getScaleController does, and fails the budget with kube's messages when
// the kind has no /scale or is not served (checked against
// kube-controller-manager v1.37.2: same status, condition and message).
func TestDisruptionBudgetOverCustomResource(t *testing.T) {
	e := startNodes(t, 0)
	crd := func(plural, kind string, scale bool) m {
		v := m{"name": "v1", "served": true, "storage": true,
			"schema": m{"openAPIV3Schema": m{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}
		if scale {
			v["subresources"] = m{"scale": m{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}
		}
		return m{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": m{"name": plural + ".pdb.example.com"},
			"spec": m{"group": "pdb.example.com", "scope": "Namespaced", "versions": []any{v},
				"names": m{"plural": plural, "singular": kind, "kind": kind, "listKind": kind + "List"}}}
	}
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", crd("scalers", "Scaler", true))
	e.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", crd("plains", "Plain", false))
	owner := func(plural, kind, name string, replicas int64) string {
		o := e.must(201, "POST", "/apis/pdb.example.com/v1/namespaces/default/"+plural, "application/json",
			m{"apiVersion": "pdb.example.com/v1", "kind": kind, "metadata": m{"name": name}, "spec": m{"replicas": replicas}})
		return gets(o, "metadata", "uid")
	}
	// readyPod is a pod the owner controls, Running and Ready as a kubelet reports it.
	readyPod := func(name, app, kind, ownerName, uid string) {
		e.must(201, "POST", pods, "application/json", m{"apiVersion": "v1", "kind": "Pod",
			"metadata": m{"name": name, "labels": m{"app": app}, "ownerReferences": []any{
				m{"apiVersion": "pdb.example.com/v1", "kind": kind, "name": ownerName, "uid": uid, "controller": true}}},
			"spec": m{"containers": []any{m{"name": "c", "image": "nginx"}}}})
		e.must(200, "PATCH", pods+"/"+name+"/status", "application/merge-patch+json",
			m{"status": m{"phase": "Running", "conditions": []any{m{"type": "Ready", "status": "True"}}}})
	}
	four, two, plain := owner("scalers", "Scaler", "four", 4), owner("scalers", "Scaler", "two", 2), owner("plains", "Plain", "p", 4)
	readyPod("four-a", "four", "Scaler", "four", four)
	readyPod("four-b", "four", "Scaler", "four", four)
	readyPod("two-a", "two", "Scaler", "two", two)
	readyPod("two-b", "two", "Scaler", "two", two)
	readyPod("plain-a", "plain", "Plain", "p", plain)
	readyPod("ghost-a", "ghost", "Ghost", "g", "11111111-1111-1111-1111-111111111111")

	for _, c := range []struct {
		app                                 string
		expected, desired, healthy, allowed int64
		condReason, condMessage             string
	}{
		{"four", 4, 3, 2, 0, "InsufficientPods", ""},
		{"two", 2, 1, 2, 1, "SufficientPods", ""},
		{"plain", 0, 0, 0, 0, "SyncFailed", "plains.pdb.example.com does not implement the scale subresource"},
		{"ghost", 0, 0, 0, 0, "SyncFailed", `no matches for kind "Ghost" in version "pdb.example.com/v1"`},
	} {
		t.Run("maxUnavailable 1 over "+c.app, func(t *testing.T) {
			e.must(201, "POST", pdbs, "application/json", m{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
				"metadata": m{"name": c.app}, "spec": m{"maxUnavailable": int64(1), "selector": m{"matchLabels": m{"app": c.app}}}})
			e.eventually("budget computed", func() (bool, string) {
				p := e.must(200, "GET", pdbs+"/"+c.app, "", nil)
				st := p["status"]
				b, _ := json.Marshal(st)
				return geti(st, "expectedPods") == c.expected && geti(st, "desiredHealthy") == c.desired &&
					geti(st, "currentHealthy") == c.healthy && geti(st, "disruptionsAllowed") == c.allowed &&
					gets(cond(p, "DisruptionAllowed"), "reason") == c.condReason &&
					gets(cond(p, "DisruptionAllowed"), "message") == c.condMessage, string(b)
			})
		})
	}
	t.Run("eviction spends the custom resource's budget", func(t *testing.T) {
		ev := func(name string) m {
			return m{"apiVersion": "policy/v1", "kind": "Eviction", "metadata": m{"name": name}}
		}
		e.must(201, "POST", pods+"/two-a/eviction", "application/json", ev("two-a"))
		if code, out := e.do("POST", pods+"/two-b/eviction", "application/json", ev("two-b")); code != 429 {
			t.Fatalf("second eviction: %d %v", code, out)
		}
	})
}
