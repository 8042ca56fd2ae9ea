package controllers

// Rollouts: rolling.go and recreate.go of the Deployment controller.

func (m *Manager) rolloutRolling(d obj, rsList []obj) error {
	newRS, old, err := m.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	if newRS == nil {
		return nil
	}
	all := append(append([]obj(nil), old...), newRS)
	up, err := m.reconcileNewReplicaSet(all, newRS, d)
	if err != nil {
		return err
	}
	if up {
		return m.syncRolloutStatus(all, newRS, d)
	}
	down, err := m.reconcileOldReplicaSets(all, activeRS(old), newRS, d)
	if err != nil {
		return err
	}
	if down {
		return m.syncRolloutStatus(all, newRS, d)
	}
	if deploymentComplete(d, child(d, "status")) {
		if err := m.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return m.syncRolloutStatus(all, newRS, d)
}

func (m *Manager) reconcileNewReplicaSet(all []obj, newRS, d obj) (bool, error) {
	switch {
	case replicas(newRS) == replicas(d):
		return false, nil
	case replicas(newRS) > replicas(d):
		ok, _, err := m.scaleReplicaSetAndRecordEvent(newRS, replicas(d), d)
		return ok, err
	}
	ok, _, err := m.scaleReplicaSetAndRecordEvent(newRS, newRSNewReplicas(d, all, newRS), d)
	return ok, err
}

func (m *Manager) reconcileOldReplicaSets(all, old []obj, newRS, d obj) (bool, error) {
	if sumRS(old, "spec", "replicas") == 0 {
		return false, nil
	}
	minAvailable := replicas(d) - maxUnavailable(d)
	newUnavailable := replicas(newRS) - numOr(newRS, 0, "status", "availableReplicas")
	maxScaledDown := sumRS(all, "spec", "replicas") - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	old, cleaned, err := m.cleanupUnhealthyReplicas(old, d, maxScaledDown)
	if err != nil {
		return false, err
	}
	all = append(append([]obj(nil), old...), newRS)
	scaled, err := m.scaleDownOldReplicaSetsForRollingUpdate(all, old, d)
	if err != nil {
		return false, err
	}
	return cleaned+scaled > 0, nil
}

// cleanupUnhealthyReplicas scales down the unavailable part of old sets.
func (m *Manager) cleanupUnhealthyReplicas(old []obj, d obj, maxCleanup int64) ([]obj, int64, error) {
	old = append([]obj(nil), old...)
	byCreation(old)
	var total int64
	for i, rs := range old {
		if total >= maxCleanup {
			break
		}
		r, avail := replicas(rs), numOr(rs, 0, "status", "availableReplicas")
		if r == 0 || r == avail {
			continue
		}
		n := min(maxCleanup-total, r-avail)
		_, out, err := m.scaleReplicaSetAndRecordEvent(rs, r-n, d)
		if err != nil {
			return nil, total, err
		}
		total += n
		old[i] = out
	}
	return old, total, nil
}

func (m *Manager) scaleDownOldReplicaSetsForRollingUpdate(all, old []obj, d obj) (int64, error) {
	minAvailable := replicas(d) - maxUnavailable(d)
	available := sumRS(all, "status", "availableReplicas")
	if available <= minAvailable {
		return 0, nil
	}
	old = append([]obj(nil), old...)
	byCreation(old)
	var total int64
	want := available - minAvailable
	for _, rs := range old {
		if total >= want {
			break
		}
		if replicas(rs) == 0 {
			continue
		}
		n := min(replicas(rs), want-total)
		if _, _, err := m.scaleReplicaSetAndRecordEvent(rs, replicas(rs)-n, d); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// rolloutRecreate: old ReplicaSets to 0, wait for their pods to go, then
// the new one to the full count.
func (m *Manager) rolloutRecreate(d obj, rsList []obj) error {
	newRS, old, err := m.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	all := append(append([]obj(nil), old...), newRS)
	scaled := false
	for _, rs := range activeRS(old) {
		ok, _, err := m.scaleReplicaSetAndRecordEvent(rs, 0, d)
		if err != nil {
			return err
		}
		scaled = scaled || ok
	}
	if scaled {
		return m.syncRolloutStatus(all, newRS, d)
	}
	for _, rs := range old {
		for _, p := range m.listOwned(kPods, namespace(d), uid(rs)) {
			if !terminal(p) {
				return m.syncRolloutStatus(all, newRS, d)
			}
		}
	}
	if newRS == nil {
		if newRS, old, err = m.getAllReplicaSetsAndSyncRevision(d, rsList, true); err != nil || newRS == nil {
			return err
		}
		all = append(append([]obj(nil), old...), newRS)
	}
	if _, _, err := m.scaleReplicaSetAndRecordEvent(newRS, replicas(d), d); err != nil {
		return err
	}
	if deploymentComplete(d, child(d, "status")) {
		if err := m.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return m.syncRolloutStatus(all, newRS, d)
}
