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
