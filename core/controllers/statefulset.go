package controllers

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// The StatefulSet controller, reduced: pods <sts>-0 … <sts>-(n-1) with
// labels controller-revision-hash, statefulset.kubernetes.io/pod-name and
// apps.kubernetes.io/pod-index, hostname and subdomain; OrderedReady
// creates one pod at a time (each waits for the previous to be Ready —
// immediate here) and scales down from the highest ordinal; Parallel does
// all at once. RollingUpdate replaces pods of an older revision from the
// highest ordinal down. Each template is kept as a ControllerRevision
// (history.go) whose name the Pods carry.

const statefulSetController = "statefulset-controller"

func (m *Manager) syncStatefulSet(s obj) error {
	sname := name(s)
	// the StatefulSet controller hashes with a collision count always set
	// (0 before its first status write), unlike the Deployment's: a nil
	// one at the first sync named the first Pod's revision apart from all
	// later ones, and the rolling update then replaced that Pod at once
	var collision int64
	if c, ok := num(s, "status", "collisionCount"); ok {
		collision = c
	}
	pods := m.claim(s, kStatefulSets, kPods, child(s, "spec", "selector"))
	revision := sname + "-" + revisionHash(child(s, "spec", "template"), collision)
	currentRev := str(s, "status", "currentRevision")
	var revs []obj
	if !deleting(s) {
		revs = m.ownedRevisions(s, kStatefulSets) // history.go
		cur, upd, c, err := m.statefulRevisions(s, revs, collision)
		if err != nil {
			return err
		}
		revision, currentRev, collision = name(upd), name(cur), c
	}
	byOrdinal := map[int64]obj{}
	for _, p := range pods {
		if i, ok := ordinalOf(sname, name(p)); ok {
			byOrdinal[i] = p
		}
	}
	want := replicas(s)
	start := numOr(s, 0, "spec", "ordinals", "start")
	parallel := str(s, "spec", "podManagementPolicy") == "Parallel"
	if !deleting(s) {
		if err := m.manageStatefulPods(s, byOrdinal, start, want, revision, parallel); err != nil {
			return err
		}
	}
	// status from the pods seen at the start of this sync
	var count, ready, avail, current, updated int64
	for _, p := range pods {
		if deleting(p) || terminal(p) {
			continue
		}
		count++
		if podReady(p) {
			ready++
			if ok, _ := m.podAvailable(p, numOr(s, 0, "spec", "minReadySeconds")); ok {
				avail++
			}
		}
		h := str(p, "metadata", "labels", "controller-revision-hash")
		if h == revision {
			updated++
		}
		if h == currentRev || currentRev == "" {
			current++
		}
	}
	if currentRev == "" || updated == count && count == want {
		currentRev, current = revision, updated
	}
	st := obj{"replicas": count, "availableReplicas": avail, "currentRevision": currentRev,
		"updateRevision": revision, "collisionCount": int64(0)}
	st["collisionCount"] = collision
	setNonZero(st, "observedGeneration", generation(s))
	setNonZero(st, "readyReplicas", ready)
	setNonZero(st, "currentReplicas", current)
	setNonZero(st, "updatedReplicas", updated)
	if c := list(s, "status", "conditions"); len(c) > 0 {
		st["conditions"] = c
	}
	if err := m.updateStatus(kStatefulSets, s, st); err != nil || deleting(s) {
		return err
	}
	return m.truncateStatefulHistory(s, pods, revs, currentRev, revision)
}

func ordinalOf(set, pod string) (int64, bool) {
	rest, ok := strings.CutPrefix(pod, set+"-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	return n, err == nil && n >= 0 && strconv.FormatInt(n, 10) == rest
}

func (m *Manager) manageStatefulPods(s obj, pods map[int64]obj, start, want int64, revision string, parallel bool) error {
	ns, sname := namespace(s), name(s)
	// create the missing ordinals, in order
	created := 0
	for i := start; i < start+want && created < burstReplicas; i++ {
		p := pods[i]
		if p != nil {
			if !parallel && (!podReady(p) || deleting(p)) {
				return nil // OrderedReady waits
			}
			continue
		}
		pod := podFromTemplate(child(s, "spec", "template"), s, kStatefulSets)
		pname := fmt.Sprintf("%s-%d", sname, i)
		md := ensure(pod, "metadata")
		md["name"] = pname
		labels := ensure(md, "labels")
		labels["controller-revision-hash"] = revision
		labels["statefulset.kubernetes.io/pod-name"] = pname
		labels["apps.kubernetes.io/pod-index"] = strconv.FormatInt(i, 10)
		spec := ensure(pod, "spec")
		spec["hostname"] = pname
		if svc := str(s, "spec", "serviceName"); svc != "" {
			spec["subdomain"] = svc
		}
		_, err := m.cm.do(m.ctx, http.MethodPost, kPods.path(ns, "", ""), ctJSON, pod)
		if err != nil {
			if isCode(err, http.StatusForbidden) {
				return nil
			}
			m.record(s, kStatefulSets, statefulSetController, "Warning", "FailedCreate",
				fmt.Sprintf("create Pod %s in StatefulSet %s failed error: %s", pname, sname, errMessage(err)))
			return err
		}
		m.record(s, kStatefulSets, statefulSetController, "Normal", "SuccessfulCreate",
			fmt.Sprintf("create Pod %s in StatefulSet %s successful", pname, sname))
		created++
		if !parallel {
			return nil
		}
	}
	// condemned ordinals, highest first
	var ords []int64
	for i := range pods {
		ords = append(ords, i)
	}
	sort.Slice(ords, func(a, b int) bool { return ords[a] > ords[b] })
	for _, i := range ords {
		p := pods[i]
		if (i >= start && i < start+want) || deleting(p) {
			continue
		}
		if err := m.deleteStatefulPod(s, p); err != nil || !parallel {
			return err
		}
	}
	// rolling update: replace the highest pod of an older revision
	if str(s, "spec", "updateStrategy", "type") == "OnDelete" {
		return nil
	}
	partition := numOr(s, 0, "spec", "updateStrategy", "rollingUpdate", "partition")
	for _, i := range ords {
		p := pods[i]
		if i < start || i >= start+want || i-start < partition || deleting(p) {
			continue
		}
		if str(p, "metadata", "labels", "controller-revision-hash") != revision {
			return m.deleteStatefulPod(s, p)
		}
		if !podReady(p) {
			return nil
		}
	}
	return nil
}

func (m *Manager) deleteStatefulPod(s, p obj) error {
	_, err := m.cm.do(m.ctx, http.MethodDelete, kPods.path(namespace(p), name(p), ""), ctJSON, obj{})
	if err == nil {
		m.record(s, kStatefulSets, statefulSetController, "Normal", "SuccessfulDelete",
			fmt.Sprintf("delete Pod %s in StatefulSet %s successful", name(p), name(s)))
	}
	return ignoreNotFound(err)
}

// revisionHash is the hash of the revision the StatefulSet controller
// writes for template (hashRevisionData of revisionData, history.go), e.g.
// "86d58c858" of the revision "db-86d58c858".
func revisionHash(template obj, collision int64) string {
	return hashRevisionData(revisionData(template), collision)
}
