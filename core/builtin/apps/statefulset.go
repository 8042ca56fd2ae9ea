package apps

import (
	"encoding/json"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateStatefulSet is ValidateStatefulSet / ValidateStatefulSetUpdate.
// The volumeClaimTemplates themselves (PersistentVolumeClaim specs) are not
// validated here.
func ValidateStatefulSet(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	if old == nil {
		return validateStatefulSetSpec(spec, p, false)
	}
	oldSpec := Obj(old, "spec")
	// an invalid old template is tolerated: the new one is not checked either
	skipTemplate := len(validateStatefulSetSpec(oldSpec, field.NewPath("spec"), false)) > 0
	errs := validateStatefulSetSpec(spec, p, skipTemplate)
	errs = append(errs, immutable(spec["selector"], oldSpec["selector"], selectorRender, p.Child("selector"))...)
	errs = append(errs, immutable(spec["volumeClaimTemplates"], oldSpec["volumeClaimTemplates"], func(v any) any { return v }, p.Child("volumeClaimTemplates"))...)
	errs = append(errs, immutable(Str(spec, "serviceName"), Str(oldSpec, "serviceName"), func(v any) any { return v }, p.Child("serviceName"))...)
	errs = append(errs, immutable(Str(spec, "podManagementPolicy"), Str(oldSpec, "podManagementPolicy"), func(v any) any { return v }, p.Child("podManagementPolicy"))...)
	return append(errs, validateStatefulSetStatus(Obj(obj, "status"))...)
}

func validateStatefulSetSpec(spec map[string]any, p *field.Path, skipTemplate bool) field.ErrorList {
	var errs field.ErrorList
	switch pmp := Str(spec, "podManagementPolicy"); pmp {
	case "":
		errs = append(errs, field.Required(p.Child("podManagementPolicy"), ""))
	case "OrderedReady", "Parallel":
	default:
		errs = append(errs, field.Invalid(p.Child("podManagementPolicy"), pmp, "must be 'OrderedReady' or 'Parallel'"))
	}
	us := Obj(spec, "updateStrategy")
	ru := Obj(us, "rollingUpdate")
	switch t := Str(us, "type"); t {
	case "":
		errs = append(errs, field.Required(p.Child("updateStrategy"), ""))
	case "OnDelete":
		if ru != nil {
			errs = append(errs, field.Invalid(p.Child("updateStrategy").Child("rollingUpdate"), rollingUpdateSTSValue(ru), "only allowed for updateStrategy 'RollingUpdate'"))
		}
	case "RollingUpdate":
		if ru != nil {
			rp := p.Child("updateStrategy", "rollingUpdate")
			errs = append(errs, NonNegative(Int(ru, "partition"), rp.Child("partition"))...)
			if mu, ok := ru["maxUnavailable"]; ok && mu != nil {
				errs = append(errs, validatePositiveIntOrPercent(mu, rp.Child("maxUnavailable"))...)
				if intOrPercent(mu) == 0 {
					errs = append(errs, field.Invalid(rp.Child("maxUnavailable"), mu, "cannot be 0"))
				}
				errs = append(errs, notMoreThan100Percent(mu, rp.Child("maxUnavailable"))...)
			}
		}
	default:
		v := `{"Type":` + field.FormatValue(t) + `,"RollingUpdate":` + string(rollingUpdateSTSValue(ru)) + `}`
		errs = append(errs, field.Invalid(p.Child("updateStrategy"), json.RawMessage(v), "must be 'RollingUpdate' or 'OnDelete'"))
	}
	if rp := Obj(spec, "persistentVolumeClaimRetentionPolicy"); rp != nil {
		for _, k := range []string{"whenDeleted", "whenScaled"} {
			if v := Str(rp, k); v != "Retain" && v != "Delete" {
				errs = append(errs, field.NotSupported(p.Child("persistentVolumeClaimRetentionPolicy").Child(k), v, []string{"Retain", "Delete"}))
			}
		}
	}
	errs = append(errs, NonNegative(Int(spec, "replicas"), p.Child("replicas"))...)
	errs = append(errs, NonNegative(Int(spec, "minReadySeconds"), p.Child("minReadySeconds"))...)
	if o := Obj(spec, "ordinals"); o != nil {
		errs = append(errs, NonNegative(Int(o, "start"), p.Child("ordinals.start"))...)
	}
	if sn := Str(spec, "serviceName"); sn != "" {
		for _, m := range validation.IsDNS1123Label(sn) {
			errs = append(errs, field.Invalid(p.Child("serviceName"), sn, m))
		}
	}
	sel := Obj(spec, "selector")
	if sel == nil {
		errs = append(errs, field.Required(p.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(sel, p.Child("selector"))...)
		if len(Obj(sel, "matchLabels"))+len(List(sel, "matchExpressions")) == 0 {
			errs = append(errs, field.Invalid(p.Child("selector"), SelectorValue(sel), "empty selector is invalid for statefulset"))
		}
	}
	tmpl := Obj(spec, "template")
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	if s, ok := AsSelector(sel); !ok {
		errs = append(errs, field.Invalid(p.Child("selector"), SelectorValue(sel), ""))
	} else {
		tp := p.Child("template")
		labels := StrMap(Obj(tmpl, "metadata"), "labels")
		if !s.Empty() && !s.Matches(labels) {
			errs = append(errs, field.Invalid(tp.Child("metadata", "labels"), LabelsValue(labels), "`selector` does not match template `labels`"))
		}
		if !skipTemplate {
			errs = append(errs, corev1.ValidatePodTemplateSpec(templateToValidate(spec, tmpl), tp)...)
		}
		errs = append(errs, ValidateLabels(labels, tp.Child("labels"))...)
		errs = append(errs, validation.ValidateAnnotations(StrMap(Obj(tmpl, "metadata"), "annotations"), tp.Child("annotations"))...)
	}
	errs = append(errs, alwaysRestart(tmpl, "StatefulSet", p.Child("template"))...)
	return errs
}

// templateToValidate: hostname and subdomain are the controller's, and
// every volumeClaimTemplate is a volume of the pods.
func templateToValidate(spec, tmpl map[string]any) map[string]any {
	vcts := Objs(spec, "volumeClaimTemplates")
	ts := Obj(tmpl, "spec")
	if Str(ts, "hostname") == "" && Str(ts, "subdomain") == "" && len(vcts) == 0 {
		return tmpl
	}
	t := jsonx.CopyObject(tmpl)
	ts = jsonx.CopyObject(ts)
	if ts == nil {
		ts = map[string]any{}
	}
	t["spec"] = ts
	delete(ts, "hostname")
	delete(ts, "subdomain")
	if len(vcts) > 0 {
		claimed := map[string]bool{}
		var vols []any
		for _, c := range vcts {
			name := Str(Obj(c, "metadata"), "name")
			if claimed[name] {
				continue
			}
			claimed[name] = true
			vols = append(vols, map[string]any{"name": name, "persistentVolumeClaim": map[string]any{"claimName": name}})
		}
		for _, v := range List(ts, "volumes") {
			if m, ok := v.(map[string]any); !ok || !claimed[Str(m, "name")] {
				vols = append(vols, v)
			}
		}
		ts["volumes"] = vols
	}
	return t
}

// rollingUpdateSTSValue renders the internal RollingUpdateStatefulSetStrategy.
func rollingUpdateSTSValue(ru map[string]any) json.RawMessage {
	if ru == nil {
		return json.RawMessage("null")
	}
	mu := "null"
	if v, ok := ru["maxUnavailable"]; ok && v != nil {
		mu = intOrStringJSON(v)
	}
	return json.RawMessage(`{"Partition":` + field.FormatValue(Int(ru, "partition")) + `,"MaxUnavailable":` + mu + `}`)
}
