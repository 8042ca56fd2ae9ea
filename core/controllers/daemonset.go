package controllers

import (
	"net/http"
	"strconv"
)

// The DaemonSet controller: one Pod per eligible Node. A Node is eligible
// when the template's nodeSelector and required node affinity match it and
// the Pod tolerates its NoSchedule and NoExecute taints — with the
// tolerations the controller adds to every daemon Pod
// (AddOrUpdateDaemonPodTolerations: node.kubernetes.io/not-ready and
// unreachable NoExecute; disk-pressure, memory-pressure, pid-pressure and
// unschedulable NoSchedule; network-unavailable NoSchedule with
// hostNetwork). The default cluster's control plane is tainted
// node-role.kubernetes.io/control-plane:NoSchedule, so a DaemonSet without
// that toleration runs on the workers only, as on kind.
//
// Each Pod is pinned to its Node with required node affinity on
// metadata.name (ReplaceDaemonSetPodNodeNameNodeAffinity) and bound by the
// scheduler; it carries the labels controller-revision-hash and
// pod-template-generation. A RollingUpdate replaces Pods of an older
// template one at a time (maxUnavailable 1, the default). Each template
// is kept as a ControllerRevision (history.go) whose hash label the Pods
// carry. Status: desiredNumberScheduled,
// currentNumberScheduled, numberMisscheduled, numberReady, numberAvailable,
// updatedNumberScheduled, numberUnavailable (left out when 0).

const daemonSetController = "daemonset-controller"

func daemonTolerations(hostNetwork bool) []any {
	t := func(key, effect string) any {
		return map[string]any{"key": key, "operator": "Exists", "effect": effect}
	}
	out := []any{t("node.kubernetes.io/not-ready", "NoExecute"), t("node.kubernetes.io/unreachable", "NoExecute"),
		t("node.kubernetes.io/disk-pressure", "NoSchedule"), t("node.kubernetes.io/memory-pressure", "NoSchedule"),
		t("node.kubernetes.io/pid-pressure", "NoSchedule"), t("node.kubernetes.io/unschedulable", "NoSchedule")}
	if hostNetwork {
		out = append(out, t("node.kubernetes.io/network-unavailable", "NoSchedule"))
	}
	return out
}

// daemonTemplate is CreatePodTemplate: tolerations added, labels set.
func daemonTemplate(ds obj, hash string) obj {
	tmpl := copyObj(child(ds, "spec", "template"))
	if tmpl == nil {
		tmpl = obj{}
	}
	spec := ensure(tmpl, "spec")
	tols := list(spec, "tolerations")
	for _, t := range daemonTolerations(boolean(spec, "hostNetwork")) {
		tm := t.(map[string]any)
		have := false
		for _, x := range tols {
			xm, _ := x.(map[string]any)
			have = have || (str(xm, "key") == str(tm, "key") && str(xm, "effect") == str(tm, "effect"))
		}
		if !have {
			tols = append(tols, tm)
		}
	}
	spec["tolerations"] = tols
	labels := ensure(tmpl, "metadata", "labels")
	labels["controller-revision-hash"] = hash
	labels["pod-template-generation"] = strconv.FormatInt(generation(ds), 10)
	return tmpl
}

// shouldRun is NodeShouldRunDaemonPod's predicates.
func shouldRun(tmpl, node obj) bool {
	if !nodeAffinityMatches(tmpl, node) {
		return false
	}
	tols := list(tmpl, "spec", "tolerations")
	for _, t := range list(node, "spec", "taints") {
		tm, _ := t.(map[string]any)
		if e := str(tm, "effect"); (e == "NoSchedule" || e == "NoExecute") && !tolerates(tols, tm) {
			return false
		}
	}
	return true
}

// daemonPodNode is the Node a daemon Pod is for: its nodeName, else its
// metadata.name affinity.
func daemonPodNode(p obj) string {
	if n := str(p, "spec", "nodeName"); n != "" {
		return n
	}
	req := child(p, "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	for _, t := range list(req, "nodeSelectorTerms") {
		tm, _ := t.(map[string]any)
		for _, f := range list(tm, "matchFields") {
			fm, _ := f.(map[string]any)
			if vals := list(fm, "values"); str(fm, "key") == "metadata.name" && len(vals) == 1 {
				s, _ := vals[0].(string)
				return s
			}
		}
	}
	return ""
}

func (m *Manager) syncDaemonSet(ds obj) error {
	if deleting(ds) {
		return nil
	}
	claimed := m.claim(ds, kDaemonSets, kPods, child(ds, "spec", "selector"))
	cur, old, err := m.daemonRevisions(ds, claimed) // history.go
	if err != nil {
		return err
	}
	hash := str(cur, "metadata", "labels", labelControllerHash)
	tmpl := daemonTemplate(ds, hash)
	pods := activePods(claimed)
	byNode := map[string][]obj{}
	for _, p := range pods {
		n := daemonPodNode(p)
		byNode[n] = append(byNode[n], p)
	}
	var desired, current, misscheduled, ready, updated int64
	unavailable := int64(0)
	var create []string
	var remove []obj
	for _, s := range m.listKind(kNodes, "", nil) {
		node := name(s.o)
		want := shouldRun(tmpl, s.o)
		have := byNode[node]
		delete(byNode, node)
		if !want {
			misscheduled += int64(len(have))
			remove = append(remove, have...)
			continue
		}
		desired++
		if len(have) == 0 {
			create = append(create, node)
			unavailable++
			continue
		}
		current++
		p := have[0]
		remove = append(remove, have[1:]...)
		if podReady(p) {
			ready++
		} else {
			unavailable++
		}
		if str(p, "metadata", "labels", "controller-revision-hash") == hash {
			updated++
		}
	}
	for _, orphans := range byNode { // Pods for Nodes that are gone
		remove = append(remove, orphans...)
	}
	if err := m.manageDaemonPods(ds, tmpl, create, remove); err != nil {
		return err
	}
	if err := m.rollDaemonSet(ds, pods, hash, unavailable); err != nil {
		return err
	}
	if err := m.cleanupDaemonHistory(ds, claimed, old); err != nil {
		return err
	}
	st := obj{"currentNumberScheduled": current, "numberMisscheduled": misscheduled,
		"desiredNumberScheduled": desired, "numberReady": ready}
	setNonZero(st, "observedGeneration", generation(ds))
	setNonZero(st, "updatedNumberScheduled", updated)
	setNonZero(st, "numberAvailable", ready)
	setNonZero(st, "numberUnavailable", desired-ready)
	if c, ok := num(ds, "status", "collisionCount"); ok {
		st["collisionCount"] = c
	}
	if c := list(ds, "status", "conditions"); len(c) > 0 {
		st["conditions"] = c
	}
	return m.updateStatus(kDaemonSets, ds, st)
}

func (m *Manager) manageDaemonPods(ds, tmpl obj, create []string, remove []obj) error {
	ns := namespace(ds)
	for _, node := range create {
		pod := podFromTemplate(tmpl, ds, kDaemonSets)
		spec := ensure(pod, "spec")
		aff := ensure(spec, "affinity", "nodeAffinity")
		aff["requiredDuringSchedulingIgnoredDuringExecution"] = map[string]any{"nodeSelectorTerms": []any{
			map[string]any{"matchFields": []any{map[string]any{"key": "metadata.name", "operator": "In", "values": []any{node}}}}}}
		out, err := m.cm.do(m.ctx, http.MethodPost, kPods.path(ns, "", ""), ctJSON, pod)
		if err != nil {
			if isCode(err, http.StatusForbidden) {
				return nil
			}
			m.record(ds, kDaemonSets, daemonSetController, "Warning", "FailedCreate", "Error creating: "+errMessage(err))
			return err
		}
		m.record(ds, kDaemonSets, daemonSetController, "Normal", "SuccessfulCreate", "Created pod: "+name(out))
	}
	for _, p := range remove {
		if err := m.deleteDaemonPod(ds, p); err != nil {
			return err
		}
	}
	return nil
}

func (m *Manager) deleteDaemonPod(ds, p obj) error {
	_, err := m.cm.do(m.ctx, http.MethodDelete, kPods.path(namespace(p), name(p), ""), ctJSON, map[string]any{})
	if err == nil {
		m.record(ds, kDaemonSets, daemonSetController, "Normal", "SuccessfulDelete", "Deleted pod: "+name(p))
	}
	return ignoreNotFound(err)
}

// rollDaemonSet: RollingUpdate deletes one Pod of an older template when
// none is unavailable (maxUnavailable 1); the next sync creates its
// replacement.
func (m *Manager) rollDaemonSet(ds obj, pods []obj, hash string, unavailable int64) error {
	if str(ds, "spec", "updateStrategy", "type") == "OnDelete" || unavailable > 0 {
		return nil
	}
	for _, p := range pods {
		if str(p, "metadata", "labels", "controller-revision-hash") != hash && !deleting(p) {
			return m.deleteDaemonPod(ds, p)
		}
	}
	return nil
}
