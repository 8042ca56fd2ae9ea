package controllers_test

import (
	"strings"
	"testing"
)

// taintList prints a Node's taints as key:effect, "+t" where timeAdded is set.
func taintList(n m) string {
	var out []string
	ts, _ := get(n, "spec", "taints").([]any)
	for _, t := range ts {
		tm, _ := t.(map[string]any)
		s := gets(tm, "key") + ":" + gets(tm, "effect")
		if gets(tm, "timeAdded") != "" {
			s += "+t"
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// TestNoScheduleTaintingPass: a Node's NoSchedule taints follow its
// conditions and spec.unschedulable, as kube's node lifecycle controller
// keeps them — for Nodes registered by hand and for the simulated ones.
func TestNoScheduleTaintingPass(t *testing.T) {
	e := startNodes(t, 3)
	e.waitNodesReady(3)
	node := func(name string, taints []any, conds ...m) m {
		n := m{"apiVersion": "v1", "kind": "Node", "metadata": m{"name": name}, "spec": m{}}
		if taints != nil {
			n["spec"] = m{"taints": taints}
		}
		if len(conds) > 0 {
			var cs []any
			for _, c := range conds {
				cs = append(cs, c)
			}
			n["status"] = m{"conditions": cs}
		}
		return n
	}
	cnd := func(typ, status string) m { return m{"type": typ, "status": status} }
	wait := func(name, want string) {
		t.Helper()
		e.eventually(name+" taints "+want, func() (bool, string) {
			got := taintList(e.must(200, "GET", nodesPath+"/"+name, "", nil))
			return got == want, got
		})
	}
	cases := []struct {
		name string
		node m
		want string
	}{
		{"by hand, no conditions: the API server's not-ready taint goes", node("hand-1", nil), ""},
		{"by hand, Ready False: not-ready stays", node("hand-2", nil, cnd("Ready", "False")), "node.kubernetes.io/not-ready:NoSchedule"},
		{"by hand, Ready Unknown and memory pressure", node("hand-3", nil, cnd("Ready", "Unknown"), cnd("MemoryPressure", "True")),
			"node.kubernetes.io/unreachable:NoSchedule+t,node.kubernetes.io/memory-pressure:NoSchedule+t"},
		{"other taints and a NoExecute not-ready are kept", node("hand-4", []any{m{"key": "dedicated", "value": "db", "effect": "NoSchedule"}, m{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}}, cnd("Ready", "True")),
			"dedicated:NoSchedule,node.kubernetes.io/not-ready:NoExecute"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.must(201, "POST", nodesPath, "application/json", c.node)
			wait(gets(c.node, "metadata", "name"), c.want)
		})
	}
	t.Run("cordon and uncordon a simulated Node", func(t *testing.T) {
		e.must(200, "PATCH", nodesPath+"/sandbox-worker", "application/merge-patch+json", m{"spec": m{"unschedulable": true}})
		wait("sandbox-worker", "node.kubernetes.io/unschedulable:NoSchedule+t")
		e.must(200, "PATCH", nodesPath+"/sandbox-worker", "application/merge-patch+json", m{"spec": m{"unschedulable": nil}})
		wait("sandbox-worker", "")
	})
}
