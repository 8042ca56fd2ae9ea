package controllers

import (
	"fmt"
	"net/http"
	"time"

	"github.com/kubesandbox/kubesandbox/core/builtin"
)

// The disruption controller (kube-controller-manager's
// pkg/controller/disruption) keeps each PodDisruptionBudget's status, which
// the pods/eviction subresource (core/builtin/eviction.go) reads and
// decrements:
//
//	expectedPods        the pods that should exist: the matching pods for an
//	                    integer minAvailable, else the sum of their
//	                    controllers' spec.replicas
//	desiredHealthy      minAvailable, or expectedPods - maxUnavailable
//	                    (percentages rounded up)
//	currentHealthy      matching Ready pods not being deleted and not
//	                    disrupted less than 2 minutes ago
//	disruptionsAllowed  currentHealthy - desiredHealthy (at least 0; 0
//	                    when no pod is expected)
//	disruptedPods       the evictions not seen through yet (dropped after
//	                    DeletionTimeout, 2 minutes, or when the pod goes)
//	observedGeneration  metadata.generation, with the DisruptionAllowed
//	                    condition (SufficientPods / InsufficientPods)
//
// A budget that cannot be computed (a percentage over pods without a
// controller, a controller that is gone) gets disruptionsAllowed 0 and the
// condition False with reason SyncFailed and the error, as failSafe does.
// Its status is written with PUT …/status as kube-controller-manager.
// Example: minAvailable 2 over a Deployment's 3 Ready pods → expectedPods
// 3, desiredHealthy 2, currentHealthy 3, disruptionsAllowed 1.

var kPDBs = kindInfo{"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true}

// deletionTimeout is DeletionTimeout.
const deletionTimeout = 2 * time.Minute

// pdbsForPod queues the budgets of ns that select a written pod.
func (m *Manager) pdbsForPod(ns string, pods ...obj) {
	var labels []map[string]string
	for _, p := range pods {
		if p != nil {
			labels = append(labels, strMap(p, "metadata", "labels"))
		}
	}
	for _, s := range m.listKind(kPDBs, ns, nil) {
		for _, l := range labels {
			if matchesSelector(child(s.o, "spec", "selector"), l) {
				m.q.add(s.key)
				break
			}
		}
	}
}

// syncPDB is trySync (and failSafe when it cannot compute).
func (m *Manager) syncPDB(key string, pdb obj) error {
	if deleting(pdb) {
		return nil
	}
	ns := namespace(pdb)
	var pods []obj
	for _, s := range m.listKind(kPods, ns, nil) {
		if matchesSelector(child(pdb, "spec", "selector"), strMap(s.o, "metadata", "labels")) {
			pods = append(pods, s.o)
		}
	}
	expected, desired, err := m.expectedPodCount(pdb, pods)
	if err != nil {
		return m.pdbFailSafe(pdb, err)
	}
	now := m.now()
	disrupted := map[string]any{}
	var recheck time.Time
	for _, p := range pods {
		if deleting(p) {
			continue
		}
		at, ok := str(pdb, "status", "disruptedPods", name(p)), false
		t, err := time.Parse(time.RFC3339, at)
		ok = err == nil
		if !ok || t.Add(deletionTimeout).Before(now) {
			continue
		}
		disrupted[name(p)] = at
		if exp := t.Add(deletionTimeout); recheck.IsZero() || exp.Before(recheck) {
			recheck = exp
		}
	}
	var healthy int64
	for _, p := range pods {
		if deleting(p) || disrupted[name(p)] != nil || !podReady(p) {
			continue
		}
		healthy++
	}
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := map[string]any{
		"currentHealthy": healthy, "desiredHealthy": desired, "expectedPods": expected,
		"disruptionsAllowed": allowed, "observedGeneration": generation(pdb),
	}
	if len(disrupted) > 0 {
		st["disruptedPods"] = disrupted
	}
	if c := list(pdb, "status", "conditions"); c != nil {
		st["conditions"] = c
	}
	next := copyObj(pdb)
	next["status"] = st
	builtin.SetDisruptionAllowedCondition(next, m.timestamp())
	if !recheck.IsZero() {
		m.requeueAt(key, recheck)
	}
	if sameJSON(next["status"], pdb["status"]) {
		return nil
	}
	_, err = m.cm.do(m.ctx, http.MethodPut, kPDBs.path(ns, name(pdb), "status"), ctJSON, next)
	return ignoreGone(err)
}

// ignoreGone: the budget went meanwhile.
func ignoreGone(err error) error {
	if isCode(err, http.StatusNotFound) {
		return nil
	}
	return err
}

// pdbFailSafe: no disruption allowed, the condition says why.
func (m *Manager) pdbFailSafe(pdb obj, cause error) error {
	next := copyObj(pdb)
	st := ensure(next, "status")
	st["disruptionsAllowed"] = int64(0)
	gen := numOr(pdb, 0, "status", "observedGeneration")
	c := map[string]any{"type": "DisruptionAllowed", "status": "False", "reason": "SyncFailed",
		"message": cause.Error(), "observedGeneration": gen, "lastTransitionTime": m.timestamp()}
	if gen == 0 {
		delete(c, "observedGeneration") // omitempty
	}
	conds := list(next, "status", "conditions")
	replaced := false
	for i, old := range conds {
		om, _ := old.(map[string]any)
		if str(om, "type") != "DisruptionAllowed" {
			continue
		}
		if str(om, "status") == "False" {
			c["lastTransitionTime"] = om["lastTransitionTime"]
		}
		conds[i], replaced = c, true
	}
	if !replaced {
		conds = append(conds, c)
	}
	st["conditions"] = conds
	if sameJSON(next["status"], pdb["status"]) {
		return nil
	}
	_, err := m.cm.do(m.ctx, http.MethodPut, kPDBs.path(namespace(pdb), name(pdb), "status"), ctJSON, next)
	return ignoreGone(err)
}

// expectedPodCount is getExpectedPodCount.
func (m *Manager) expectedPodCount(pdb obj, pods []obj) (expected, desired int64, err error) {
	spec := child(pdb, "spec")
	if mu, ok := spec["maxUnavailable"]; ok && mu != nil {
		if expected, err = m.expectedScale(pods); err != nil {
			return 0, 0, err
		}
		return expected, max(expected-scaledValue(mu, expected, true), 0), nil
	}
	ma, ok := spec["minAvailable"]
	if !ok || ma == nil {
		return 0, 0, nil
	}
	if _, isStr := ma.(string); !isStr {
		n, _ := num(spec, "minAvailable")
		return int64(len(pods)), n, nil
	}
	if expected, err = m.expectedScale(pods); err != nil {
		return 0, 0, err
	}
	return expected, scaledValue(ma, expected, true), nil
}

// expectedScale sums the spec.replicas of the pods' controllers, found as
// kube's finders find them (getExpectedScale): a ReplicaSet's Deployment,
// a ReplicaSet, StatefulSet or ReplicationController from the store, and
// anything else — a custom resource's controller, a Job — through its
// /scale subresource (getScaleController). A controller that is gone, or
// whose uid differs, is "found no controllers for pod"; a kind no API
// serves and one without /scale are errors of their own, as in kube:
//
//	no matches for kind "Widget" in version "example.com/v1"
//	jobs.batch does not implement the scale subresource
func (m *Manager) expectedScale(pods []obj) (int64, error) {
	seen := map[string]int64{}
	for _, p := range pods {
		ref, ok := controllerOf(p)
		if !ok {
			continue // unmanaged: an event on a cluster, nothing more
		}
		if _, ok := seen[ref.UID]; ok {
			continue
		}
		uid, n, err := m.controllerScale(namespace(p), ref)
		if err != nil {
			return 0, err
		}
		if uid == "" {
			return 0, fmt.Errorf("found no controllers for pod %q", name(p))
		}
		seen[uid] = n
	}
	var n int64
	for _, v := range seen {
		n += v
	}
	return n, nil
}

// controllerScale is the uid and scale of the controller ref names ("" if
// none is found).
func (m *Manager) controllerScale(ns string, ref ownerRef) (string, int64, error) {
	switch ref.group() + "/" + ref.Kind {
	case "apps/ReplicaSet", "apps/StatefulSet", "/ReplicationController":
		if owner := m.controllerObject(ns, ref); owner != nil {
			if r, ok := controllerOf(owner); ok && ref.Kind == "ReplicaSet" && r.Kind == "Deployment" {
				if d := m.controllerObject(ns, r); d != nil {
					return r.UID, numOr(d, 1, "spec", "replicas"), nil
				}
				break // a ReplicaSet whose Deployment is gone: its scale
			}
			return ref.UID, numOr(owner, 1, "spec", "replicas"), nil
		}
		return "", 0, nil
	}
	return m.scaleOf(ns, ref)
}

// scaleOf reads the /scale of the object ref names.
func (m *Manager) scaleOf(ns string, ref ownerRef) (string, int64, error) {
	k, ok := m.kindFor(ref.group(), ref.Kind)
	if !ok {
		return "", 0, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, ref.APIVersion)
	}
	k.Version = ref.version()
	sc, err := m.cm.do(m.ctx, http.MethodGet, k.path(ns, ref.Name, "scale"), "", nil)
	if isCode(err, http.StatusNotFound) {
		if !m.servesScale(k) {
			gr := k.Plural
			if k.Group != "" {
				gr += "." + k.Group
			}
			return "", 0, fmt.Errorf("%s does not implement the scale subresource", gr)
		}
		return "", 0, nil
	}
	if err != nil {
		return "", 0, err
	}
	if uid(sc) != ref.UID {
		return "", 0, nil
	}
	return ref.UID, numOr(sc, 0, "spec", "replicas"), nil
}

// servesScale tells from discovery whether k has a /scale subresource.
func (m *Manager) servesScale(k kindInfo) bool {
	path := "/apis/" + k.Group + "/" + k.Version
	if k.Group == "" {
		path = "/api/" + k.Version
	}
	rl, err := m.cm.do(m.ctx, http.MethodGet, path, "", nil)
	if err != nil {
		return false
	}
	for _, r := range list(rl, "resources") {
		if rm, _ := r.(map[string]any); str(rm, "name") == k.Plural+"/scale" {
			return true
		}
	}
	return false
}

// controllerObject is the stored object ref names (same uid), or nil.
func (m *Manager) controllerObject(ns string, ref ownerRef) obj {
	k, ok := builtinKinds()[ref.group()+"/"+ref.Kind]
	if !ok {
		return nil
	}
	o := m.get(k, ns, ref.Name)
	if o == nil || uid(o) != ref.UID {
		return nil
	}
	return o
}
