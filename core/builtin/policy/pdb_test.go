package policy_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidatePodDisruptionBudget(t *testing.T) {
	pdb := func(spec string) string {
		return `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"p","namespace":"default"},"spec":` + spec + `}`
	}
	vtest.Run(t, "policy", "poddisruptionbudgets", []vtest.Case{
		{Name: "min available", Obj: pdb(`{"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}}}`)},
		{Name: "both bounds", Obj: pdb(`{"minAvailable":1,"maxUnavailable":"150%"}`), Want: []string{
			`spec: Invalid value: {"MinAvailable":1,"Selector":null,"MaxUnavailable":"150%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`,
			`spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%`}},
		{Name: "unknown eviction policy", Obj: pdb(`{"unhealthyPodEvictionPolicy":"Never"}`), Want: []string{
			`spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`}},
	})
}
