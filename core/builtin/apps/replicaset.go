package apps

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateReplicaSet is ValidateReplicaSet / ValidateReplicaSetUpdate.
func ValidateReplicaSet(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	errs := NonNegative(Int(spec, "replicas"), p.Child("replicas"))
	errs = append(errs, NonNegative(Int(spec, "minReadySeconds"), p.Child("minReadySeconds"))...)
	selErrs, sel, ok := validateSelector(spec, "deployment", p.Child("selector"))
	errs = append(errs, selErrs...)
	if !ok {
		errs = append(errs, field.Invalid(p.Child("selector"), SelectorValue(Obj(spec, "selector")), "invalid label selector"))
	} else {
		errs = append(errs, validateTemplateForReplicaSet(Obj(spec, "template"), sel, "ReplicaSet", p.Child("template"))...)
	}
	if old != nil {
		errs = append(errs, immutable(spec["selector"], Obj(old, "spec")["selector"], selectorRender, p.Child("selector"))...)
		errs = append(errs, validateReplicaSetStatus(Obj(obj, "status"))...)
	}
	return errs
}
