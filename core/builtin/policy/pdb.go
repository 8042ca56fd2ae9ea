// Package policy validates policy/v1 PodDisruptionBudgets as
// kube-apiserver v1.37.2 does (k8s.io/kubernetes pkg/apis/policy/validation
// and pkg/registry/policy/poddisruptionbudget), over decoded JSON.
package policy

import (
	"encoding/json"

	"github.com/kubesandbox/kubesandbox/core/builtin/apps"
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidatePodDisruptionBudget is ValidatePodDisruptionBudget on create and
// update (the update keeps an already invalid selector value acceptable).
//
//	spec: {minAvailable: 1, maxUnavailable: 1} → spec: Invalid value: {"MinAvailable":1,...}: minAvailable and maxUnavailable cannot be both set
func ValidatePodDisruptionBudget(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	var errs field.ErrorList
	if Has(spec, "minAvailable") && Has(spec, "maxUnavailable") {
		errs = append(errs, field.Invalid(p, specValue(spec), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, k := range []string{"minAvailable", "maxUnavailable"} {
		if Has(spec, k) {
			errs = append(errs, apps.ValidatePositiveIntOrPercent(spec[k], p.Child(k))...)
			errs = append(errs, apps.IsNotMoreThan100Percent(spec[k], p.Child(k))...)
		}
	}
	lax := old != nil && Has(Obj(old, "spec"), "selector") &&
		len(ValidateLabelSelector(Obj(Obj(old, "spec"), "selector"), p)) > 0
	if lax {
		errs = append(errs, ValidateLabelSelectorLax(Obj(spec, "selector"), p.Child("selector"))...)
	} else {
		errs = append(errs, ValidateLabelSelector(Obj(spec, "selector"), p.Child("selector"))...)
	}
	if Has(spec, "unhealthyPodEvictionPolicy") {
		if v := Str(spec, "unhealthyPodEvictionPolicy"); v != "AlwaysAllow" && v != "IfHealthyBudget" {
			errs = append(errs, field.NotSupported(p.Child("unhealthyPodEvictionPolicy"), v, []string{"AlwaysAllow", "IfHealthyBudget"}))
		}
	}
	if old == nil {
		return errs
	}
	// ValidatePodDisruptionBudgetStatusUpdate (policy/v1), on every update
	// (a write of the main resource keeps the stored status)
	st, sp := Obj(obj, "status"), field.NewPath("status")
	errs = append(errs, ValidateConditions(Objs(st, "conditions"), sp.Child("conditions"))...)
	for _, k := range []string{"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"} {
		errs = append(errs, NonNegative(Int(st, k), sp.Child(k))...)
	}
	return errs
}

// specValue renders the internal PodDisruptionBudgetSpec as encoding/json
// does (Go field names: the internal type has no JSON tags).
func specValue(spec map[string]any) json.RawMessage {
	iv := func(v any) string {
		if v == nil {
			return "null"
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	sel := "null"
	if Has(spec, "selector") {
		sel = string(SelectorValue(Obj(spec, "selector")))
	}
	return json.RawMessage(`{"MinAvailable":` + iv(spec["minAvailable"]) + `,"Selector":` + sel +
		`,"MaxUnavailable":` + iv(spec["maxUnavailable"]) + `,"UnhealthyPodEvictionPolicy":` + iv(spec["unhealthyPodEvictionPolicy"]) + `}`)
}
