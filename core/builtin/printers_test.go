package builtin

import (
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestPodRestarts: printPod's Restarts cell is text — "0" for a pod that
// never started (as a Pending pod on a cluster without Nodes shows it),
// "N (AGE ago)" after a container's last termination.
func TestPodRestarts(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	cases := []struct{ name, pod, want string }{
		{"pending", `{"status":{"phase":"Pending"}}`, "0"},
		{"running", `{"status":{"containerStatuses":[{"restartCount":0},{"restartCount":0}]}}`, "0"},
		{"restarted", `{"status":{"containerStatuses":[{"restartCount":2,"lastState":{"terminated":{"finishedAt":"2026-01-01T00:05:00Z"}}},
			{"restartCount":1,"lastState":{"terminated":{"finishedAt":"2026-01-01T00:09:30Z"}}}]}}`, "3 (30s ago)"},
		{"restarts without a finish time", `{"status":{"containerStatuses":[{"restartCount":4}]}}`, "4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.pod))
			if err != nil {
				t.Fatal(err)
			}
			if got := podRestarts(o, now); got != c.want {
				t.Errorf("podRestarts = %#v, want %q", got, c.want)
			}
		})
	}
}

// TestEventAndServiceCells: printEvent's Subobject, Source and Count and
// printService's External-IP, as the recorded Tables show them.
func TestEventAndServiceCells(t *testing.T) {
	cases := []struct {
		name string
		f    cellFunc
		obj  string
		want any
	}{
		{"subobject empty", eventSubobject, `{"involvedObject":{"kind":"Pod"}}`, ""},
		{"subobject", eventSubobject, `{"involvedObject":{"fieldPath":"spec.containers{app}"}}`, "spec.containers{app}"},
		{"source with host", eventSource, `{"source":{"component":"kubelet","host":"node-1"}}`, "kubelet, node-1"},
		{"source without host", eventSource, `{"source":{"component":"deployment-controller"}}`, "deployment-controller"},
		{"source from reporting fields", eventSource, `{"source":{},"reportingController":"example.com/puller","reportingInstance":"puller-1"}`, "example.com/puller, puller-1"},
		{"count", eventCount, `{"count":3}`, int64(3)},
		{"singleton count", eventCount, `{}`, int64(1)},
		{"series count", eventCount, `{"count":1,"series":{"count":7}}`, int64(7)},
		{"ExternalName", serviceExternalIP, `{"spec":{"type":"ExternalName","externalName":"db.example.com"}}`, "db.example.com"},
		{"ClusterIP", serviceExternalIP, `{"spec":{"type":"ClusterIP"}}`, "<none>"},
		{"LoadBalancer pending", serviceExternalIP, `{"spec":{"type":"LoadBalancer"}}`, "<pending>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.f(o, time.Time{}); got != c.want {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

// TestCronJobSuspend: printCronJob's Suspend cell is printBoolPtr's text
// (bi-job-cronjob's Table shows "True" and "False").
func TestCronJobSuspend(t *testing.T) {
	for _, c := range []struct{ name, obj, want string }{
		{"suspended", `{"spec":{"suspend":true}}`, "True"},
		{"running", `{"spec":{"suspend":false}}`, "False"},
		{"unset", `{"spec":{}}`, "<unset>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := cronJobSuspend(o, time.Time{}); got != c.want {
				t.Errorf("cronJobSuspend = %#v, want %q", got, c.want)
			}
		})
	}
}

// TestJobCells: printJob's COMPLETIONS and DURATION as kube prints them —
// a finished Job's duration is completionTime - startTime, a running one's
// the time since it started (`kubectl get job` showed an empty DURATION).
func TestJobCells(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 1, 0, 0, time.UTC)
	for _, c := range []struct{ name, obj, completions, duration string }{
		{"complete", `{"spec":{"completions":1,"parallelism":1},"status":{"succeeded":1,"startTime":"2026-01-01T10:00:00Z","completionTime":"2026-01-01T10:00:03Z"}}`, "1/1", "3s"},
		{"running", `{"spec":{"completions":3},"status":{"startTime":"2026-01-01T10:00:00Z"}}`, "0/3", "60s"},
		{"not started", `{"spec":{"completions":2}}`, "0/2", ""},
		{"work queue", `{"spec":{"parallelism":1},"status":{"succeeded":1}}`, "1/1", ""},
		{"parallel work queue", `{"spec":{"parallelism":3},"status":{"succeeded":2}}`, "2/1 of 3", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := jobCompletions(o, now); got != c.completions {
				t.Errorf("jobCompletions = %#v, want %q", got, c.completions)
			}
			if got := jobDuration(o, now); got != c.duration {
				t.Errorf("jobDuration = %#v, want %q", got, c.duration)
			}
		})
	}
}

// TestCronJobLastSchedule: LAST SCHEDULE of a CronJob that has not run yet
// is "<none>" (printCronJob), not "<unknown>".
func TestCronJobLastSchedule(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 5, 0, 0, time.UTC)
	for _, c := range []struct{ name, obj, want string }{
		{"never scheduled", `{"status":{}}`, "<none>"},
		{"no status", `{}`, "<none>"},
		{"scheduled", `{"status":{"lastScheduleTime":"2026-01-01T10:00:00Z"}}`, "5m"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := cronJobLastSchedule(o, now); got != c.want {
				t.Errorf("cronJobLastSchedule = %#v, want %q", got, c.want)
			}
		})
	}
}
