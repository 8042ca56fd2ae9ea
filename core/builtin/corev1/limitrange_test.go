package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateLimitRange(t *testing.T) {
	lr := func(limits string) string {
		return `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"l","namespace":"default"},"spec":{"limits":` + limits + `}}`
	}
	vtest.Run(t, "", "limitranges", []vtest.Case{
		{Name: "defaults from max and min", Obj: lr(`[{"type":"Container","max":{"cpu":"2"},"min":{"cpu":"100m"}}]`)},
		{Name: "min above max", Obj: lr(`[{"type":"Container","max":{"cpu":"1"},"min":{"cpu":"2"}}]`), Want: []string{
			`spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1`,
			`spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1`,
			`spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1`}},
		{Name: "pod defaults, claim without storage", Obj: lr(`[{"type":"Pod","default":{"cpu":"1"}},{"type":"PersistentVolumeClaim"}]`), Want: []string{
			"spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
			"spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided"}},
		{Name: "a quantity that is not one", Obj: lr(`[{"type":"Container","max":{"cpu":{"x":1}},"min":{"cpu":"1"}}]`)},
	})
}
