package autoscaling_test

import (
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/autoscaling"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	m, err := jsonx.DecodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The v1 view of stored v2 objects: the annotation texts are those
// kube-apiserver v1.37.2 answered for the same v2 object (behavior is the
// internal Go struct's JSON), and converting back gives the stored object
// (the CPU target comes back after the annotation's metrics, as in kube).
func TestHPAConversion(t *testing.T) {
	const ref = `"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}`
	for _, c := range []struct {
		name, v2, wantSpec, wantStatus string
		wantAnn                        map[string]any
	}{
		{name: "the CPU target only", v2: `{"spec":{` + ref + `,"minReplicas":1,"maxReplicas":5,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]},"status":{"desiredReplicas":0,"currentMetrics":null}}`,
			wantSpec: `{` + ref + `,"minReplicas":1,"maxReplicas":5,"targetCPUUtilizationPercentage":80}`, wantStatus: `{"currentReplicas":0,"desiredReplicas":0}`},
		{name: "memory and behavior in annotations",
			v2: `{"metadata":{"annotations":{"team":"a"}},"spec":{` + ref + `,"minReplicas":1,"maxReplicas":5,"metrics":[
				{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}},
				{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}],
				"behavior":{"scaleUp":{"stabilizationWindowSeconds":0,"selectPolicy":"Max","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]},
				"scaleDown":{"stabilizationWindowSeconds":60,"selectPolicy":"Max","policies":[{"type":"Percent","value":100,"periodSeconds":15}]}}},
				"status":{"currentReplicas":2,"desiredReplicas":3,"currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageUtilization":40,"averageValue":"200m"}}}],
				"conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"ok"}]}}`,
			wantSpec:   `{` + ref + `,"minReplicas":1,"maxReplicas":5,"targetCPUUtilizationPercentage":50}`,
			wantStatus: `{"currentReplicas":2,"desiredReplicas":3,"currentCPUUtilizationPercentage":40}`,
			wantAnn: map[string]any{"team": "a",
				"autoscaling.alpha.kubernetes.io/metrics":         `[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]`,
				"autoscaling.alpha.kubernetes.io/behavior":        `{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}`,
				"autoscaling.alpha.kubernetes.io/current-metrics": `[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"200m"}}]`,
				"autoscaling.alpha.kubernetes.io/conditions":      `[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"ok"}]`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stored := decode(t, `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler",`+c.v2[1:])
			if _, ok := stored["metadata"]; !ok {
				stored["metadata"] = map[string]any{}
			}
			v1 := autoscaling.HPAToV1(jsonx.CopyObject(stored))
			if !reflect.DeepEqual(v1["spec"], decode(t, c.wantSpec)) {
				t.Errorf("v1 spec %v, want %s", v1["spec"], c.wantSpec)
			}
			if !reflect.DeepEqual(v1["status"], decode(t, c.wantStatus)) {
				t.Errorf("v1 status %v, want %s", v1["status"], c.wantStatus)
			}
			ann, _ := v1["metadata"].(map[string]any)["annotations"].(map[string]any)
			if len(ann) != len(c.wantAnn) {
				t.Errorf("annotations %v, want %v", ann, c.wantAnn)
			}
			for k, v := range c.wantAnn {
				if ann[k] != v {
					t.Errorf("annotation %s:\n got %v\nwant %v", k, ann[k], v)
				}
			}
			back := autoscaling.HPAToV2(v1)
			if !reflect.DeepEqual(back, stored) {
				b1, _ := jsonx.Marshal(back)
				b2, _ := jsonx.Marshal(stored)
				t.Errorf("round trip\n got %s\nwant %s", b1, b2)
			}
		})
	}
}
