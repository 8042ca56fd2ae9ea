package controllers

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// The scheduler (only with Options.Nodes > 0), as kube-scheduler v1.37.2's
// default profile decides for the cases a learner meets: a Pod with
// schedulerName default-scheduler, no spec.nodeName and no scheduling
// gates is filtered against every Node by, in the default plugin order,
//
//	NodeUnschedulable  spec.unschedulable (cordon)        "node(s) were unschedulable"
//	TaintToleration    NoSchedule/NoExecute taints        "node(s) had untolerated taint(s)"
//	NodeAffinity       nodeSelector, required affinity    "node(s) didn't match Pod's node affinity/selector"
//	NodeResourcesFit   pods count, cpu/memory/ephemeral-storage requests
//	                   against allocatable minus the requests of the
//	                   Pods bound there                   "Too many pods", "Insufficient cpu", ...
//
// and bound (POST …/binding as kube-scheduler) to the feasible Node with
// the least requested share of cpu and memory (NodeResourcesFit's
// LeastAllocated score; ties go to the Node with fewer Pods, then by
// name), with a Scheduled event from default-scheduler. A Pod no Node
// takes stays Pending with PodScheduled=False (reason Unschedulable,
// written as kube-scheduler to pods/status) and a FailedScheduling event
// whose message is FitError.Error() with the DefaultPreemption post-filter
// message (no Pod has a lower priority, so no victim is ever found):
//
//	0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.
//
// It is tried again whenever a Node or another Pod changes; the same
// message is not recorded again (kube-scheduler's queueing hints would
// not retry it on the many status writes of other Pods either).
// Its events are core/v1 Events with source default-scheduler (the real
// one writes events.k8s.io/v1 Events; both APIs serve the same stored
// Events, so `kubectl describe` shows them either way).

const (
	schedulerName = "default-scheduler"
	schedulerUA   = "kube-scheduler/v1.37.2 (linux/amd64) kubernetes/kubesandbox"
)

// a filter's verdict on one node: reasons, and whether preemption could
// help (Unschedulable) or not (UnschedulableAndUnresolvable).
type verdict struct {
	reasons    []string
	resolvable bool
}

// nodeLoad is what is bound to a node.
type nodeLoad struct {
	pods                 int64
	cpu, memory, storage int64 // requested (milli-cpu, bytes, bytes)
}

func (m *Manager) schedulable(p obj) bool {
	return m.opts.Nodes > 0 && str(p, "spec", "nodeName") == "" && !deleting(p) && !terminal(p) &&
		str(p, "spec", "schedulerName") == schedulerName && len(list(p, "spec", "schedulingGates")) == 0
}

// schedule binds p or reports why it cannot be.
func (m *Manager) schedule(p obj) error {
	nodes := m.listKind(kNodes, "", nil)
	loads := m.nodeLoads()
	req := podRequests(p)
	type cand struct {
		n     obj
		score float64
	}
	var feasible []cand
	failed := map[string]verdict{}
	for _, s := range nodes {
		n := s.o
		v := filterNode(p, n, loads[name(n)], req)
		if len(v.reasons) > 0 {
			failed[name(n)] = v
			continue
		}
		feasible = append(feasible, cand{n, leastAllocated(n, loads[name(n)], req)})
	}
	key := kPods.storeKey(namespace(p), name(p))
	if len(nodes) == 0 {
		m.unscheduled[key] = true
		return m.unschedulable(p, "no nodes available to schedule pods") // ErrNoNodesAvailable
	}
	if len(feasible) == 0 {
		m.unscheduled[key] = true
		return m.unschedulable(p, fitError(len(nodes), failed))
	}
	delete(m.unscheduled, key)
	sort.SliceStable(feasible, func(i, j int) bool {
		a, b := feasible[i], feasible[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if la, lb := loads[name(a.n)].pods, loads[name(b.n)].pods; la != lb {
			return la < lb
		}
		return name(a.n) < name(b.n)
	})
	node := name(feasible[0].n)
	binding := obj{"apiVersion": "v1", "kind": "Binding",
		"metadata": map[string]any{"name": name(p), "namespace": namespace(p), "uid": uid(p)},
		"target":   map[string]any{"kind": "Node", "name": node}}
	_, err := m.scheduler.do(m.ctx, http.MethodPost, kPods.path(namespace(p), name(p), "binding"), ctJSON, binding)
	if isCode(err, http.StatusConflict) {
		return nil // bound or changed meanwhile: its next event says what it is now
	}
	if err != nil {
		return ignoreNotFound(err)
	}
	m.recordAs(m.scheduler, p, kPods, schedulerName, "", "", "Normal", "Scheduled",
		fmt.Sprintf("Successfully assigned %s/%s to %s", namespace(p), name(p), node))
	return nil
}

// unschedulable writes PodScheduled=False and a FailedScheduling event
// (once per distinct message: the recorder aggregates the repeats).
func (m *Manager) unschedulable(p obj, msg string) error {
	for _, c := range list(p, "status", "conditions") {
		if cm, _ := c.(map[string]any); str(cm, "type") == "PodScheduled" && str(cm, "reason") == "Unschedulable" && str(cm, "message") == msg {
			return nil
		}
	}
	m.recordAs(m.scheduler, p, kPods, schedulerName, "", "", "Warning", "FailedScheduling", msg)
	cond := map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": msg,
		"lastProbeTime": nil, "lastTransitionTime": m.timestamp()}
	if gen := generation(p); gen > 0 {
		cond["observedGeneration"] = gen
	}
	patch := obj{"status": obj{"$setElementOrder/conditions": []any{map[string]any{"type": "PodScheduled"}},
		"conditions": []any{cond}}}
	_, err := m.scheduler.do(m.ctx, http.MethodPatch, kPods.path(namespace(p), name(p), "status"), ctStrategic, patch)
	return ignoreNotFound(err)
}

// fitError is FitError.Error() followed by DefaultPreemption's message.
func fitError(all int, failed map[string]verdict) string {
	hist := func(count map[string]int) string {
		var parts []string
		for r, n := range count {
			parts = append(parts, fmt.Sprintf("%d %s", n, r))
		}
		sort.Strings(parts)
		return strings.Join(parts, ", ")
	}
	reasons, preempt := map[string]int{}, map[string]int{}
	for _, v := range failed {
		for _, r := range v.reasons {
			reasons[r]++
		}
		if v.resolvable {
			preempt["No preemption victims found for incoming pod"]++
		}
	}
	if n := all - sumCounts(preempt); n > 0 {
		preempt["Preemption is not helpful for scheduling"] += n
	}
	msg := fmt.Sprintf("0/%d nodes are available:", all)
	if len(reasons) > 0 {
		msg += " " + hist(reasons) + "."
	}
	return msg + fmt.Sprintf(" preemption: 0/%d nodes are available: %s.", all, hist(preempt))
}

func sumCounts(c map[string]int) int {
	t := 0
	for _, n := range c {
		t += n
	}
	return t
}

// filterNode runs the filters in the default profile's order; the first
// that rejects the node decides.
func filterNode(p, n obj, load nodeLoad, req nodeLoad) verdict {
	tols := list(p, "spec", "tolerations")
	if boolean(n, "spec", "unschedulable") &&
		!tolerates(tols, map[string]any{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}) {
		return verdict{reasons: []string{"node(s) were unschedulable"}}
	}
	for _, t := range list(n, "spec", "taints") {
		tm, _ := t.(map[string]any)
		if e := str(tm, "effect"); (e == "NoSchedule" || e == "NoExecute") && !tolerates(tols, tm) {
			return verdict{reasons: []string{"node(s) had untolerated taint(s)"}}
		}
	}
	if !nodeAffinityMatches(p, n) {
		return verdict{reasons: []string{"node(s) didn't match Pod's node affinity/selector"}}
	}
	return fits(req, load, n)
}

// fits is NodeResourcesFit's Filter.
func fits(req, load nodeLoad, n obj) verdict {
	alloc := allocatable(n)
	var v verdict
	unresolvable := false
	if load.pods+1 > alloc.pods {
		v.reasons = append(v.reasons, "Too many pods")
	}
	check := func(want, used, have int64, reason string) {
		if want > 0 && want > have-used {
			v.reasons = append(v.reasons, reason)
			unresolvable = unresolvable || want > have
		}
	}
	check(req.cpu, load.cpu, alloc.cpu, "Insufficient cpu")
	check(req.memory, load.memory, alloc.memory, "Insufficient memory")
	check(req.storage, load.storage, alloc.storage, "Insufficient ephemeral-storage")
	v.resolvable = len(v.reasons) > 0 && !unresolvable
	return v
}

// leastAllocated is the LeastAllocated score (cpu and memory, equal
// weights), 0–100.
func leastAllocated(n obj, load, req nodeLoad) float64 {
	a := allocatable(n)
	score := func(used, have int64) float64 {
		if have <= 0 || used > have {
			return 0
		}
		return float64(have-used) * 100 / float64(have)
	}
	return (score(load.cpu+req.cpu, a.cpu) + score(load.memory+req.memory, a.memory)) / 2
}

func allocatable(n obj) nodeLoad {
	q := func(k string, scale int) int64 {
		v, ok := common.ParseQuantity(child(n, "status", "allocatable")[k])
		if !ok {
			return 0
		}
		return v.ScaledValue(scale)
	}
	return nodeLoad{pods: q("pods", 0), cpu: q("cpu", -3), memory: q("memory", 0), storage: q("ephemeral-storage", 0)}
}

// podRequests is the Pod's effective request: the sum over its containers,
// or the largest init container's if that is more, plus overhead.
func podRequests(p obj) nodeLoad {
	get := func(c obj, k string, scale int) int64 {
		v, ok := common.ParseQuantity(child(c, "resources", "requests")[k])
		if !ok {
			return 0
		}
		return v.ScaledValue(scale)
	}
	var r, init nodeLoad
	for _, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		r.cpu += get(cm, "cpu", -3)
		r.memory += get(cm, "memory", 0)
		r.storage += get(cm, "ephemeral-storage", 0)
	}
	for _, c := range list(p, "spec", "initContainers") {
		cm, _ := c.(map[string]any)
		init.cpu = max(init.cpu, get(cm, "cpu", -3))
		init.memory = max(init.memory, get(cm, "memory", 0))
		init.storage = max(init.storage, get(cm, "ephemeral-storage", 0))
	}
	r.cpu, r.memory, r.storage = max(r.cpu, init.cpu), max(r.memory, init.memory), max(r.storage, init.storage)
	if oh := child(p, "spec"); oh != nil {
		if o := child(oh, "overhead"); o != nil {
			wrap := obj{"resources": obj{"requests": o}}
			r.cpu += get(wrap, "cpu", -3)
			r.memory += get(wrap, "memory", 0)
		}
	}
	return r
}

// nodeLoads sums the Pods bound to each node (finished ones free their
// share, as the scheduler's cache drops them).
func (m *Manager) nodeLoads() map[string]nodeLoad {
	out := map[string]nodeLoad{}
	for _, s := range m.listKind(kPods, "", []byte(`"nodeName"`)) {
		n := str(s.o, "spec", "nodeName")
		if n == "" || terminal(s.o) {
			continue
		}
		l, r := out[n], podRequests(s.o)
		l.pods++
		l.cpu += r.cpu
		l.memory += r.memory
		l.storage += r.storage
		out[n] = l
	}
	return out
}

// tolerates is v1.Toleration.ToleratesTaint for any of tols.
func tolerates(tols []any, taint obj) bool {
	for _, t := range tols {
		tm, _ := t.(map[string]any)
		if e := str(tm, "effect"); e != "" && e != str(taint, "effect") {
			continue
		}
		key, op := str(tm, "key"), str(tm, "operator")
		if key != "" && key != str(taint, "key") {
			continue
		}
		switch op {
		case "Exists":
			return true
		case "", "Equal":
			if str(tm, "value") == str(taint, "value") {
				return true
			}
		}
	}
	return false
}

// nodeAffinityMatches: spec.nodeSelector and the required node affinity
// (nodeSelectorTerms are ORed, their requirements ANDed).
func nodeAffinityMatches(p, n obj) bool {
	labels := strMap(n, "metadata", "labels")
	for k, v := range strMap(p, "spec", "nodeSelector") {
		if labels[k] != v {
			return false
		}
	}
	req := child(p, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	if req == nil {
		return true
	}
	for _, t := range list(req, "nodeSelectorTerms") {
		tm, _ := t.(map[string]any)
		if termMatches(tm, labels, name(n)) {
			return true
		}
	}
	return false
}

func termMatches(t obj, labels map[string]string, nodeName string) bool {
	exprs, fields := list(t, "matchExpressions"), list(t, "matchFields")
	if len(exprs) == 0 && len(fields) == 0 {
		return false
	}
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		if !requirementMatches(em, labels) {
			return false
		}
	}
	for _, e := range fields {
		em, _ := e.(map[string]any)
		if str(em, "key") != "metadata.name" || !requirementMatches(em, map[string]string{"metadata.name": nodeName}) {
			return false
		}
	}
	return true
}

func requirementMatches(e obj, labels map[string]string) bool {
	key, op := str(e, "key"), str(e, "operator")
	val, has := labels[key]
	var vals []string
	for _, v := range list(e, "values") {
		if s, ok := v.(string); ok {
			vals = append(vals, s)
		}
	}
	in := false
	for _, v := range vals {
		in = in || v == val
	}
	switch op {
	case "In":
		return has && in
	case "NotIn":
		return !has || !in
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "Gt", "Lt":
		if !has || len(vals) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(val, 10, 64)
		b, err2 := strconv.ParseInt(vals[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return (op == "Gt" && a > b) || (op == "Lt" && a < b)
	}
	return false
}

// requeueUnscheduled tries the waiting Pods again (a Node or a bound Pod
// changed).
func (m *Manager) requeueUnscheduled() {
	for k := range m.unscheduled {
		if _, _, err := m.st.Get(k, 0); err != nil {
			delete(m.unscheduled, k) // deleted while it waited
			continue
		}
		m.q.add(k)
	}
}
