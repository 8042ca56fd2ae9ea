package controllers_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/controllers"
)

const cronjobs = "/apis/batch/v1/namespaces/default/cronjobs"
const jobs = "/apis/batch/v1/namespaces/default/jobs"

func cronJob(name, schedule string, spec m) m {
	s := m{"schedule": schedule, "jobTemplate": m{
		"metadata": m{"labels": m{"team": "a"}, "annotations": m{"note": "x"}},
		"spec": m{"template": m{"spec": m{"restartPolicy": "Never",
			"containers": []any{m{"name": "c", "image": "busybox"}}}}}}}
	for k, v := range spec {
		s[k] = v
	}
	return m{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": m{"name": name}, "spec": s}
}

// jobName is the Job the controller names for a schedule time.
func jobName(cj string, t time.Time) string { return fmt.Sprintf("%s-%d", cj, t.Unix()/60) }

func (e *env) jobNames() []string {
	var out []string
	for _, j := range e.items(jobs) {
		out = append(out, gets(j, "metadata", "name"))
	}
	return out
}

func TestCronJob(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 30, 0, time.UTC)
	min := func(n int) time.Time { return t0.Truncate(time.Minute).Add(time.Duration(n) * time.Minute) }
	at := func(n int) time.Time { return min(n).Add(200 * time.Millisecond) }

	t.Run("creates the Job of each schedule time and sees it complete", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 1})
		e.must(201, "POST", cronjobs, "application/json", cronJob("hello", "*/1 * * * *", nil))
		e.idle()
		if n := e.jobNames(); len(n) != 0 {
			t.Fatalf("jobs before the first schedule time: %v", n)
		}
		e.advance(clk, at(1))
		name := jobName("hello", min(1))
		j := e.must(200, "GET", jobs+"/"+name, "", nil)
		if got := gets(j, "metadata", "annotations", "batch.kubernetes.io/cronjob-scheduled-timestamp"); got != "2026-01-01T10:01:00Z" {
			t.Errorf("scheduled-timestamp = %q", got)
		}
		if gets(j, "metadata", "annotations", "note") != "x" || gets(j, "metadata", "labels", "team") != "a" {
			t.Errorf("template metadata not copied: %v", j["metadata"])
		}
		refs, _ := get(j, "metadata", "ownerReferences").([]any)
		if len(refs) != 1 || gets(refs[0], "kind") != "CronJob" || gets(refs[0], "name") != "hello" || get(refs[0], "controller") != true {
			t.Errorf("ownerReferences = %v", refs)
		}
		e.eventually("job complete, cronjob status", func() (bool, string) {
			cj := e.must(200, "GET", cronjobs+"/hello", "", nil)
			return get(cj, "status", "active") == nil && gets(cj, "status", "lastSuccessfulTime") != "" &&
				gets(cj, "status", "lastScheduleTime") == "2026-01-01T10:01:00Z", fmt.Sprint(cj["status"])
		})
		e.idle()
		evs := strings.Join(e.eventsFor("default", "hello"), "\n")
		for _, want := range []string{"SuccessfulCreate: Created job " + name,
			"SawCompletedJob: Saw completed job: " + name + ", condition: Complete"} {
			if !strings.Contains(evs, want) {
				t.Errorf("events lack %q:\n%s", want, evs)
			}
		}
		e.advance(clk, at(2))
		if n := e.jobNames(); len(n) != 2 || n[1] != jobName("hello", min(2)) {
			t.Errorf("jobs after the second minute: %v", n)
		}
	})

	t.Run("active list while the Job runs", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0}) // pods stay Pending
		e.must(201, "POST", cronjobs, "application/json", cronJob("run", "*/1 * * * *", nil))
		e.advance(clk, at(1))
		cj := e.must(200, "GET", cronjobs+"/run", "", nil)
		act, _ := get(cj, "status", "active").([]any)
		if len(act) != 1 || gets(act[0], "name") != jobName("run", min(1)) || gets(act[0], "kind") != "Job" || gets(act[0], "uid") == "" {
			t.Errorf("status.active = %v", act)
		}
	})

	for _, c := range []struct {
		policy   string
		wantJobs []int // minutes whose Jobs exist after minute 2
		wantEv   string
	}{
		{"Allow", []int{1, 2}, "SuccessfulCreate: Created job " + jobName("c", min(2))},
		{"Forbid", []int{1}, "JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid"},
		{"Replace", []int{2}, "SuccessfulDelete: Deleted job " + jobName("c", min(1))},
	} {
		t.Run("concurrencyPolicy "+c.policy, func(t *testing.T) {
			e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
			e.must(201, "POST", cronjobs, "application/json", cronJob("c", "*/1 * * * *", m{"concurrencyPolicy": c.policy}))
			e.advance(clk, at(1))
			e.advance(clk, at(2))
			var want []string
			for _, n := range c.wantJobs {
				want = append(want, jobName("c", min(n)))
			}
			// a replaced Job may still be there, being deleted: count the live ones
			var live []string
			for _, j := range e.items(jobs) {
				if gets(j, "metadata", "deletionTimestamp") == "" {
					live = append(live, gets(j, "metadata", "name"))
				}
			}
			if strings.Join(live, ",") != strings.Join(want, ",") {
				t.Errorf("jobs = %v, want %v", live, want)
			}
			if evs := strings.Join(e.eventsFor("default", "c"), "\n"); !strings.Contains(evs, c.wantEv) {
				t.Errorf("events lack %q:\n%s", c.wantEv, evs)
			}
		})
	}

	t.Run("suspend starts nothing", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 1})
		e.must(201, "POST", cronjobs, "application/json", cronJob("s", "*/1 * * * *", m{"suspend": true}))
		e.advance(clk, at(3))
		e.must(200, "PATCH", cronjobs+"/s", "application/merge-patch+json", m{"spec": m{"suspend": false}})
		e.idle()
		// resumed: the most recent missed time (minute 3) is started
		if n := e.jobNames(); len(n) != 1 || n[0] != jobName("s", min(3)) {
			t.Errorf("jobs = %v", n)
		}
	})

	t.Run("startingDeadlineSeconds skips a start missed by more", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", cronjobs, "application/json", cronJob("late", "*/5 * * * *", m{"startingDeadlineSeconds": 10}))
		e.advance(clk, min(5).Add(30*time.Second)) // 25 s past the deadline of 10:05
		if n := e.jobNames(); len(n) != 0 {
			t.Errorf("jobs = %v, want none", n)
		}
		e.advance(clk, min(10).Add(5*time.Second)) // within 10 s of 10:10
		if n := e.jobNames(); len(n) != 1 || n[0] != jobName("late", min(10)) {
			t.Errorf("jobs = %v", n)
		}
	})

	t.Run("too many missed start times", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		e.must(201, "POST", cronjobs, "application/json", cronJob("many", "*/1 * * * *", nil))
		e.advance(clk, at(200))
		evs := strings.Join(e.eventsFor("default", "many"), "\n")
		if !strings.Contains(evs, "TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew") {
			t.Errorf("events:\n%s", evs)
		}
		if n := e.jobNames(); len(n) != 1 || n[0] != jobName("many", min(200)) {
			t.Errorf("jobs = %v (only the most recent time starts)", n)
		}
	})

	t.Run("successfulJobsHistoryLimit", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 1})
		e.must(201, "POST", cronjobs, "application/json", cronJob("h", "*/1 * * * *", m{"successfulJobsHistoryLimit": 1}))
		for i := 1; i <= 3; i++ {
			e.advance(clk, at(i))
			e.eventually("job complete", func() (bool, string) {
				cj := e.must(200, "GET", cronjobs+"/h", "", nil)
				return get(cj, "status", "active") == nil, fmt.Sprint(cj["status"])
			})
		}
		// the cleanup runs on the next sync: the schedule at minute 4 brings it
		e.advance(clk, min(3).Add(30*time.Second))
		e.must(200, "PATCH", cronjobs+"/h", "application/merge-patch+json", m{"metadata": m{"labels": m{"poke": "1"}}})
		e.idle()
		var live []string
		for _, j := range e.items(jobs) {
			if gets(j, "metadata", "deletionTimestamp") == "" {
				live = append(live, gets(j, "metadata", "name"))
			}
		}
		if len(live) != 1 || live[0] != jobName("h", min(3)) {
			t.Errorf("jobs kept = %v, want the newest", live)
		}
		if evs := strings.Join(e.eventsFor("default", "h"), "\n"); !strings.Contains(evs, "SuccessfulDelete: Deleted job "+jobName("h", min(1))) {
			t.Errorf("events:\n%s", evs)
		}
	})

	t.Run("timeZone", func(t *testing.T) {
		if _, err := time.LoadLocation("Asia/Tokyo"); err != nil {
			t.Skip("no time zone database on this machine")
		}
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		// 19:00 in Tokyo (UTC+9, no daylight saving) is 10:00 UTC
		e.must(201, "POST", cronjobs, "application/json", cronJob("tz", "0 19 * * *", m{"timeZone": "Asia/Tokyo"}))
		next := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
		e.advance(clk, next.Add(-time.Minute))
		if n := e.jobNames(); len(n) != 0 {
			t.Fatalf("jobs = %v before 19:00 Tokyo", n)
		}
		e.advance(clk, next.Add(time.Second))
		j := e.must(200, "GET", jobs+"/"+jobName("tz", next), "", nil)
		if got := gets(j, "metadata", "annotations", "batch.kubernetes.io/cronjob-scheduled-timestamp"); got != "2026-01-02T19:00:00+09:00" {
			t.Errorf("scheduled-timestamp = %q", got)
		}
	})
}

// TestRepeatedEventIsAggregated: a controller's same event again is the
// first Event's count+1, as client-go's EventCorrelator makes it — a Job
// made with `kubectl create job --from=cronjob/x` is reported
// "UnexpectedJob" on each sync of its CronJob, and `kubectl describe
// cronjob` shows one line "(x2 over …)", not one line per sync.
func TestRepeatedEventIsAggregated(t *testing.T) {
	e, _ := startAt(t, time.Date(2026, 1, 1, 10, 0, 30, 0, time.UTC), controllers.Options{Nodes: 0}) // the Job keeps running
	cj := e.must(201, "POST", cronjobs, "application/json", cronJob("x", "0 0 1 1 *", nil))
	e.idle()
	e.must(201, "POST", jobs, "application/json", m{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": m{"name": "manual", "ownerReferences": []any{m{"apiVersion": "batch/v1", "kind": "CronJob",
			"name": "x", "uid": gets(cj, "metadata", "uid"), "controller": true}}},
		"spec": get(cj, "spec", "jobTemplate", "spec")})
	e.idle()
	e.must(200, "PATCH", cronjobs+"/x", "application/merge-patch+json", m{"metadata": m{"labels": m{"sync": "again"}}})
	e.idle()
	var got []string
	for _, ev := range e.items("/api/v1/namespaces/default/events") {
		if gets(ev, "involvedObject", "name") == "x" && gets(ev, "reason") == "UnexpectedJob" {
			got = append(got, fmt.Sprintf("%s count=%d", gets(ev, "message"), geti(ev, "count")))
		}
	}
	want := "Saw a job that the controller did not create or forgot: manual count=2"
	if len(got) != 1 || got[0] != want {
		t.Errorf("UnexpectedJob events = %q, want [%q]", got, want)
	}
}
