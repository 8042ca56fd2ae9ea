package corev1_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
)

// A Pod's status write keeps what an old kubelet leaves out: the QoS
// class, observedGeneration, each condition's observedGeneration (by type,
// in order) and the resource claim statuses (podStatusStrategy).
func TestPreparePodStatusUpdate(t *testing.T) {
	old := `{"status":{"qosClass":"BestEffort","observedGeneration":3,"resourceClaimStatuses":[{"name":"c"}],
		"conditions":[{"type":"Ready","observedGeneration":2},{"type":"Ready","observedGeneration":3},{"type":"PodScheduled","observedGeneration":1}]}}`
	for _, c := range []struct{ name, written, want string }{
		{"what is left out is kept", `{"status":{"phase":"Pending"}}`,
			`{"status":{"phase":"Pending","qosClass":"BestEffort","observedGeneration":3,"resourceClaimStatuses":[{"name":"c"}]}}`},
		{"what is written wins", `{"status":{"qosClass":"Burstable","observedGeneration":4,"resourceClaimStatuses":[]}}`,
			`{"status":{"qosClass":"Burstable","observedGeneration":4,"resourceClaimStatuses":[]}}`},
		{"conditions take the stored generations by type and order", `{"status":{"qosClass":"BestEffort","observedGeneration":3,"resourceClaimStatuses":[],
			"conditions":[{"type":"Ready"},{"type":"Ready","observedGeneration":5},{"type":"Initialized"},{"type":"PodScheduled"}]}}`,
			`{"status":{"qosClass":"BestEffort","observedGeneration":3,"resourceClaimStatuses":[],
			"conditions":[{"type":"Ready","observedGeneration":2},{"type":"Ready","observedGeneration":5},{"type":"Initialized"},{"type":"PodScheduled","observedGeneration":1}]}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			obj, o, want := decode(t, c.written), decode(t, old), decode(t, c.want)
			corev1.PreparePodStatusUpdate(obj, o, "2026-01-01T00:00:00Z")
			if !reflect.DeepEqual(obj, want) {
				got, _ := json.Marshal(obj)
				t.Errorf("got %s", got)
			}
		})
	}
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
