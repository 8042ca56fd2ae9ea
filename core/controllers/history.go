package controllers

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"sort"
	"strconv"
)

// ControllerRevisions: the history the StatefulSet and DaemonSet
// controllers keep of their pod templates (pkg/controller/history,
// statefulset/stateful_set_control.go, daemon/update.go), which `kubectl
// rollout history/undo` reads. One revision per distinct template, named
// "<owner>-<hash>", its data the strategic merge patch that restores the
// template (getPatch):
//
//	{"spec":{"template":{"$patch":"replace","metadata":{…},"spec":{…}}}}
//
// its labels the template's plus the hash label, its annotations the
// owner's, the owner its controller. A rollback to an older template
// re-uses that revision with the next revision number; old revisions
// beyond spec.revisionHistoryLimit that no Pod runs are deleted, oldest
// first. The garbage collector deletes them with their owner.

var kControllerRevisions = kindInfo{"apps", "v1", "controllerrevisions", "ControllerRevision", true}

// Hash labels: the StatefulSet's revisions carry history.ControllerRevisionHashLabel,
// the DaemonSet's (and both kinds' Pods) apps.DefaultDaemonSetUniqueLabelKey.
const (
	labelRevisionHash   = "controller.kubernetes.io/hash"
	labelControllerHash = "controller-revision-hash"
)

// revisionData is getPatch: the template under spec.template with
// "$patch":"replace".
func revisionData(template obj) obj {
	t := copyObj(template)
	if t == nil {
		t = obj{}
	}
	t["$patch"] = "replace"
	return obj{"spec": map[string]any{"template": t}}
}

// hashRevisionData is history.HashControllerRevision: FNV-32 (not 32a) of
// the data as encoding/json writes a map (keys sorted, HTML escaped), then
// the collision count in decimal, through SafeEncodeString.
func hashRevisionData(data obj, collision int64) string {
	b, _ := json.Marshal(data)
	h := fnv.New32()
	h.Write(b)
	h.Write([]byte(strconv.FormatInt(collision, 10)))
	return safeEncodeString(fmt.Sprint(h.Sum32()))
}

// ownedRevisions claims the ControllerRevisions of owner (adopting
// orphans its selector matches), sorted as history.SortControllerRevisions:
// by revision, then creation, then name.
func (m *Manager) ownedRevisions(owner obj, k kindInfo) []obj {
	revs := m.claim(owner, k, kControllerRevisions, child(owner, "spec", "selector"))
	sort.SliceStable(revs, func(i, j int) bool {
		a, b := numOr(revs[i], 0, "revision"), numOr(revs[j], 0, "revision")
		if a != b {
			return a < b
		}
		ca, cb := str(revs[i], "metadata", "creationTimestamp"), str(revs[j], "metadata", "creationTimestamp")
		if ca != cb {
			return ca < cb
		}
		return name(revs[i]) < name(revs[j])
	})
	return revs
}

// newRevisionObj is history.NewControllerRevision with the owner's
// annotations (both controllers copy them).
func newRevisionObj(owner obj, k kindInfo, nm, hashLabel, hash string, data obj, revision int64) obj {
	labels := map[string]any{}
	for key, v := range strMap(owner, "spec", "template", "metadata", "labels") {
		labels[key] = v
	}
	labels[hashLabel] = hash
	md := map[string]any{"name": nm, "namespace": namespace(owner), "labels": labels,
		"ownerReferences": []any{controllerRef(owner, k.apiVersion(), k.Kind)}}
	if a := child(owner, "metadata", "annotations"); len(a) > 0 {
		md["annotations"] = copyObj(a)
	}
	return obj{"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": md,
		"data": data, "revision": revision}
}

func (m *Manager) createRevision(rev obj) (obj, error) {
	return m.cm.do(m.ctx, http.MethodPost, kControllerRevisions.path(namespace(rev), "", ""), ctJSON, rev)
}

func (m *Manager) getRevision(ns, nm string) (obj, error) {
	return m.cm.do(m.ctx, http.MethodGet, kControllerRevisions.path(ns, nm, ""), "", nil)
}

// renumberRevision is history.UpdateControllerRevision: the revision
// written back with a new number.
func (m *Manager) renumberRevision(rev obj, n int64) (obj, error) {
	if numOr(rev, 0, "revision") == n {
		return rev, nil
	}
	c := copyObj(rev)
	c["revision"] = n
	c["apiVersion"], c["kind"] = "apps/v1", "ControllerRevision"
	return m.cm.do(m.ctx, http.MethodPut, kControllerRevisions.path(namespace(rev), name(rev), ""), ctJSON, c)
}

func (m *Manager) deleteRevision(rev obj) error {
	_, err := m.cm.do(m.ctx, http.MethodDelete, kControllerRevisions.path(namespace(rev), name(rev), ""), ctJSON, obj{})
	return ignoreNotFound(err)
}

// historyLimit is spec.revisionHistoryLimit (defaulted to 10).
func historyLimit(o obj) int {
	return int(numOr(o, 10, "spec", "revisionHistoryLimit"))
}

// statefulRevisions is getStatefulSetRevisions: the StatefulSet's current
// and update revisions, creating the update revision (bumping the
// collision count on a name taken by other data) or re-numbering an equal
// older one (a rollback).
func (m *Manager) statefulRevisions(s obj, revs []obj, collision int64) (cur, upd obj, _ int64, err error) {
	data := revisionData(child(s, "spec", "template"))
	next := int64(1)
	equal := -1 // the newest revision of equal data
	for i, r := range revs {
		next = numOr(r, 0, "revision") + 1
		if sameJSON(r["data"], data) {
			equal = i
		}
	}
	switch {
	case equal >= 0 && equal == len(revs)-1:
		upd = revs[equal]
	case equal >= 0:
		if upd, err = m.renumberRevision(revs[equal], next); err != nil {
			return nil, nil, collision, err
		}
	default:
		for tries := 0; upd == nil; tries++ {
			hash := hashRevisionData(data, collision)
			rev := newRevisionObj(s, kStatefulSets, name(s)+"-"+hash, labelRevisionHash, hash, data, next)
			upd, err = m.createRevision(rev)
			if isCode(err, http.StatusConflict) && tries < 100 {
				if have, gerr := m.getRevision(namespace(s), name(rev)); gerr != nil {
					return nil, nil, collision, gerr
				} else if sameJSON(have["data"], data) {
					upd, err = have, nil
					break
				}
				collision++
				continue
			}
			if err != nil {
				return nil, nil, collision, err
			}
		}
	}
	for _, r := range revs {
		if name(r) == str(s, "status", "currentRevision") {
			cur = r
		}
	}
	if cur == nil {
		cur = upd
	}
	return cur, upd, collision, nil
}

// truncateStatefulHistory is truncateHistory: the revisions that are
// neither current, update nor a Pod's, beyond the limit, oldest first.
func (m *Manager) truncateStatefulHistory(s obj, pods, revs []obj, live ...string) error {
	isLive := map[string]bool{}
	for _, l := range live {
		isLive[l] = true
	}
	for _, p := range pods {
		isLive[str(p, "metadata", "labels", labelControllerHash)] = true
	}
	var old []obj
	for _, r := range revs {
		if !isLive[name(r)] {
			old = append(old, r)
		}
	}
	limit := historyLimit(s)
	if limit < 0 || len(old) <= limit {
		return nil
	}
	for _, r := range old[:len(old)-limit] {
		if err := m.deleteRevision(r); err != nil {
			return err
		}
	}
	return nil
}

// daemonRevisions is constructHistory: the DaemonSet's revisions split
// into the current one (its data equals the template's patch; created by
// snapshot when none does, duplicates folded into the newest) and the
// old ones; the current one carries the highest revision number. Old
// revisions without the hash label get their name as it.
func (m *Manager) daemonRevisions(ds obj, pods []obj) (cur obj, old []obj, err error) {
	data := revisionData(child(ds, "spec", "template"))
	var curs []obj
	for _, r := range m.ownedRevisions(ds, kDaemonSets) {
		if _, ok := strMap(r, "metadata", "labels")[labelControllerHash]; !ok {
			c := copyObj(r)
			ensure(c, "metadata", "labels")[labelControllerHash] = name(r)
			c["apiVersion"], c["kind"] = "apps/v1", "ControllerRevision"
			if r, err = m.cm.do(m.ctx, http.MethodPut, kControllerRevisions.path(namespace(r), name(r), ""), ctJSON, c); err != nil {
				return nil, nil, err
			}
		}
		if sameJSON(r["data"], data) {
			curs = append(curs, r)
		} else {
			old = append(old, r)
		}
	}
	next := int64(1)
	for _, r := range old {
		next = max(next, numOr(r, 0, "revision")+1)
	}
	if len(curs) == 0 {
		cur, err = m.snapshotDaemonSet(ds, data, next)
		return cur, old, err
	}
	if cur, err = m.dedupDaemonRevisions(ds, pods, curs); err != nil {
		return nil, nil, err
	}
	if numOr(cur, 0, "revision") < next {
		cur, err = m.renumberRevision(cur, next)
	}
	return cur, old, err
}

// snapshotDaemonSet writes the DaemonSet's revision, named by the pod
// template hash (controller.ComputeHash); a name taken by other data bumps
// status.collisionCount and fails this sync (the next one retries).
func (m *Manager) snapshotDaemonSet(ds, data obj, revision int64) (obj, error) {
	var collision *int64
	if c, ok := num(ds, "status", "collisionCount"); ok {
		collision = &c
	}
	hash := computeHash(child(ds, "spec", "template"), collision)
	rev := newRevisionObj(ds, kDaemonSets, name(ds)+"-"+hash, labelControllerHash, hash, data, revision)
	out, err := m.createRevision(rev)
	if !isCode(err, http.StatusConflict) {
		return out, err
	}
	have, gerr := m.getRevision(namespace(ds), name(rev))
	if gerr != nil {
		return nil, gerr
	}
	if sameJSON(have["data"], data) {
		return have, nil
	}
	st := copyObj(child(ds, "status"))
	if st == nil {
		st = obj{}
	}
	st["collisionCount"] = numOr(ds, 0, "status", "collisionCount") + 1
	if uerr := m.updateStatus(kDaemonSets, ds, st); uerr != nil {
		return nil, uerr
	}
	return nil, err
}

// dedupDaemonRevisions is dedupCurHistories: the newest of several equal
// revisions is kept, the Pods of the others relabelled to it.
func (m *Manager) dedupDaemonRevisions(ds obj, pods, curs []obj) (obj, error) {
	keep := curs[0]
	for _, r := range curs[1:] {
		if numOr(r, 0, "revision") >= numOr(keep, 0, "revision") {
			keep = r
		}
	}
	if len(curs) == 1 {
		return keep, nil
	}
	hash := str(keep, "metadata", "labels", labelControllerHash)
	for _, p := range pods {
		if str(p, "metadata", "labels", labelControllerHash) != hash {
			patch := obj{"metadata": map[string]any{"labels": map[string]any{labelControllerHash: hash}}}
			if _, err := m.cm.do(m.ctx, http.MethodPatch, kPods.path(namespace(p), name(p), ""), ctMerge, patch); err != nil {
				return nil, err
			}
		}
	}
	for _, r := range curs {
		if name(r) != name(keep) {
			if err := m.deleteRevision(r); err != nil {
				return nil, err
			}
		}
	}
	return keep, nil
}

// cleanupDaemonHistory is cleanupHistory: old revisions beyond the limit
// whose hash no Pod carries, oldest first.
func (m *Manager) cleanupDaemonHistory(ds obj, pods, old []obj) error {
	toKill := len(old) - historyLimit(ds)
	if toKill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, p := range pods {
		if h := str(p, "metadata", "labels", labelControllerHash); h != "" {
			live[h] = true
		}
	}
	sort.SliceStable(old, func(i, j int) bool { return numOr(old[i], 0, "revision") < numOr(old[j], 0, "revision") })
	for _, r := range old {
		if toKill <= 0 {
			break
		}
		if live[str(r, "metadata", "labels", labelControllerHash)] {
			continue
		}
		if err := m.deleteRevision(r); err != nil {
			return err
		}
		toKill--
	}
	return nil
}
