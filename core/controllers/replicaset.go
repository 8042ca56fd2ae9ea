package controllers

import (
	"net/http"
	"sort"
	"time"
)

// The ReplicaSet controller (pkg/controller/replicaset): claim the pods
// that match the selector, create or delete pods to reach spec.replicas,
// and report replicas / fullyLabeledReplicas / readyReplicas /
// availableReplicas / observedGeneration. The status is computed from the
// pods seen before this sync's creations and deletions, as the real one
// does, so watchers see replicas climb over the following syncs.

// claim returns the objects of kind k owned by owner (kind ok), adopting
// matching orphans and releasing owned objects that no longer match, as
// ControllerRefManager.ClaimObject.
func (m *Manager) claim(owner obj, ok kindInfo, k kindInfo, sel obj) []obj {
	ns, id := namespace(owner), uid(owner)
	var out []obj
	for _, s := range m.listKind(k, ns, nil) {
		o := s.o
		ref, has := controllerOf(o)
		match := matchesSelector(sel, strMap(o, "metadata", "labels"))
		switch {
		case has && ref.UID != id:
			continue
		case has && match:
			out = append(out, o)
		case has:
			if !deleting(owner) {
				_ = m.patchOwnerRefsOut(k, o, []string{id}) // release
			}
		case match && !deleting(owner) && !deleting(o):
			p := map[string]any{"metadata": map[string]any{
				"ownerReferences": []any{controllerRef(owner, ok.apiVersion(), ok.Kind)}, "uid": uid(o)}}
			res, err := m.cm.do(m.ctx, http.MethodPatch, k.path(ns, name(o), ""), ctStrategic, p)
			if err == nil && res != nil {
				out = append(out, res)
			}
		}
	}
	byCreation(out)
	return out
}

// podFromTemplate is controller.GetPodFromTemplate: the template's labels,
// annotations, finalizers and spec, generateName "<owner>-", and the
// controller reference.
func podFromTemplate(tmpl obj, owner obj, k kindInfo) obj {
	md := map[string]any{"generateName": name(owner) + "-", "namespace": namespace(owner)}
	tm := child(tmpl, "metadata")
	for _, f := range []string{"labels", "annotations", "finalizers"} {
		if v, ok := tm[f]; ok && v != nil {
			md[f] = copyAny(v)
		}
	}
	md["ownerReferences"] = []any{controllerRef(owner, k.apiVersion(), k.Kind)}
	spec, _ := copyAny(tmpl["spec"]).(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec}
}

func copyAny(v any) any {
	if m, ok := v.(map[string]any); ok {
		return copyObj(m)
	}
	if l, ok := v.([]any); ok {
		out := make([]any, len(l))
		for i, e := range l {
			out[i] = copyAny(e)
		}
		return out
	}
	return v
}

// activePods drops terminal pods and pods being deleted
// (controller.FilterActivePods).
func activePods(pods []obj) []obj {
	var out []obj
	for _, p := range pods {
		ph := str(p, "status", "phase")
		if ph != "Succeeded" && ph != "Failed" && !deleting(p) {
			out = append(out, p)
		}
	}
	return out
}

// podCondition returns the condition of type t.
func podCondition(p obj, t string) obj {
	for _, c := range list(p, "status", "conditions") {
		if cm, ok := c.(map[string]any); ok && str(cm, "type") == t {
			return cm
		}
	}
	return nil
}

func podReady(p obj) bool { return str(podCondition(p, "Ready"), "status") == "True" }

// podAvailable: ready for at least minReady seconds; wait is how long until
// it will be (0 if it is, or never will be without a change).
func (m *Manager) podAvailable(p obj, minReady int64) (bool, time.Duration) {
	if !podReady(p) {
		return false, 0
	}
	if minReady <= 0 {
		return true, 0
	}
	t, err := time.Parse(time.RFC3339, str(podCondition(p, "Ready"), "lastTransitionTime"))
	if err != nil {
		return true, 0
	}
	at := t.Add(time.Duration(minReady) * time.Second)
	if !m.now().Before(at) {
		return true, 0
	}
	return false, at.Sub(m.now()) + 10*time.Millisecond
}

// replicaKind is what differs between the two kinds the ReplicaSet
// controller's code runs for (kube's replication manager is
// replicaset.NewBaseController with adapters): the kind, the selector (a
// ReplicationController's is a label set), the events' component and
// whether status.terminatingReplicas is reported.
type replicaKind struct {
	k           kindInfo
	selector    func(o obj) obj
	component   string
	terminating bool
}

var (
	rsKind = replicaKind{kReplicaSets, func(o obj) obj { return child(o, "spec", "selector") }, "replicaset-controller", true}
	// an empty set selects nothing (labels.SelectorFromSet of an empty set
	// would select everything; validation requires a non-empty one)
	rcKind = replicaKind{kReplicationControllers, func(o obj) obj {
		if sel := child(o, "spec", "selector"); len(sel) > 0 {
			return obj{"matchLabels": sel}
		}
		return nil
	}, "replication-controller", false}
)

func (m *Manager) syncReplicaSet(rs obj) error { return m.syncReplicas(rs, rsKind) }

func (m *Manager) syncReplicationController(rc obj) error { return m.syncReplicas(rc, rcKind) }

func (m *Manager) syncReplicas(rs obj, rk replicaKind) error {
	ns := namespace(rs)
	pods := m.claim(rs, rk.k, kPods, rk.selector(rs))
	active := activePods(pods)
	var manageErr error
	if !deleting(rs) {
		manageErr = m.manageReplicas(rs, rk, active)
	}
	// calculateStatus
	tmplLabels := strMap(rs, "spec", "template", "metadata", "labels")
	minReady := numOr(rs, 0, "spec", "minReadySeconds")
	var full, ready, avail int64
	var wait time.Duration
	for _, p := range active {
		labels := strMap(p, "metadata", "labels")
		fully := true
		for k, v := range tmplLabels {
			if labels[k] != v {
				fully = false
			}
		}
		if fully {
			full++
		}
		if podReady(p) {
			ready++
			ok, w := m.podAvailable(p, minReady)
			if ok {
				avail++
			} else if w > 0 && (wait == 0 || w < wait) {
				wait = w
			}
		}
	}
	var terminating int64
	for _, p := range pods {
		if deleting(p) && !terminal(p) {
			terminating++
		}
	}
	status := map[string]any{"replicas": int64(len(active))}
	setNonZero(status, "fullyLabeledReplicas", full)
	// DeploymentReplicaSetTerminatingReplicas (beta, on in v1.37): always
	// set for ReplicaSets; ReplicationControllers have no such field
	if rk.terminating {
		status["terminatingReplicas"] = terminating
	}
	setNonZero(status, "readyReplicas", ready)
	setNonZero(status, "availableReplicas", avail)
	setNonZero(status, "observedGeneration", generation(rs))
	if c := list(rs, "status", "conditions"); len(c) > 0 {
		var keep []any
		for _, x := range c {
			xm, _ := x.(map[string]any)
			if str(xm, "type") != "ReplicaFailure" || manageErr != nil {
				keep = append(keep, x)
			}
		}
		if len(keep) > 0 {
			status["conditions"] = keep
		}
	}
	if wait > 0 {
		m.q.addAfter(m.ctx, rk.k.storeKey(ns, name(rs)), wait)
	}
	if err := m.updateStatus(rk.k, rs, status); err != nil {
		return err
	}
	return manageErr
}

func setNonZero(m map[string]any, k string, v int64) {
	if v != 0 {
		m[k] = v
	}
}

// updateStatus PUTs status to the status subresource unless unchanged,
// and refreshes o from the answer (so a later write carries the new
// resourceVersion).
func (m *Manager) updateStatus(k kindInfo, o obj, status map[string]any) error {
	if sameJSON(o["status"], status) {
		return nil
	}
	n := copyObj(o)
	n["status"] = copyAny(status)
	n["apiVersion"], n["kind"] = k.apiVersion(), k.Kind
	out, err := m.cm.do(m.ctx, http.MethodPut, k.path(namespace(o), name(o), "status"), ctJSON, n)
	if err == nil && out != nil {
		replaceObj(o, out)
	}
	return ignoreNotFound(err)
}

func replaceObj(dst, src obj) {
	for k := range dst {
		delete(dst, k)
	}
	for k, v := range src {
		dst[k] = v
	}
}

// burstReplicas bounds the pods one sync creates or deletes (the real
// controllers' default --concurrent-…-syncs burst).
const burstReplicas = 500

func (m *Manager) manageReplicas(rs obj, rk replicaKind, active []obj) error {
	want := numOr(rs, 1, "spec", "replicas")
	diff := int64(len(active)) - want
	// burstReplicas: at most 500 creations or deletions per sync
	diff = max(min(diff, burstReplicas), -burstReplicas)
	ns := namespace(rs)
	switch {
	case diff < 0:
		for i := diff; i < 0; i++ {
			pod := podFromTemplate(child(rs, "spec", "template"), rs, rk.k)
			out, err := m.cm.do(m.ctx, http.MethodPost, kPods.path(ns, "", ""), ctJSON, pod)
			if err != nil {
				if isCode(err, http.StatusForbidden) { // namespace terminating
					return nil
				}
				m.record(rs, rk.k, rk.component, "Warning", "FailedCreate", "Error creating: "+errMessage(err))
				return err
			}
			m.record(rs, rk.k, rk.component, "Normal", "SuccessfulCreate", "Created pod: "+name(out))
		}
	case diff > 0:
		victims := append([]obj(nil), active...)
		rankForDeletion(victims)
		for _, p := range victims[:diff] {
			_, err := m.cm.do(m.ctx, http.MethodDelete, kPods.path(ns, name(p), ""), ctJSON, map[string]any{})
			if err != nil && !isCode(err, http.StatusNotFound) {
				return err
			}
			if err == nil {
				m.record(rs, rk.k, rk.component, "Normal", "SuccessfulDelete", "Deleted pod: "+name(p))
			}
		}
	}
	return nil
}

// rankForDeletion orders pods as ActivePodsWithRanks prefers to delete
// them: pending before running, not ready before ready, then the newest.
func rankForDeletion(pods []obj) {
	phaseRank := map[string]int{"Pending": 0, "Unknown": 1, "Running": 2}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if pa, pb := phaseRank[str(a, "status", "phase")], phaseRank[str(b, "status", "phase")]; pa != pb {
			return pa < pb
		}
		if ra, rb := podReady(a), podReady(b); ra != rb {
			return !ra
		}
		ca, cb := str(a, "metadata", "creationTimestamp"), str(b, "metadata", "creationTimestamp")
		if ca != cb {
			return ca > cb
		}
		return name(a) > name(b)
	})
}
