package apiserver

import (
	"strings"
	"testing"
	"time"
)

// A PersistentVolume's status write stamps status.lastPhaseTransitionTime
// with the server's clock when the phase changes and the write names no
// time of its own (none, or the stored one), and keeps the stored time when
// the phase stays and the write names none (kube's pv status strategy).
func TestPVStatusPhaseTransitionTime(t *testing.T) {
	const (
		pv    = "/api/v1/persistentvolumes/v"
		merge = "application/merge-patch+json"
		then  = "2020-01-02T03:04:05Z"
	)
	clock := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	now := clock.Format(time.RFC3339)
	for _, c := range []struct {
		name, patch, phase, want string
	}{
		{"new phase, no time: now", `{"status":{"phase":"Available","lastPhaseTransitionTime":null}}`, "Available", now},
		{"new phase, the stored time: now", `{"status":{"phase":"Available"}}`, "Available", now},
		{"new phase, its own time: kept", `{"status":{"phase":"Available","lastPhaseTransitionTime":"2021-01-01T00:00:00Z"}}`, "Available", "2021-01-01T00:00:00Z"},
		{"same phase, no time: the stored one", `{"status":{"message":"m","lastPhaseTransitionTime":null}}`, "Released", then},
		{"same phase, its own time: kept", `{"status":{"lastPhaseTransitionTime":"2022-01-01T00:00:00Z"}}`, "Released", "2022-01-01T00:00:00Z"},
		{"no status at all: phase gone, now", `{"status":null}`, "", now},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{Now: func() time.Time { return clock }})
			mustDo(t, s, 201, "POST", "/api/v1/persistentvolumes", "application/json",
				`{"metadata":{"name":"v"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/x"}}}`)
			mustDo(t, s, 200, "PATCH", pv+"/status", merge, `{"status":{"phase":"Released","lastPhaseTransitionTime":"`+then+`"}}`)
			out := mustDo(t, s, 200, "PATCH", pv+"/status", merge, c.patch)
			st, _ := out["status"].(map[string]any)
			if st["phase"] != c.phase && !(c.phase == "" && st["phase"] == nil) {
				t.Errorf("phase %v, want %q", st["phase"], c.phase)
			}
			if st["lastPhaseTransitionTime"] != c.want {
				t.Errorf("lastPhaseTransitionTime %v, want %s", st["lastPhaseTransitionTime"], c.want)
			}
		})
	}
}

// Status writes of Nodes and PersistentVolumes are checked by their status
// strategies alone (ValidateNodeUpdate; ValidatePersistentVolumeStatusUpdate)
// and take labels and finalizers from their body, as kube-apiserver's do.
func TestNodePVStatusWrites(t *testing.T) {
	const merge = "application/merge-patch+json"
	causes := func(out map[string]any) string {
		var got []string
		d, _ := out["details"].(map[string]any)
		l, _ := d["causes"].([]any)
		for _, c := range l {
			m := c.(map[string]any)
			got = append(got, m["field"].(string)+": "+m["message"].(string))
		}
		return strings.Join(got, "\n")
	}
	for _, c := range []struct {
		name, method, path, ctype, body string
		code                            int
		want                            string // causes, or a check of the stored object
		check                           func(obj map[string]any) bool
	}{
		{"node: a negative capacity is reported once", "PATCH", "/api/v1/nodes/n/status", merge,
			`{"status":{"capacity":{"cpu":"-1"}}}`, 422,
			"status.capacity.cpu: Invalid value: \"-1\": must be greater than or equal to 0\nstatus.allocatable.cpu: Invalid value: \"-1\": must be greater than or equal to 0", nil},
		{"node: a taints annotation of the wrong JSON type", "PATCH", "/api/v1/nodes/n/status", merge,
			`{"metadata":{"annotations":{"scheduler.alpha.kubernetes.io/taints":"[{\"key\":1}]"}}}`, 422,
			`metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/taints": json: cannot unmarshal number into Go struct field Taint.Key of type string`, nil},
		{"node: a status PUT takes labels and finalizers from its body", "PUT", "/api/v1/nodes/n/status", "application/json",
			`{"apiVersion":"v1","kind":"Node","metadata":{"name":"n","labels":{"c":"d"},"finalizers":["example.com/hold"]},"spec":{"unschedulable":true}}`, 200, "",
			func(o map[string]any) bool {
				m := metaOf(o)
				spec, _ := o["spec"].(map[string]any)
				return m["labels"].(map[string]any)["c"] == "d" && m["labels"].(map[string]any)["a"] == nil &&
					len(m["finalizers"].([]any)) == 1 && spec["unschedulable"] == nil
			}},
		{"pv: the main resource's rules do not apply", "PATCH", "/api/v1/persistentvolumes/v/status", merge,
			`{"metadata":{"annotations":{"volume.beta.kubernetes.io/mount-options":"ro"}},"status":{"phase":"Bogus"}}`, 200, "",
			func(o map[string]any) bool { return o["status"].(map[string]any)["phase"] == "Bogus" }},
		{"pv: a status PUT without finalizers drops them", "PUT", "/api/v1/persistentvolumes/v/status", "application/json",
			`{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"v"},"status":{"phase":"Available"}}`, 200, "",
			func(o map[string]any) bool { return metaOf(o)["finalizers"] == nil }},
		{"pv: the main resource keeps its finalizers and rules", "PATCH", "/api/v1/persistentvolumes/v", merge,
			`{"metadata":{"annotations":{"volume.beta.kubernetes.io/mount-options":"ro"}}}`, 422,
			"metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			mustDo(t, s, 201, "POST", "/api/v1/nodes", "application/json", `{"metadata":{"name":"n","labels":{"a":"b"}}}`)
			mustDo(t, s, 201, "POST", "/api/v1/persistentvolumes", "application/json",
				`{"metadata":{"name":"v"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/x"}}}`)
			code, out := do(t, s, c.method, c.path, c.ctype, c.body)
			if code != c.code {
				t.Fatalf("%d, want %d: %v", code, c.code, out)
			}
			if got := causes(out); got != c.want {
				t.Errorf("causes:\n%s\nwant:\n%s", got, c.want)
			}
			if c.check != nil && !c.check(out) {
				t.Errorf("stored object not as expected: %v", out)
			}
		})
	}
}
