package apps

import (
	"encoding/json"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateDaemonSet is ValidateDaemonSet / ValidateDaemonSetUpdate. (The
// internal templateGeneration checks of the update have no v1 field to
// fail on: the strategy keeps it in step.)
func ValidateDaemonSet(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, immutable(spec["selector"], Obj(old, "spec")["selector"], selectorRender, p.Child("selector"))...)
	}
	errs = append(errs, validateDaemonSetSpec(spec, p)...)
	if old != nil {
		errs = append(errs, validateDaemonSetStatus(Obj(obj, "status"))...)
	}
	return errs
}

func validateDaemonSetSpec(spec map[string]any, p *field.Path) field.ErrorList {
	sel := Obj(spec, "selector")
	errs := ValidateLabelSelector(sel, p.Child("selector"))
	tmpl := Obj(spec, "template")
	labels := StrMap(Obj(tmpl, "metadata"), "labels")
	if s, ok := AsSelector(sel); ok && !s.Matches(labels) {
		errs = append(errs, field.Invalid(p.Child("template", "metadata", "labels"), LabelsValue(labels), "`selector` does not match template `labels`"))
	}
	if sel != nil && len(Obj(sel, "matchLabels"))+len(List(sel, "matchExpressions")) == 0 {
		errs = append(errs, field.Invalid(p.Child("selector"), SelectorValue(sel), "empty selector is invalid for daemonset"))
	}
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	errs = append(errs, corev1.ValidatePodTemplateSpec(tmpl, p.Child("template"))...)
	errs = append(errs, alwaysRestart(tmpl, "DaemonSet", p.Child("template"))...)
	errs = append(errs, NonNegative(Int(spec, "minReadySeconds"), p.Child("minReadySeconds"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(Obj(spec, "updateStrategy"), p.Child("updateStrategy"))...)
	if v, ok := IntOK(spec, "revisionHistoryLimit"); ok {
		errs = append(errs, NonNegative(v, p.Child("revisionHistoryLimit"))...)
	}
	return errs
}

func validateDaemonSetUpdateStrategy(st map[string]any, p *field.Path) field.ErrorList {
	ru := Obj(st, "rollingUpdate")
	switch t := Str(st, "type"); t {
	case "OnDelete":
		return nil
	case "RollingUpdate":
		if ru == nil {
			return field.ErrorList{field.Required(p.Child("rollingUpdate"), "")}
		}
		rp := p.Child("rollingUpdate")
		mu, ms := ru["maxUnavailable"], ru["maxSurge"]
		errs := validatePositiveIntOrPercent(mu, rp.Child("maxUnavailable"))
		errs = append(errs, validatePositiveIntOrPercent(ms, rp.Child("maxSurge"))...)
		errs = append(errs, notMoreThan100Percent(mu, rp.Child("maxUnavailable"))...)
		errs = append(errs, notMoreThan100Percent(ms, rp.Child("maxSurge"))...)
		hasU, hasS := intOrPercent(mu) != 0, intOrPercent(ms) != 0
		switch {
		case hasU && hasS:
			errs = append(errs, field.Invalid(rp.Child("maxSurge"), intOrStringValue(ms), "may not be set when maxUnavailable is non-zero"))
		case !hasU && !hasS:
			errs = append(errs, field.Required(rp.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
		}
		return errs
	default:
		v := `{"Type":` + field.FormatValue(t) + `,"RollingUpdate":null}`
		if ru != nil {
			v = `{"Type":` + field.FormatValue(t) + `,"RollingUpdate":{"MaxUnavailable":` + intOrStringJSON(ru["maxUnavailable"]) +
				`,"MaxSurge":` + intOrStringJSON(ru["maxSurge"]) + `}}`
		}
		return field.ErrorList{field.NotSupported(p, json.RawMessage(v), []string{"RollingUpdate", "OnDelete"})}
	}
}
