package builtin

import (
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// podStatus is printPod's STATUS column (pkg/printers/internalversion).
func TestPodStatusColumn(t *testing.T) {
	for _, c := range []struct{ name, pod, want string }{
		{"pending, nothing yet", `{"status":{"phase":"Pending"}}`, "Pending"},
		{"creating", `{"status":{"phase":"Pending","containerStatuses":[{"state":{"waiting":{"reason":"ContainerCreating"}}}]}}`, "ContainerCreating"},
		{"running", `{"status":{"phase":"Running","containerStatuses":[{"ready":true,"state":{"running":{}}}]}}`, "Running"},
		{"job done", `{"status":{"phase":"Succeeded","containerStatuses":[{"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}`, "Completed"},
		{"failed without reason", `{"status":{"phase":"Failed","containerStatuses":[{"state":{"terminated":{"exitCode":2}}}]}}`, "ExitCode:2"},
		{"completed beside a running one, not ready", `{"status":{"phase":"Running","containerStatuses":[{"ready":true,"state":{"running":{}}},{"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}`, "NotReady"},
		{"init running", `{"spec":{"initContainers":[{"name":"i"}]},"status":{"phase":"Pending","initContainerStatuses":[{"name":"i","state":{"running":{}}}],"containerStatuses":[{"state":{"waiting":{"reason":"PodInitializing"}}}]}}`, "Init:0/1"},
		{"init pull failing", `{"spec":{"initContainers":[{"name":"i"}]},"status":{"phase":"Pending","initContainerStatuses":[{"name":"i","state":{"waiting":{"reason":"ErrImagePull"}}}]}}`, "Init:ErrImagePull"},
		{"deleting", `{"metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Running"}}`, "Terminating"},
		{"deleting, finished", `{"metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z"},"status":{"phase":"Succeeded","containerStatuses":[{"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]}}`, "Completed"},
		{"gated", `{"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]}}`, "SchedulingGated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.pod))
			if err != nil {
				t.Fatal(err)
			}
			if got := podStatus(o, time.Time{}); got != c.want {
				t.Errorf("got %v, want %s", got, c.want)
			}
		})
	}
}
