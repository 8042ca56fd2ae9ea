// Package apps validates the apps/v1 kinds (Deployment, ReplicaSet,
// StatefulSet, DaemonSet) as kube-apiserver v1.37.2 does
// (k8s.io/kubernetes pkg/apis/apps/validation), over decoded and defaulted
// JSON objects. Each ValidateXxx(obj, old) leaves out the metadata checks
// the generic server makes before it (ObjectMeta on create,
// ObjectMetaUpdate on update); old is nil on create.
package apps

import (
	"encoding/json"
	"reflect"
	"strconv"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// percentValue is getPercentValue: "25%" → 25.
func percentValue(v any) (int64, bool) {
	s, ok := v.(string)
	if !ok || len(IsValidPercent(s)) > 0 {
		return 0, false
	}
	n, _ := strconv.ParseInt(s[:len(s)-1], 10, 64)
	return n, true
}

// intOrPercent is getIntOrPercentValue (a non-numeric string reads as 0,
// as IntValue does).
func intOrPercent(v any) int64 {
	if n, ok := percentValue(v); ok {
		return n
	}
	if s, ok := v.(string); ok {
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	n, _ := AsInt(v)
	return n
}

// validatePositiveIntOrPercent is ValidatePositiveIntOrPercent.
func validatePositiveIntOrPercent(v any, p *field.Path) field.ErrorList {
	if s, ok := v.(string); ok {
		var errs field.ErrorList
		for _, m := range IsValidPercent(s) {
			errs = append(errs, field.Invalid(p, s, m))
		}
		return errs
	}
	n, _ := AsInt(v)
	return NonNegative(n, p)
}

// notMoreThan100Percent is IsNotMoreThan100Percent.
func notMoreThan100Percent(v any, p *field.Path) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{field.Invalid(p, v, "must not be greater than 100%")}
	}
	return nil
}

// intOrStringJSON renders an IntOrString as encoding/json does.
func intOrStringJSON(v any) string {
	if v == nil {
		return "0"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// validateSelector is the selector part of the Deployment and ReplicaSet
// spec checks: required, strict, not empty; it returns the parsed selector
// when it converts.
func validateSelector(spec map[string]any, kind string, p *field.Path) (field.ErrorList, Selector, bool) {
	var errs field.ErrorList
	sel := Obj(spec, "selector")
	if sel == nil {
		errs = append(errs, field.Required(p, ""))
	} else {
		errs = append(errs, ValidateLabelSelector(sel, p)...)
		if len(Obj(sel, "matchLabels"))+len(List(sel, "matchExpressions")) == 0 {
			errs = append(errs, field.Invalid(p, SelectorValue(sel), "empty selector is invalid for "+kind))
		}
	}
	s, ok := AsSelector(sel)
	return errs, s, ok
}

// validateTemplateForReplicaSet is ValidatePodTemplateSpecForReplicaSet
// (kind names the owner in the activeDeadlineSeconds message).
func validateTemplateForReplicaSet(tmpl map[string]any, sel Selector, kind string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	labels := StrMap(Obj(tmpl, "metadata"), "labels")
	if !sel.Empty() && !sel.Matches(labels) {
		errs = append(errs, field.Invalid(p.Child("metadata", "labels"), LabelsValue(labels), "`selector` does not match template `labels`"))
	}
	errs = append(errs, corev1.ValidatePodTemplateSpec(tmpl, p)...)
	errs = append(errs, alwaysRestart(tmpl, kind, p)...)
	return errs
}

// alwaysRestart: a controller's pods restart Always and have no deadline.
func alwaysRestart(tmpl map[string]any, kind string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	spec := Obj(tmpl, "spec")
	if rp := Str(spec, "restartPolicy"); rp != "Always" {
		errs = append(errs, field.NotSupported(p.Child("spec", "restartPolicy"), rp, []string{"Always"}))
	}
	if Has(spec, "activeDeadlineSeconds") {
		errs = append(errs, field.Forbidden(p.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}

// immutable is ValidateImmutableField; render gives the bad value.
func immutable(nv, ov any, render func(any) any, p *field.Path) field.ErrorList {
	if reflect.DeepEqual(nv, ov) {
		return nil
	}
	return field.ErrorList{field.Invalid(p, render(nv), FieldImmutableErrorMsg)}
}

func selectorRender(v any) any {
	m, _ := v.(map[string]any)
	return SelectorValue(m)
}

// ValidatePositiveIntOrPercent is ValidatePositiveIntOrPercent (a PDB's
// minAvailable and maxUnavailable use it too).
func ValidatePositiveIntOrPercent(v any, p *field.Path) field.ErrorList {
	return validatePositiveIntOrPercent(v, p)
}

// IsNotMoreThan100Percent is IsNotMoreThan100Percent.
func IsNotMoreThan100Percent(v any, p *field.Path) field.ErrorList {
	return notMoreThan100Percent(v, p)
}
