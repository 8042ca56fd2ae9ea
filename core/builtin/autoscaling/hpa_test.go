package autoscaling_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateHPA(t *testing.T) {
	hpa := func(spec string) string {
		return `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"h","namespace":"default"},"spec":` + spec + `}`
	}
	const ref = `"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}`
	vtest.Run(t, "autoscaling", "horizontalpodautoscalers", []vtest.Case{
		{Name: "defaults fill the metric", Obj: hpa(`{` + ref + `,"maxReplicas":3}`)},
		{Name: "no max, no group (the declarative causes last)", Obj: hpa(`{"scaleTargetRef":{"apiVersion":"v1","kind":"Deployment","name":"web"}}`), Want: []string{
			"spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
			`spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group`,
			"spec.maxReplicas: Required value"}},
		{Name: "scale to zero (HPAScaleToZero, beta in v1.37) needs an Object or External metric", Obj: hpa(`{` + ref + `,"minReplicas":0,"maxReplicas":3}`), Want: []string{
			"spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"}},
		{Name: "negative bounds", Obj: hpa(`{` + ref + `,"minReplicas":-1,"maxReplicas":-3}`), Want: []string{
			"spec.maxReplicas: Invalid value: -3: must be greater than or equal to `minReplicas`",
			"spec.minReplicas: Invalid value: -1: must be greater than or equal to 0",
			"spec.maxReplicas: Invalid value: -3: must be greater than or equal to 1"}},
		{Name: "an unknown metric type is reported once", Obj: hpa(`{` + ref + `,"maxReplicas":3,"metrics":[{"type":"Magic"}]}`), Want: []string{
			`spec.metrics[0].type: Unsupported value: "Magic": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`}},
		{Name: "behavior rules defaulted, one bad", Obj: hpa(`{` + ref + `,"maxReplicas":3,"behavior":{"scaleDown":{"policies":[]}}}`), Want: []string{
			"spec.behavior.scaleDown.policies: Required value: must specify at least one Policy"}},
	})
}
