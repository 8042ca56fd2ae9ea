package controllers

import (
	"net/http"
)

// The Job controller (pkg/controller/job), NonIndexed jobs: pods are
// created with the batch.kubernetes.io/job-tracking finalizer up to
// parallelism; a finished pod is first recorded in
// status.uncountedTerminatedPods, its finalizer removed, then counted in
// status.succeeded; once completions pods succeeded the job gets
// SuccessCriteriaMet, then Complete with completionTime.
//
// Example, `kubectl create job pi --image=perl`: pod pi-xxxxx is created
// (event "Created pod: pi-xxxxx"); status {startTime, active: 1, ready: 0,
// terminating: 0, uncountedTerminatedPods: {}}; the pod succeeds; status
// ends {succeeded: 1, conditions: [SuccessCriteriaMet, Complete]
// (reason CompletionsReached, "Reached expected number of succeeded
// pods"), completionTime, …} and the event "Job completed" is recorded.

const jobController = "job-controller"

func jobFinished(j obj) bool {
	for _, t := range []string{"Complete", "Failed"} {
		if c := getCondition(child(j, "status"), t); c != nil && str(c, "status") == "True" {
			return true
		}
	}
	return false
}

func (m *Manager) syncJob(j obj) error {
	if deleting(j) {
		return nil
	}
	ns := namespace(j)
	pods := m.listOwned(kPods, ns, uid(j))
	if jobFinished(j) {
		for _, p := range pods {
			if err := m.removeJobTracking(p); err != nil {
				return err
			}
		}
		return nil
	}
	if boolean(j, "spec", "suspend") {
		return m.suspendJob(j)
	}
	st := copyObj(child(j, "status"))
	if st == nil {
		st = obj{}
	}
	if c := getCondition(st, "Suspended"); c != nil && str(c, "status") == "True" {
		// resumed: the condition turns False and the clock restarts
		setJobCondition(st, "Suspended", "False", "JobResumed", "Job resumed", m.timestamp())
		st["startTime"] = m.timestamp()
		m.record(j, kJobs, jobController, "Normal", "Resumed", "Job resumed")
	}
	if str(st, "startTime") == "" {
		st["startTime"] = m.timestamp()
	}
	var active []obj
	var done []obj // terminal pods not yet counted (finalizer still on)
	for _, p := range pods {
		switch {
		case terminal(p) && hasFinalizer(p, jobTrackingFinalizer):
			done = append(done, p)
		case !terminal(p) && !deleting(p):
			active = append(active, p)
		}
	}
	ready := int64(0)
	for _, p := range active {
		if podReady(p) {
			ready++
		}
	}
	setNonZero(st, "active", int64(len(active)))
	if len(active) == 0 {
		delete(st, "active")
	}
	st["ready"] = ready
	st["terminating"] = int64(0)
	if _, ok := st["uncountedTerminatedPods"]; !ok {
		st["uncountedTerminatedPods"] = obj{}
	}

	// 1. record newly finished pods as uncounted
	if len(done) > 0 {
		unc := ensure(st, "uncountedTerminatedPods")
		for _, p := range done {
			field := "succeeded"
			if str(p, "status", "phase") == "Failed" {
				field = "failed"
			}
			if !containsString(list(unc, field), uid(p)) {
				unc[field] = append(list(unc, field), uid(p))
			}
		}
		if err := m.updateStatus(kJobs, j, st); err != nil {
			return err
		}
		st = copyObj(child(j, "status"))
		if st == nil { // an answer without status (never from our server)
			st = obj{}
		}
		// 2. remove their finalizers, 3. count them
		for _, p := range done {
			if err := m.removeJobTracking(p); err != nil {
				return err
			}
		}
		unc = ensure(st, "uncountedTerminatedPods")
		for _, field := range []string{"succeeded", "failed"} {
			if n := int64(len(list(unc, field))); n > 0 {
				st[field] = numOr(st, 0, field) + n
			}
			delete(unc, field)
		}
	}
	succeeded := numOr(st, 0, "succeeded") + int64(len(list(st, "uncountedTerminatedPods", "succeeded")))
	completions, hasCompletions := num(j, "spec", "completions")
	met := (hasCompletions && succeeded >= completions) || (!hasCompletions && succeeded > 0 && len(active) == 0)
	if met {
		now := m.timestamp()
		cond := func(t string) obj {
			return obj{"type": t, "status": "True", "lastProbeTime": now, "lastTransitionTime": now,
				"reason": "CompletionsReached", "message": "Reached expected number of succeeded pods"}
		}
		if getCondition(st, "SuccessCriteriaMet") == nil {
			st["conditions"] = append(list(st, "conditions"), cond("SuccessCriteriaMet"))
		} else if len(active) == 0 {
			st["conditions"] = append(list(st, "conditions"), cond("Complete"))
			st["completionTime"] = now
		}
		if err := m.updateStatus(kJobs, j, st); err != nil {
			return err
		}
		if getCondition(st, "Complete") != nil {
			m.record(j, kJobs, jobController, "Normal", "Completed", "Job completed")
		} else {
			m.q.add(kJobs.storeKey(ns, name(j))) // next sync adds Complete
		}
		return nil
	}

	// 4. start pods up to parallelism (and the completions left)
	want := numOr(j, 1, "spec", "parallelism")
	if hasCompletions {
		want = min(want, completions-succeeded)
	}
	want = min(want, int64(len(active))+burstReplicas)
	for i := int64(len(active)); i < want; i++ {
		pod := podFromTemplate(child(j, "spec", "template"), j, kJobs)
		md := ensure(pod, "metadata")
		labels := ensure(md, "labels")
		for _, k := range []string{"batch.kubernetes.io/controller-uid", "controller-uid"} {
			labels[k] = uid(j)
		}
		for _, k := range []string{"batch.kubernetes.io/job-name", "job-name"} {
			labels[k] = name(j)
		}
		if !containsString(list(md, "finalizers"), jobTrackingFinalizer) {
			md["finalizers"] = append(list(md, "finalizers"), jobTrackingFinalizer)
		}
		out, err := m.cm.do(m.ctx, http.MethodPost, kPods.path(ns, "", ""), ctJSON, pod)
		if err != nil {
			if isCode(err, http.StatusForbidden) {
				return nil
			}
			m.record(j, kJobs, jobController, "Warning", "FailedCreate", "Error creating: "+errMessage(err))
			return err
		}
		m.record(j, kJobs, jobController, "Normal", "SuccessfulCreate", "Created pod: "+name(out))
		st["active"] = numOr(st, 0, "active") + 1
	}
	return m.updateStatus(kJobs, j, st)
}

// suspendJob: a suspended Job that has not finished gets the condition
// Suspended=True (reason JobSuspended, "Job suspended"), its startTime is
// cleared (MutableSchedulingDirectivesForSuspendedJobs, on in v1.36+) and
// the event "Suspended" is recorded, as syncJob does. No pod is started.
func (m *Manager) suspendJob(j obj) error {
	st := copyObj(child(j, "status"))
	if st == nil {
		st = obj{}
	}
	if c := getCondition(st, "Suspended"); c != nil && str(c, "status") == "True" {
		return nil
	}
	setJobCondition(st, "Suspended", "True", "JobSuspended", "Job suspended", m.timestamp())
	delete(st, "startTime")
	st["ready"] = int64(0)
	st["terminating"] = int64(0)
	if _, ok := st["uncountedTerminatedPods"]; !ok {
		st["uncountedTerminatedPods"] = obj{}
	}
	if err := m.updateStatus(kJobs, j, st); err != nil {
		return err
	}
	m.record(j, kJobs, jobController, "Normal", "Suspended", "Job suspended")
	return nil
}

// setJobCondition replaces the condition of that type, or appends it.
func setJobCondition(st obj, typ, status, reason, message, now string) {
	c := obj{"type": typ, "status": status, "reason": reason, "message": message,
		"lastProbeTime": now, "lastTransitionTime": now}
	conds := list(st, "conditions")
	for i, x := range conds {
		if xm, _ := x.(map[string]any); xm != nil && xm["type"] == typ {
			conds[i] = c
			return
		}
	}
	st["conditions"] = append(conds, c)
}

// removeJobTracking drops the job-tracking finalizer from a pod.
func (m *Manager) removeJobTracking(p obj) error {
	if !hasFinalizer(p, jobTrackingFinalizer) {
		return nil
	}
	patch := obj{"metadata": obj{"$deleteFromPrimitiveList/finalizers": []any{jobTrackingFinalizer}}}
	_, err := m.cm.do(m.ctx, http.MethodPatch, kPods.path(namespace(p), name(p), ""), ctStrategic, patch)
	return ignoreNotFound(err)
}

// releaseOrphanJobPod removes the finalizer from a finished or deleted pod
// whose Job is gone or finished (the Job's own sync handles the others).
func (m *Manager) releaseOrphanJobPod(p obj) error {
	ref, ok := controllerOf(p)
	if ok && ref.Kind == "Job" {
		j := m.get(kJobs, namespace(p), ref.Name)
		if j != nil && uid(j) == ref.UID && !deleting(j) && !jobFinished(j) && !deleting(p) {
			return nil
		}
	}
	return m.removeJobTracking(p)
}

func containsString(l []any, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func errMessage(err error) string {
	if e, ok := err.(*apiError); ok {
		return e.Message
	}
	return err.Error()
}
