package controllers

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/kubesandbox/kubesandbox/core/builtin/batch"
)

// The CronJob controller (pkg/controller/cronjob, the v2 controller). A
// sync reconciles the CronJob's Jobs with status.active, cleans up finished
// Jobs beyond the history limits, and — unless suspended, or the schedule
// or time zone is bad — starts the Job of the most recent unmet schedule
// time, then asks to be woken at the next one (plus 100 ms, as the real
// one does). Nothing polls: the wake-up is a timer on the manager's clock
// (requeueAt; FireDue when that clock is moved by hand).
//
// Example: `kubectl create cronjob hello --image=busybox --schedule="*/1 * * * *"`
// created at 10:00:30 is synced then (no unmet time: wake at 10:01:00.1);
// at 10:01 it creates Job hello-29433541 (minutes since the epoch) with
// the annotation batch.kubernetes.io/cronjob-scheduled-timestamp:
// "2025-12-15T10:01:00Z", an ownerReference (controller: true) to the
// CronJob, the jobTemplate's labels, annotations and spec; records
// "Created job hello-29433541"; and sets status.active and
// lastScheduleTime. When that Job completes: "Saw completed job:
// hello-29433541, condition: Complete", lastSuccessfulTime; beyond
// successfulJobsHistoryLimit (default 3) the oldest is deleted ("Deleted
// job …").
//
// Time zones: spec.timeZone is loaded with time.LoadLocation. A js/wasm
// build links no zone database (time/tzdata would cost ~450 KB), so there
// only "UTC" loads: any other zone gets the UnknownTimeZone warning and no
// Job, as on a cluster whose controller cannot load it. (The browser build
// does not link the controllers yet; this is what it will do when it
// does.) Natively the host's zone database is used.

const (
	cronJobController         = "cronjob-controller"
	cronJobScheduledTimestamp = "batch.kubernetes.io/cronjob-scheduled-timestamp"
	nextScheduleDelta         = 100 * time.Millisecond
)

var kCronJobs = kindInfo{"batch", "v1", "cronjobs", "CronJob", true}

// syncCronJob is ControllerV2.sync: cleanup, syncCronJob, one status write,
// a timer for the next schedule.
func (m *Manager) syncCronJob(key string, cj obj) error {
	jobs := m.listOwned(kJobs, namespace(cj), uid(cj))
	st := copyObj(child(cj, "status"))
	if st == nil {
		st = obj{}
	}
	changed := m.cleanupFinishedJobs(cj, st, jobs)
	next, changedSync, err := m.syncCronJobSchedule(cj, st, jobs)
	if changed || changedSync {
		if uerr := m.updateStatus(kCronJobs, cj, st); uerr != nil {
			return uerr
		}
	}
	if next != nil {
		m.requeueAt(key, m.now().Add(*next))
		return nil
	}
	return err
}

// cronSchedule parses the schedule as the controller does (formatSchedule
// then ParseCronScheduleWithPanicRecovery); bad is the event to record.
func (m *Manager) cronSchedule(cj obj) (cron.Schedule, error) {
	s := str(cj, "spec", "schedule")
	if strings.Contains(s, "TZ") {
		m.record(cj, kCronJobs, cronJobController, "Warning", "UnsupportedSchedule",
			fmt.Sprintf("CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", s))
	} else if tz, ok := child(cj, "spec")["timeZone"].(string); ok {
		if _, err := time.LoadLocation(tz); err == nil {
			s = "TZ=" + tz + " " + s
		}
	}
	return batch.ParseSchedule(s)
}

func (m *Manager) syncCronJobSchedule(cj, st obj, jobs []obj) (*time.Duration, bool, error) {
	now := m.now()
	update := false
	children := map[string]bool{}
	for _, j := range jobs {
		children[uid(j)] = true
		found := inActiveList(st, uid(j))
		switch {
		case !found && !jobFinished(j):
			m.record(cj, kCronJobs, cronJobController, "Warning", "UnexpectedJob",
				"Saw a job that the controller did not create or forgot: "+name(j))
		case jobFinished(j):
			if found {
				deleteFromActiveList(st, uid(j))
				m.record(cj, kCronJobs, cronJobController, "Normal", "SawCompletedJob",
					fmt.Sprintf("Saw completed job: %s, condition: %s", name(j), finishedCondition(j)))
				update = true
			}
			if finishedCondition(j) == "Complete" {
				ct := str(j, "status", "completionTime")
				if last := str(st, "lastSuccessfulTime"); ct != "" && (last == "" || after(ct, last)) {
					st["lastSuccessfulTime"] = ct
					update = true
				}
			}
		}
	}
	for _, a := range list(st, "active") {
		ref, _ := a.(map[string]any)
		if children[str(ref, "uid")] {
			continue
		}
		if m.get(kJobs, str(ref, "namespace"), str(ref, "name")) == nil {
			m.record(cj, kCronJobs, cronJobController, "Normal", "MissingJob", "Active job went missing: "+str(ref, "name"))
			deleteFromActiveList(st, str(ref, "uid"))
			update = true
		}
	}
	if deleting(cj) {
		return nil, update, nil
	}
	spec := child(cj, "spec")
	if tz, ok := spec["timeZone"].(string); ok {
		if _, err := time.LoadLocation(tz); err != nil {
			m.record(cj, kCronJobs, cronJobController, "Warning", "UnknownTimeZone", fmt.Sprintf("invalid timeZone: %q: %s", tz, err))
			return nil, update, nil
		}
	}
	if boolean(spec, "suspend") {
		return nil, update, nil
	}
	sched, err := m.cronSchedule(cj)
	if err != nil {
		m.record(cj, kCronJobs, cronJobController, "Warning", "UnparseableSchedule",
			fmt.Sprintf("unparseable schedule: %q : %s", str(spec, "schedule"), err))
		return nil, update, nil
	}
	scheduled, err := m.nextScheduleTime(cj, st, now, sched)
	if err != nil {
		m.record(cj, kCronJobs, cronJobController, "Warning", "InvalidSchedule",
			fmt.Sprintf("invalid schedule: %s : %s", str(spec, "schedule"), err))
		return nil, update, nil
	}
	wait := func() (*time.Duration, bool, error) { return nextScheduleDuration(cj, st, now, sched), update, nil }
	if scheduled == nil {
		return wait()
	}
	if d, ok := num(spec, "startingDeadlineSeconds"); ok && scheduled.Add(time.Duration(d)*time.Second).Before(now) {
		m.record(cj, kCronJobs, cronJobController, "Warning", "MissSchedule",
			"Missed scheduled time to start a job: "+scheduled.UTC().Format(time.RFC1123Z))
		return wait()
	}
	jobName := fmt.Sprintf("%s-%d", name(cj), scheduled.Unix()/60)
	if inActiveListByName(st, jobName) || str(st, "lastScheduleTime") == scheduled.UTC().Format(rfc3339) {
		return wait()
	}
	policy := str(spec, "concurrencyPolicy")
	if policy == "Forbid" && len(list(st, "active")) > 0 {
		m.record(cj, kCronJobs, cronJobController, "Normal", "JobAlreadyActive",
			"Not starting job because prior execution is running and concurrency policy is Forbid")
		return wait()
	}
	if policy == "Replace" {
		for _, a := range list(st, "active") {
			ref, _ := a.(map[string]any)
			j := m.get(kJobs, str(ref, "namespace"), str(ref, "name"))
			if j == nil {
				m.record(cj, kCronJobs, cronJobController, "Warning", "FailedGet",
					fmt.Sprintf("Get job: jobs.batch %q not found", str(ref, "name")))
				return nil, update, &apiError{Code: 404, Reason: "NotFound", Message: "job " + str(ref, "name") + " not found"}
			}
			if !m.deleteCronJobJob(cj, st, j) {
				return nil, update, fmt.Errorf("could not replace job %s/%s", namespace(j), name(j))
			}
			update = true
		}
	}
	job, err := m.jobFromTemplate(cj, jobName, *scheduled)
	if err != nil {
		return nil, update, err
	}
	out, err := m.cm.do(m.ctx, http.MethodPost, kJobs.path(namespace(cj), "", ""), ctJSON, job)
	switch {
	case isCode(err, http.StatusConflict) && str(out, "reason") == "AlreadyExists":
		out = m.get(kJobs, namespace(cj), jobName)
		if out == nil {
			return nil, update, err
		}
		if ref, ok := controllerOf(out); !ok || ref.UID != uid(cj) || inActiveList(st, uid(out)) {
			return nil, update, nil
		}
	case isCode(err, http.StatusForbidden):
		return nil, update, err // e.g. the namespace is terminating
	case err != nil:
		m.record(cj, kCronJobs, cronJobController, "Warning", "FailedCreate", "Error creating job: "+errMessage(err))
		return nil, update, err
	default:
		m.record(cj, kCronJobs, cronJobController, "Normal", "SuccessfulCreate", "Created job "+name(out))
	}
	st["active"] = append(list(st, "active"), map[string]any{"kind": "Job", "namespace": namespace(out),
		"name": name(out), "uid": uid(out), "apiVersion": "batch/v1", "resourceVersion": rv(out)})
	st["lastScheduleTime"] = scheduled.UTC().Format(rfc3339)
	update = true
	return wait()
}

// jobFromTemplate is getJobFromTemplate2.
func (m *Manager) jobFromTemplate(cj obj, jobName string, scheduled time.Time) (obj, error) {
	tmpl := child(cj, "spec", "jobTemplate")
	loc := time.UTC
	if tz, ok := child(cj, "spec")["timeZone"].(string); ok {
		l, err := time.LoadLocation(tz)
		if err != nil {
			return nil, err
		}
		loc = l
	}
	labels := obj{}
	for k, v := range child(tmpl, "metadata", "labels") {
		labels[k] = v
	}
	annotations := obj{}
	for k, v := range child(tmpl, "metadata", "annotations") {
		annotations[k] = v
	}
	annotations[cronJobScheduledTimestamp] = scheduled.In(loc).Format(time.RFC3339)
	md := obj{"name": jobName, "namespace": namespace(cj), "annotations": annotations,
		"ownerReferences": []any{controllerRef(cj, "batch/v1", "CronJob")}}
	if len(labels) > 0 {
		md["labels"] = labels
	}
	spec, _ := copyAny(child(tmpl, "spec")).(map[string]any)
	if spec == nil {
		spec = obj{}
	}
	return obj{"apiVersion": "batch/v1", "kind": "Job", "metadata": md, "spec": spec}, nil
}

// deleteCronJobJob is deleteJob: a background delete, the active entry
// dropped, "Deleted job NAME".
func (m *Manager) deleteCronJobJob(cj, st, j obj) bool {
	body := obj{"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": "Background"}
	_, err := m.cm.do(m.ctx, http.MethodDelete, kJobs.path(namespace(j), name(j), ""), ctJSON, body)
	if err != nil && !isCode(err, http.StatusNotFound) {
		m.record(cj, kCronJobs, cronJobController, "Warning", "FailedDelete", "Deleted job: "+errMessage(err))
		return false
	}
	deleteFromActiveList(st, uid(j))
	m.record(cj, kCronJobs, cronJobController, "Normal", "SuccessfulDelete", "Deleted job "+name(j))
	return true
}

// cleanupFinishedJobs removes the oldest finished Jobs beyond
// successfulJobsHistoryLimit / failedJobsHistoryLimit (both defaulted to
// 3 and 1 by the API server).
func (m *Manager) cleanupFinishedJobs(cj, st obj, jobs []obj) bool {
	spec := child(cj, "spec")
	okLimit, hasOK := num(spec, "successfulJobsHistoryLimit")
	failLimit, hasFail := num(spec, "failedJobsHistoryLimit")
	var succeeded, failed []obj
	for _, j := range jobs {
		switch finishedCondition(j) {
		case "Complete":
			succeeded = append(succeeded, j)
		case "Failed":
			failed = append(failed, j)
		}
	}
	update := false
	if hasOK && m.removeOldestJobs(cj, st, succeeded, okLimit) {
		update = true
	}
	if hasFail && m.removeOldestJobs(cj, st, failed, failLimit) {
		update = true
	}
	return update
}

func (m *Manager) removeOldestJobs(cj, st obj, js []obj, max int64) bool {
	n := len(js) - int(max)
	if n <= 0 {
		return false
	}
	n = min(n, len(js)) // a negative limit (never valid) deletes them all
	// byJobStartTime: jobs without a startTime last, then by name
	sort.SliceStable(js, func(a, b int) bool {
		sa, sb := str(js[a], "status", "startTime"), str(js[b], "status", "startTime")
		switch {
		case sa == "" && sb != "":
			return false
		case sa != "" && sb == "":
			return true
		case sa == sb:
			return name(js[a]) < name(js[b])
		}
		return sa < sb
	})
	update := false
	for i := 0; i < n; i++ {
		if m.deleteCronJobJob(cj, st, js[i]) {
			update = true
		}
	}
	return update
}

// finishedCondition is the type of the Complete or Failed condition that
// is True, or "".
func finishedCondition(j obj) string {
	for _, c := range list(j, "status", "conditions") {
		cm, _ := c.(map[string]any)
		if t := str(cm, "type"); (t == "Complete" || t == "Failed") && str(cm, "status") == "True" {
			return t
		}
	}
	return ""
}

func inActiveList(st obj, id string) bool {
	for _, a := range list(st, "active") {
		if ref, _ := a.(map[string]any); str(ref, "uid") == id {
			return true
		}
	}
	return false
}

func inActiveListByName(st obj, jobName string) bool {
	for _, a := range list(st, "active") {
		if ref, _ := a.(map[string]any); str(ref, "name") == jobName {
			return true
		}
	}
	return false
}

func deleteFromActiveList(st obj, id string) {
	var keep []any
	for _, a := range list(st, "active") {
		if ref, _ := a.(map[string]any); str(ref, "uid") != id {
			keep = append(keep, a)
		}
	}
	if len(keep) == 0 {
		delete(st, "active")
		return
	}
	st["active"] = keep
}

// after compares two RFC 3339 timestamps.
func after(a, b string) bool {
	ta, err1 := time.Parse(time.RFC3339, a)
	tb, err2 := time.Parse(time.RFC3339, b)
	return err1 == nil && err2 == nil && ta.After(tb)
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
