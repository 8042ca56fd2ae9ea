package corev1

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateReplicationController is ValidateReplicationController(Update)
// beyond metadata, with ValidateReplicationControllerStatus on updates (a
// write of the main resource keeps the stored status, which passed it; a
// /status write is checked by it). Unlike a ReplicaSet's, the selector is a
// label set that may change. Example: {"spec":{"selector":{"app":"a"},
// "template":{"metadata":{"labels":{"app":"b"}},...}}} is
//
//	spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`
//
// The kind is validated declaratively too (rest.ValidateDeclaratively):
// the handwritten checks it covers (metadata.name, spec.replicas,
// spec.minReadySeconds) come after the others, from the declarative
// validation, which checks a generated name only (not generateName). So the
// kind checks its metadata itself (resource.NoKindMetaChecks).
func ValidateReplicationController(obj, old map[string]any) field.ErrorList {
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	var errs, covered field.ErrorList
	mp := field.NewPath("metadata")
	if old == nil {
		for _, e := range validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, mp) {
			switch {
			case e.Field == "metadata.generateName":
			case e.Field == "metadata.name" && e.Type != field.TypeRequired:
				covered = append(covered, e)
			default:
				errs = append(errs, e)
			}
		}
	} else {
		// ValidateReplicationControllerUpdate's own ObjectMetaUpdate (the
		// server's BeforeUpdate runs it once more)
		errs = validation.ValidateObjectMetaUpdate(Obj(obj, "metadata"), Obj(old, "metadata"), mp)
	}
	sel := StrMap(spec, "selector")
	if len(sel) == 0 {
		errs = append(errs, field.Required(p.Child("selector"), ""))
	}
	if !Has(spec, "replicas") {
		covered = append(covered, field.Required(p.Child("replicas"), ""))
	} else {
		covered = append(covered, NonNegative(Int(spec, "replicas"), p.Child("replicas"))...)
	}
	covered = append(covered, NonNegative(Int(spec, "minReadySeconds"), p.Child("minReadySeconds"))...)
	errs = append(errs, validateTemplateForRC(Obj(spec, "template"), sel, p.Child("template"))...)
	if old != nil {
		errs = append(errs, validateRCStatus(Obj(obj, "status"))...)
	}
	return append(errs, covered...)
}

// validateTemplateForRC is ValidatePodTemplateSpecForRC.
func validateTemplateForRC(tmpl map[string]any, sel map[string]string, p *field.Path) field.ErrorList {
	if tmpl == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	labels := StrMap(Obj(tmpl, "metadata"), "labels")
	for k, v := range sel {
		if w, ok := labels[k]; !ok || w != v {
			errs = append(errs, field.Invalid(p.Child("metadata", "labels"), LabelsValue(labels), "`selector` does not match template `labels`"))
			break
		}
	}
	errs = append(errs, ValidatePodTemplateSpec(tmpl, p)...)
	ps := Obj(tmpl, "spec")
	if rp := Str(ps, "restartPolicy"); rp != "Always" {
		errs = append(errs, field.NotSupported(p.Child("spec", "restartPolicy"), rp, []string{"Always"}))
	}
	if Has(ps, "activeDeadlineSeconds") {
		errs = append(errs, field.Forbidden(p.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicationController is not Supported"))
	}
	return errs
}

// validateRCStatus is ValidateReplicationControllerStatus.
func validateRCStatus(status map[string]any) field.ErrorList {
	p := field.NewPath("status")
	var errs field.ErrorList
	for _, n := range []string{"replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"} {
		errs = append(errs, NonNegative(Int(status, n), p.Child(n))...)
	}
	replicas := Int(status, "replicas")
	for _, n := range []string{"fullyLabeledReplicas", "readyReplicas", "availableReplicas"} {
		if v := Int(status, n); v > replicas {
			errs = append(errs, field.Invalid(p.Child(n), v, "cannot be greater than status.replicas"))
		}
	}
	if a := Int(status, "availableReplicas"); a > Int(status, "readyReplicas") {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), a, "cannot be greater than readyReplicas"))
	}
	return errs
}
