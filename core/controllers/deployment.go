package controllers

import (
	"fmt"
	"math"
	"net/http"
	"sort"
)

// The Deployment controller, after pkg/controller/deployment (sync.go,
// rolling.go, recreate.go, progress.go). Worked example, a new Deployment
// web with 3 replicas:
//
//	create ReplicaSet web-<hash> (replicas 3, revision 1,
//	  desired-replicas 3, max-replicas 4); event "Scaled up replica set
//	  web-<hash> from 0 to 3"; status Progressing NewReplicaSetCreated
//	… the ReplicaSet's pods become ready …
//	status replicas/updated/ready/available 3, Available True
//	  MinimumReplicasAvailable, Progressing True NewReplicaSetAvailable
//	  `ReplicaSet "web-<hash>" has successfully progressed.`
//
// A template change creates a second ReplicaSet and rolls with maxSurge /
// maxUnavailable as the real controller, one step per sync.

const deploymentController = "deployment-controller"

func (m *Manager) syncDeployment(d obj) error {
	d = copyObj(d)
	sel := child(d, "spec", "selector")
	if sel == nil || emptySelector(sel) {
		// the real controller refuses to select every pod: it only
		// records that it saw the generation
		if generation(d) > numOr(d, 0, "status", "observedGeneration") {
			st := copyObj(child(d, "status"))
			if st == nil {
				st = obj{}
			}
			st["observedGeneration"] = generation(d)
			return m.updateStatus(kDeployments, d, st)
		}
		return nil
	}
	rsList := m.claim(d, kDeployments, kReplicaSets, sel)
	if deleting(d) {
		return m.syncStatusOnly(d, rsList)
	}
	if err := m.checkPausedConditions(d); err != nil {
		return err
	}
	if boolean(d, "spec", "paused") {
		return m.syncScaling(d, rsList)
	}
	scaling, err := m.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		return m.syncScaling(d, rsList)
	}
	if !isRolling(d) {
		return m.rolloutRecreate(d, rsList)
	}
	return m.rolloutRolling(d, rsList)
}

// getAllReplicaSetsAndSyncRevision splits the ReplicaSets into the new one
// (template equal to d's) and the old ones, and syncs the revision.
func (m *Manager) getAllReplicaSetsAndSyncRevision(d obj, rsList []obj, create bool) (obj, []obj, error) {
	var newRS obj
	var old []obj
	for _, rs := range rsList {
		if newRS == nil && equalIgnoreHash(child(rs, "spec", "template"), child(d, "spec", "template")) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	newRS, err := m.getNewReplicaSet(d, newRS, old, create)
	return newRS, old, err
}

func (m *Manager) getNewReplicaSet(d, existing obj, oldRSs []obj, create bool) (obj, error) {
	ns := namespace(d)
	newRevision := maxRevision(oldRSs) + 1
	if existing != nil {
		rs := copyObj(existing)
		changed := setNewReplicaSetAnnotations(d, rs, newRevision, true)
		minReady := numOr(d, 0, "spec", "minReadySeconds")
		if changed || numOr(rs, 0, "spec", "minReadySeconds") != minReady {
			if minReady != 0 {
				ensure(rs, "spec")["minReadySeconds"] = minReady
			} else {
				delete(ensure(rs, "spec"), "minReadySeconds")
			}
			out, err := m.cm.do(m.ctx, http.MethodPut, kReplicaSets.path(ns, name(rs), ""), ctJSON, withType(rs, kReplicaSets))
			if err != nil {
				return nil, err
			}
			replaceObj(existing, out) // later steps of this sync see the update
			return out, nil
		}
		needsUpdate := annotation(d, annRevision) != annotation(rs, annRevision)
		if needsUpdate {
			setAnnotation(d, annRevision, annotation(rs, annRevision))
		}
		if hasProgressDeadline(d) && getCondition(child(d, "status"), "Progressing") == nil {
			setCondition(ensure(d, "status"), m.newDeploymentCondition("Progressing", "True", reasonFoundNewRS,
				fmt.Sprintf("Found new replica set %q", name(rs))))
			needsUpdate = true
		}
		if needsUpdate {
			if err := m.writeDeploymentStatus(d); err != nil {
				return nil, err
			}
		}
		return rs, nil
	}
	if !create {
		return nil, nil
	}
	var collision *int64
	if c, ok := num(d, "status", "collisionCount"); ok {
		collision = &c
	}
	hash := computeHash(child(d, "spec", "template"), collision)
	tmpl := copyObj(child(d, "spec", "template"))
	if tmpl == nil {
		tmpl = obj{}
	}
	ensure(tmpl, "metadata", "labels")[labelPodTemplateHash] = hash
	sel := copyObj(child(d, "spec", "selector"))
	ensure(sel, "matchLabels")[labelPodTemplateHash] = hash
	rsName := name(d) + "-" + hash
	spec := obj{"replicas": int64(0), "selector": sel, "template": tmpl}
	if mr := numOr(d, 0, "spec", "minReadySeconds"); mr != 0 {
		spec["minReadySeconds"] = mr
	}
	rs := obj{"apiVersion": "apps/v1", "kind": "ReplicaSet",
		"metadata": obj{"name": rsName, "namespace": ns,
			"ownerReferences": []any{controllerRef(d, "apps/v1", "Deployment")},
			"labels":          copyAny(child(tmpl, "metadata", "labels"))},
		"spec": spec}
	count := newRSNewReplicas(d, append(append([]obj(nil), oldRSs...), rs), rs)
	spec["replicas"] = count
	setNewReplicaSetAnnotations(d, rs, newRevision, false)
	created, err := m.cm.do(m.ctx, http.MethodPost, kReplicaSets.path(ns, "", ""), ctJSON, rs)
	alreadyExists := false
	if isCode(err, http.StatusConflict) {
		cur := m.get(kReplicaSets, ns, rsName)
		if ref, ok := controllerOf(cur); cur != nil && ok && ref.UID == uid(d) &&
			equalIgnoreHash(child(d, "spec", "template"), child(cur, "spec", "template")) {
			created, err, alreadyExists = cur, nil, true
		} else {
			// a hash collision: bump collisionCount, the next sync retries
			st := ensure(d, "status")
			st["collisionCount"] = numOr(st, 0, "collisionCount") + 1
			if werr := m.writeDeploymentStatus(d); werr != nil {
				return nil, werr
			}
			return nil, err
		}
	}
	if err != nil {
		if isCode(err, http.StatusForbidden) {
			return nil, nil // namespace terminating
		}
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", rsName, errMessage(err))
		if hasProgressDeadline(d) {
			setCondition(ensure(d, "status"), m.newDeploymentCondition("Progressing", "False", "ReplicaSetCreateError", msg))
			_ = m.writeDeploymentStatus(d)
		}
		m.record(d, kDeployments, deploymentController, "Warning", "ReplicaSetCreateError", msg)
		return nil, err
	}
	if !alreadyExists && count > 0 {
		m.record(d, kDeployments, deploymentController, "Normal", "ScalingReplicaSet",
			fmt.Sprintf("Scaled up replica set %s from 0 to %d", name(created), count))
	}
	needsUpdate := annotation(d, annRevision) != itoa(newRevision)
	if needsUpdate {
		setAnnotation(d, annRevision, itoa(newRevision))
	}
	if !alreadyExists && hasProgressDeadline(d) {
		setCondition(ensure(d, "status"), m.newDeploymentCondition("Progressing", "True", reasonNewRSCreated,
			fmt.Sprintf("Created new replica set %q", name(created))))
		needsUpdate = true
	}
	if needsUpdate {
		if err := m.writeDeploymentStatus(d); err != nil {
			return nil, err
		}
	}
	return created, nil
}

func withType(o obj, k kindInfo) obj {
	o["apiVersion"], o["kind"] = k.apiVersion(), k.Kind
	return o
}

// newRSNewReplicas is how far the new ReplicaSet may be scaled up now.
func newRSNewReplicas(d obj, all []obj, newRS obj) int64 {
	if !isRolling(d) {
		return replicas(d)
	}
	maxTotal := replicas(d) + maxSurge(d)
	current := sumRS(all, "spec", "replicas")
	if current >= maxTotal {
		return replicas(newRS)
	}
	up := maxTotal - current
	if lim := replicas(d) - replicas(newRS); up > lim {
		up = lim
	}
	return replicas(newRS) + up
}

// writeDeploymentStatus PUTs d's status and metadata (as the real
// UpdateStatus, which also carries the revision annotation) and refreshes
// d from the answer.
func (m *Manager) writeDeploymentStatus(d obj) error {
	out, err := m.cm.do(m.ctx, http.MethodPut, kDeployments.path(namespace(d), name(d), "status"), ctJSON, withType(copyObj(d), kDeployments))
	if err != nil {
		return err
	}
	if want := annotation(d, annRevision); want != "" && annotation(out, annRevision) != want {
		// The status strategy here kept metadata unchanged (the real one
		// lets annotations through): set the annotation on the object.
		p := obj{"metadata": obj{"annotations": obj{annRevision: want}}}
		if out, err = m.cm.do(m.ctx, http.MethodPatch, kDeployments.path(namespace(d), name(d), ""), ctMerge, p); err != nil {
			return err
		}
	}
	replaceObj(d, out)
	return nil
}

// calculateStatus derives d's status from its ReplicaSets.
func (m *Manager) calculateStatus(all []obj, newRS obj, d obj) obj {
	avail := sumRS(all, "status", "availableReplicas")
	unavail := sumRS(all, "spec", "replicas") - avail
	if unavail < 0 {
		unavail = 0
	}
	st := obj{}
	setNonZero(st, "observedGeneration", generation(d))
	setNonZero(st, "replicas", sumRS(all, "status", "replicas"))
	setNonZero(st, "updatedReplicas", sumRS([]obj{newRS}, "status", "replicas"))
	setNonZero(st, "readyReplicas", sumRS(all, "status", "readyReplicas"))
	setNonZero(st, "availableReplicas", avail)
	setNonZero(st, "unavailableReplicas", unavail)
	st["terminatingReplicas"] = sumRS(all, "status", "terminatingReplicas")
	if c, ok := num(d, "status", "collisionCount"); ok {
		st["collisionCount"] = c
	}
	if c := list(d, "status", "conditions"); len(c) > 0 {
		st["conditions"] = copyAny(c)
	}
	if avail >= replicas(d)-maxUnavailable(d) {
		setCondition(st, m.newDeploymentCondition("Available", "True", reasonMinimumAvailable, "Deployment has minimum availability."))
	} else {
		setCondition(st, m.newDeploymentCondition("Available", "False", reasonMinimumUnavailable, "Deployment does not have minimum availability."))
	}
	return st
}

func (m *Manager) syncDeploymentStatus(all []obj, newRS obj, d obj) error {
	return m.putDeploymentStatus(d, m.calculateStatus(all, newRS, d))
}

func (m *Manager) putDeploymentStatus(d obj, st obj) error {
	if sameJSON(d["status"], st) {
		return nil
	}
	d["status"] = st
	return ignoreNotFound(m.writeDeploymentStatus(d))
}

// syncRolloutStatus also maintains the Progressing condition.
func (m *Manager) syncRolloutStatus(all []obj, newRS obj, d obj) error {
	st := m.calculateStatus(all, newRS, d)
	if !hasProgressDeadline(d) {
		removeCondition(st, "Progressing")
	}
	cur := getCondition(child(d, "status"), "Progressing")
	complete := numOr(st, 0, "replicas") == numOr(st, 0, "updatedReplicas") && cur != nil && str(cur, "reason") == reasonNewRSAvailable
	if hasProgressDeadline(d) && !complete {
		switch {
		case deploymentComplete(d, st):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", name(d))
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", name(newRS))
			}
			setCondition(st, m.newDeploymentCondition("Progressing", "True", reasonNewRSAvailable, msg))
		case deploymentProgressing(d, st):
			msg := fmt.Sprintf("Deployment %q is progressing.", name(d))
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", name(newRS))
			}
			c := m.newDeploymentCondition("Progressing", "True", reasonRSUpdated, msg)
			if cur != nil {
				if str(cur, "status") == "True" {
					c["lastTransitionTime"] = cur["lastTransitionTime"]
				}
				removeCondition(st, "Progressing")
			}
			setCondition(st, c)
		}
	}
	removeCondition(st, "ReplicaFailure")
	for _, rs := range all {
		if c := getCondition(child(rs, "status"), "ReplicaFailure"); c != nil && str(c, "status") == "True" {
			setCondition(st, obj{"type": "ReplicaFailure", "status": "True", "lastUpdateTime": c["lastTransitionTime"],
				"lastTransitionTime": c["lastTransitionTime"], "reason": c["reason"], "message": c["message"]})
			break
		}
	}
	return m.putDeploymentStatus(d, st)
}

func (m *Manager) syncStatusOnly(d obj, rsList []obj) error {
	newRS, old, err := m.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return m.syncDeploymentStatus(append(old, newRS), newRS, d)
}

func (m *Manager) checkPausedConditions(d obj) error {
	if !hasProgressDeadline(d) {
		return nil
	}
	cond := getCondition(child(d, "status"), "Progressing")
	if cond != nil && str(cond, "reason") == reasonTimedOut {
		return nil
	}
	pausedExists := cond != nil && str(cond, "reason") == reasonPaused
	paused := boolean(d, "spec", "paused")
	switch {
	case paused && !pausedExists:
		setCondition(ensure(d, "status"), m.newDeploymentCondition("Progressing", "Unknown", reasonPaused, "Deployment is paused"))
	case !paused && pausedExists:
		setCondition(ensure(d, "status"), m.newDeploymentCondition("Progressing", "Unknown", reasonResumed, "Deployment is resumed"))
	default:
		return nil
	}
	return m.writeDeploymentStatus(d)
}

// isScalingEvent: an active ReplicaSet's desired-replicas annotation
// differs from spec.replicas.
func (m *Manager) isScalingEvent(d obj, rsList []obj) (bool, error) {
	newRS, old, err := m.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range activeRS(append(old, newRS)) {
		if a := annotation(rs, annDesiredReplicas); a != "" && a != itoa(replicas(d)) {
			return true, nil
		}
	}
	return false, nil
}

// syncScaling is the controller's sync(): scale, clean up, report.
func (m *Manager) syncScaling(d obj, rsList []obj) error {
	newRS, old, err := m.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := m.scale(d, newRS, old); err != nil {
		return err
	}
	if boolean(d, "spec", "paused") {
		if err := m.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return m.syncDeploymentStatus(append(old, newRS), newRS, d)
}

// scale: one active ReplicaSet takes the whole count; a saturated new one
// scales the old ones to 0; otherwise the change is shared in proportion.
func (m *Manager) scale(d, newRS obj, old []obj) error {
	if rs := findActiveOrLatest(newRS, old); rs != nil {
		if replicas(rs) == replicas(d) {
			return nil
		}
		_, _, err := m.scaleReplicaSetAndRecordEvent(rs, replicas(d), d)
		return err
	}
	if newRS != nil && annotation(newRS, annDesiredReplicas) == itoa(replicas(d)) &&
		numOr(newRS, 0, "status", "availableReplicas") == replicas(d) && replicas(newRS) == replicas(d) {
		for _, rs := range activeRS(old) {
			if _, _, err := m.scaleReplicaSetAndRecordEvent(rs, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if !isRolling(d) {
		return nil
	}
	all := activeRS(append(append([]obj(nil), old...), newRS))
	allowed := int64(0)
	if replicas(d) > 0 {
		allowed = replicas(d) + maxSurge(d)
	}
	toAdd := allowed - sumRS(all, "spec", "replicas")
	op := ""
	sort.SliceStable(all, func(i, j int) bool {
		a, b := replicas(all[i]), replicas(all[j])
		if a != b {
			return a > b
		}
		ca, cb := str(all[i], "metadata", "creationTimestamp"), str(all[j], "metadata", "creationTimestamp")
		if toAdd > 0 {
			return ca > cb // newer first when scaling up
		}
		return ca < cb
	})
	switch {
	case toAdd > 0:
		op = "up"
	case toAdd < 0:
		op = "down"
	}
	sizes := make([]int64, len(all))
	added := int64(0)
	for i, rs := range all {
		sizes[i] = replicas(rs)
		if toAdd != 0 {
			p := proportion(rs, d, toAdd, added)
			sizes[i] += p
			added += p
		}
	}
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			sizes[0] += toAdd - added
			if sizes[0] < 0 {
				sizes[0] = 0
			}
		}
		if _, err := m.scaleReplicaSet(rs, sizes[i], d, op); err != nil {
			return err
		}
	}
	return nil
}

// proportion is GetProportion: rs's share of toAdd, by its max-replicas.
func proportion(rs, d obj, toAdd, added int64) int64 {
	if replicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	var frac int64
	if replicas(d) == 0 {
		frac = -replicas(rs)
	} else {
		dr := replicas(d) + maxSurge(d)
		ann, err := parseInt(annotation(rs, annMaxReplicas))
		if err != nil {
			ann = numOr(d, 0, "status", "replicas")
		}
		if ann == 0 {
			ann = 1
		}
		frac = int64(math.Round(float64(replicas(rs)*dr)/float64(ann))) - replicas(rs)
	}
	allowed := toAdd - added
	if toAdd > 0 {
		return min(frac, allowed)
	}
	return max(frac, allowed)
}

func parseInt(s string) (int64, error) {
	var n int64
	_, err := fmt.Sscan(s, &n)
	return n, err
}

func findActiveOrLatest(newRS obj, old []obj) obj {
	if newRS == nil && len(old) == 0 {
		return nil
	}
	sorted := append([]obj(nil), old...)
	byCreation(sorted)
	for i, j := 0, len(sorted)-1; i < j; i, j = i+1, j-1 {
		sorted[i], sorted[j] = sorted[j], sorted[i]
	}
	all := activeRS(append(append([]obj(nil), sorted...), newRS))
	switch len(all) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return all[0]
	}
	return nil
}

func (m *Manager) scaleReplicaSetAndRecordEvent(rs obj, to int64, d obj) (bool, obj, error) {
	if replicas(rs) == to {
		return false, rs, nil
	}
	op := "down"
	if replicas(rs) < to {
		op = "up"
	}
	out, err := m.scaleReplicaSet(rs, to, d, op)
	return err == nil, out, err
}

// scaleReplicaSet updates spec.replicas and the replicas annotations.
func (m *Manager) scaleReplicaSet(rs obj, to int64, d obj, op string) (obj, error) {
	c := copyObj(rs)
	sizeChanged := replicas(c) != to
	annChanged := setReplicasAnnotations(c, replicas(d), replicas(d)+maxSurge(d))
	if !sizeChanged && !annChanged {
		return rs, nil
	}
	from := replicas(rs)
	ensure(c, "spec")["replicas"] = to
	out, err := m.cm.do(m.ctx, http.MethodPut, kReplicaSets.path(namespace(c), name(c), ""), ctJSON, withType(c, kReplicaSets))
	if err != nil {
		return nil, err
	}
	if sizeChanged {
		m.record(d, kDeployments, deploymentController, "Normal", "ScalingReplicaSet",
			fmt.Sprintf("Scaled %s replica set %s from %d to %d", op, name(out), from, to))
	}
	return out, nil
}

// cleanupDeployment deletes the oldest fully scaled-down ReplicaSets beyond
// revisionHistoryLimit.
func (m *Manager) cleanupDeployment(old []obj, d obj) error {
	limit, ok := num(d, "spec", "revisionHistoryLimit")
	if !ok {
		return nil
	}
	var alive []obj
	for _, rs := range old {
		if rs != nil && !deleting(rs) {
			alive = append(alive, rs)
		}
	}
	diff := int64(len(alive)) - limit
	if diff <= 0 {
		return nil
	}
	sort.SliceStable(alive, func(i, j int) bool {
		ri, rj := revisionOf(alive[i]), revisionOf(alive[j])
		if ri != rj {
			return ri < rj
		}
		return str(alive[i], "metadata", "creationTimestamp") < str(alive[j], "metadata", "creationTimestamp")
	})
	for _, rs := range alive[:diff] {
		if numOr(rs, 0, "status", "replicas") != 0 || replicas(rs) != 0 ||
			generation(rs) > numOr(rs, 0, "status", "observedGeneration") {
			continue
		}
		_, err := m.cm.do(m.ctx, http.MethodDelete, kReplicaSets.path(namespace(rs), name(rs), ""), ctJSON, obj{})
		if err != nil && !isCode(err, http.StatusNotFound) {
			return err
		}
	}
	return nil
}
