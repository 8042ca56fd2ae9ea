package apps

import (
	"encoding/json"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateDeployment is ValidateDeployment / ValidateDeploymentUpdate.
func ValidateDeployment(obj, old map[string]any) field.ErrorList {
	sp := field.NewPath("spec")
	spec := Obj(obj, "spec")
	errs := validateDeploymentSpec(spec, sp)
	if old != nil {
		errs = append(errs, immutable(spec["selector"], Obj(old, "spec")["selector"], selectorRender, sp.Child("selector"))...)
		errs = append(errs, validateDeploymentStatus(Obj(obj, "status"))...)
	}
	return errs
}

func validateDeploymentSpec(spec map[string]any, p *field.Path) field.ErrorList {
	errs := NonNegative(Int(spec, "replicas"), p.Child("replicas"))
	selErrs, sel, ok := validateSelector(spec, "deployment", p.Child("selector"))
	errs = append(errs, selErrs...)
	if !ok {
		errs = append(errs, field.Invalid(p.Child("selector"), SelectorValue(Obj(spec, "selector")), "invalid label selector"))
	} else {
		errs = append(errs, validateTemplateForReplicaSet(Obj(spec, "template"), sel, "ReplicaSet", p.Child("template"))...)
	}
	errs = append(errs, validateDeploymentStrategy(Obj(spec, "strategy"), p.Child("strategy"))...)
	errs = append(errs, NonNegative(Int(spec, "minReadySeconds"), p.Child("minReadySeconds"))...)
	if v, ok := IntOK(spec, "revisionHistoryLimit"); ok {
		errs = append(errs, NonNegative(v, p.Child("revisionHistoryLimit"))...)
	}
	if v, ok := IntOK(spec, "progressDeadlineSeconds"); ok {
		errs = append(errs, NonNegative(v, p.Child("progressDeadlineSeconds"))...)
		if v <= Int(spec, "minReadySeconds") {
			errs = append(errs, field.Invalid(p.Child("progressDeadlineSeconds"), v, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func validateDeploymentStrategy(st map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	ru := Obj(st, "rollingUpdate")
	switch t := Str(st, "type"); t {
	case "Recreate":
		if ru != nil {
			errs = append(errs, field.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case "RollingUpdate":
		if ru == nil {
			errs = append(errs, field.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil"))
			break
		}
		rp := p.Child("rollingUpdate")
		mu, ms := ru["maxUnavailable"], ru["maxSurge"]
		errs = append(errs, validatePositiveIntOrPercent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, validatePositiveIntOrPercent(ms, rp.Child("maxSurge"))...)
		if intOrPercent(mu) == 0 && intOrPercent(ms) == 0 {
			errs = append(errs, field.Invalid(rp.Child("maxUnavailable"), intOrStringValue(mu), "may not be 0 when `maxSurge` is 0"))
		}
		errs = append(errs, notMoreThan100Percent(mu, rp.Child("maxUnavailable"))...)
	default:
		// the bad value is the internal struct, which has no JSON tags
		v := `{"Type":` + field.FormatValue(t) + `,"RollingUpdate":null}`
		if ru != nil {
			v = `{"Type":` + field.FormatValue(t) + `,"RollingUpdate":{"MaxUnavailable":` + intOrStringJSON(ru["maxUnavailable"]) +
				`,"MaxSurge":` + intOrStringJSON(ru["maxSurge"]) + `}}`
		}
		errs = append(errs, field.NotSupported(p, json.RawMessage(v), []string{"Recreate", "RollingUpdate"}))
	}
	return errs
}

// intOrStringValue is an IntOrString as a bad value.
func intOrStringValue(v any) any {
	if v == nil {
		return int64(0)
	}
	return v
}
