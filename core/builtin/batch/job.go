// Package batch validates the batch/v1 kinds (Job, CronJob) as
// kube-apiserver v1.37.2 does (k8s.io/kubernetes pkg/apis/batch/validation)
// (the job strategy's selector generation is core/builtin's prepareJobCreate,
// checked against recorded transcripts). As in the other kind
// packages, ValidateXxx(obj, old) leaves out the metadata checks the
// generic server has made before it; old is nil on create.
//
// Not reproduced: the podFailurePolicy and successPolicy rule details,
// spec.scheduling (gang scheduling), and status validation.
package batch

import (
	"fmt"
	"reflect"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/gotypes"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

const (
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
	jobNameLabel             = "batch.kubernetes.io/job-name"
	controllerUIDLabel       = "batch.kubernetes.io/controller-uid"

	maxParallelismForIndexedJob = 100000
)

// ensureObj returns m[k] as an object, creating it when absent or null.
func ensureObj(m map[string]any, k string) map[string]any {
	if m == nil {
		return nil
	}
	switch v := m[k].(type) {
	case map[string]any:
		return v
	case nil:
		c := map[string]any{}
		m[k] = c
		return c
	}
	return nil
}

// ValidateJob is ValidateJobCreate / ValidateJobUpdate.
func ValidateJob(obj, old map[string]any) field.ErrorList {
	sp := field.NewPath("spec")
	spec := Obj(obj, "spec")
	var errs field.ErrorList
	if old == nil {
		errs = append(errs, validateGeneratedSelector(obj, true)...)
		errs = append(errs, validateJobSpecAndSelector(spec, sp)...)
	} else {
		oldSpec := Obj(old, "spec")
		errs = append(errs, validateJobSpecAndSelector(spec, sp)...)
		errs = append(errs, validateCompletions(spec, oldSpec, sp.Child("completions"))...)
		errs = append(errs, immutableField(spec["selector"], oldSpec["selector"], SelectorValue(Obj(spec, "selector")), sp.Child("selector"))...)
		errs = append(errs, validateTemplateUpdate(obj, old, sp.Child("template"))...)
		for _, k := range []string{"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"} {
			errs = append(errs, immutableField(spec[k], oldSpec[k], spec[k], sp.Child(k))...)
		}
	}
	return append(errs, validateNameAllowsCompletions(obj)...)
}

func immutableField(nv, ov, bad any, p *field.Path) field.ErrorList {
	if reflect.DeepEqual(nv, ov) {
		return nil
	}
	return field.ErrorList{field.Invalid(p, bad, FieldImmutableErrorMsg)}
}

// validateGeneratedSelector checks what generateSelector put in place.
func validateGeneratedSelector(obj map[string]any, prefixed bool) field.ErrorList {
	spec := Obj(obj, "spec")
	if Bool(spec, "manualSelector") || Obj(spec, "selector") == nil {
		return nil
	}
	meta := Obj(obj, "metadata")
	uid, name := Str(meta, "uid"), Str(meta, "name")
	var errs field.ErrorList
	if uid == "" {
		errs = append(errs, field.Required(field.NewPath("metadata").Child("uid"), ""))
	}
	tp := field.NewPath("spec").Child("template").Child("metadata")
	labels := StrMap(Obj(Obj(spec, "template"), "metadata"), "labels")
	hasLabel := func(k, want string) {
		v, ok := labels[k]
		switch {
		case !ok:
			errs = append(errs, field.Required(tp.Child("labels").Key(k), fmt.Sprintf("must be '%s'", want)))
		case v != want:
			errs = append(errs, field.Invalid(tp.Child("labels").Key(k), LabelsValue(labels), fmt.Sprintf("must be '%s'", want)))
		}
	}
	hasLabel(legacyControllerUIDLabel, uid)
	hasLabel(legacyJobNameLabel, name)
	expected := map[string]string{legacyControllerUIDLabel: uid, legacyJobNameLabel: name}
	if prefixed {
		hasLabel(controllerUIDLabel, uid)
		hasLabel(jobNameLabel, name)
		expected[controllerUIDLabel], expected[jobNameLabel] = uid, name
	}
	if s, ok := AsSelector(Obj(spec, "selector")); ok && !s.Matches(expected) {
		errs = append(errs, field.Invalid(field.NewPath("spec").Child("selector"), SelectorValue(Obj(spec, "selector")), "`selector` not auto-generated"))
	}
	return errs
}

// validateJobSpecAndSelector is ValidateJobSpec.
func validateJobSpecAndSelector(spec map[string]any, p *field.Path) field.ErrorList {
	errs := validateJobSpec(spec, p)
	sel := Obj(spec, "selector")
	if sel == nil {
		errs = append(errs, field.Required(p.Child("selector"), ""))
	} else {
		errs = append(errs, ValidateLabelSelector(sel, p.Child("selector"))...)
	}
	if s, ok := AsSelector(sel); ok {
		labels := StrMap(Obj(Obj(spec, "template"), "metadata"), "labels")
		if !s.Matches(labels) {
			errs = append(errs, field.Invalid(p.Child("template", "metadata", "labels"), LabelsValue(labels), "`selector` does not match template `labels`"))
		}
	}
	return errs
}

// validateJobSpec is validateJobSpec (shared with CronJob job templates).
func validateJobSpec(spec map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range []string{"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "ttlSecondsAfterFinished", "backoffLimitPerIndex"} {
		if v, ok := IntOK(spec, k); ok {
			errs = append(errs, NonNegative(v, p.Child(k))...)
		}
	}
	mfi, hasMFI := IntOK(spec, "maxFailedIndexes")
	bpi, hasBPI := IntOK(spec, "backoffLimitPerIndex")
	if hasMFI {
		errs = append(errs, NonNegative(mfi, p.Child("maxFailedIndexes"))...)
		if !hasBPI {
			errs = append(errs, field.Required(p.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
	}
	if Has(spec, "managedBy") {
		mb := Str(spec, "managedBy")
		errs = append(errs, domainPrefixedPath(mb, p.Child("managedBy"))...)
		if len(mb) > 63 {
			errs = append(errs, field.TooLong(p.Child("managedBy"), "", 63))
		}
	}
	cm := Str(spec, "completionMode")
	completions, hasCompletions := IntOK(spec, "completions")
	parallelism, hasParallelism := IntOK(spec, "parallelism")
	if Has(spec, "completionMode") {
		if cm != "NonIndexed" && cm != "Indexed" {
			errs = append(errs, field.NotSupported(p.Child("completionMode"), cm, []string{"NonIndexed", "Indexed"}))
		}
		if cm == "Indexed" {
			if !hasCompletions {
				errs = append(errs, field.Required(p.Child("completions"), "when completion mode is Indexed"))
			}
			if hasParallelism && parallelism > maxParallelismForIndexedJob {
				errs = append(errs, field.Invalid(p.Child("parallelism"), parallelism, fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismForIndexedJob)))
			}
			if hasCompletions && hasMFI && mfi > completions {
				errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), mfi, "must be less than or equal to completions"))
			}
		}
	}
	if !Has(spec, "completionMode") || cm == "NonIndexed" {
		if hasBPI {
			errs = append(errs, field.Invalid(p.Child("backoffLimitPerIndex"), bpi, "requires indexed completion mode"))
		}
		if hasMFI {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), mfi, "requires indexed completion mode"))
		}
	}
	hasPFP := Has(spec, "podFailurePolicy")
	if Has(spec, "podReplacementPolicy") {
		prp := Str(spec, "podReplacementPolicy")
		if hasPFP {
			if prp != "Failed" {
				errs = append(errs, field.NotSupported(p.Child("podReplacementPolicy"), prp, []string{"Failed"}))
			}
		} else if prp != "Failed" && prp != "TerminatingOrFailed" {
			errs = append(errs, field.NotSupported(p.Child("podReplacementPolicy"), prp, []string{"Failed", "TerminatingOrFailed"}))
		}
	}
	tmpl := Obj(spec, "template")
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	tp := p.Child("template")
	errs = append(errs, corev1.ValidatePodTemplateSpec(tmpl, tp)...)
	rp := p.Child("template", "spec", "restartPolicy")
	switch r := Str(Obj(tmpl, "spec"), "restartPolicy"); {
	case r == "Always" || r == "":
		errs = append(errs, field.Required(rp, `valid values: "OnFailure", "Never"`))
	case r != "OnFailure" && r != "Never":
		errs = append(errs, field.NotSupported(rp, r, []string{"OnFailure", "Never"}))
	case hasPFP && r != "Never":
		errs = append(errs, field.Invalid(rp, r, `only "Never" is supported when podFailurePolicy is specified`))
	}
	return errs
}

// domainPrefixedPath is apimachinery's IsDomainPrefixedPath.
func domainPrefixedPath(v string, p *field.Path) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	i := 0
	for i < len(v) && v[i] != '/' {
		i++
	}
	if i == len(v) {
		return field.ErrorList{field.Invalid(p, v, "must be a domain-prefixed path (such as \"acme.io/foo\")")}
	}
	var errs field.ErrorList
	for _, m := range validation.IsDNS1123Subdomain(v[:i]) {
		errs = append(errs, field.Invalid(p, v[:i], m))
	}
	return errs
}

func validateNameAllowsCompletions(obj map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	c, ok := IntOK(spec, "completions")
	if Str(spec, "completionMode") != "Indexed" || !ok || c <= 0 {
		return nil
	}
	name := Str(Obj(obj, "metadata"), "name")
	host := fmt.Sprintf("%s-%d", name, c-1)
	if len(validation.IsDNS1123Label(host)) > 0 {
		return field.ErrorList{field.Invalid(field.NewPath("metadata").Child("name"), name, "will not able to create pod with invalid DNS label: "+host)}
	}
	return nil
}

func validateCompletions(spec, oldSpec map[string]any, p *field.Path) field.ErrorList {
	if Str(spec, "completionMode") != "Indexed" {
		return immutableField(spec["completions"], oldSpec["completions"], spec["completions"], p)
	}
	if reflect.DeepEqual(spec["completions"], oldSpec["completions"]) || !Has(spec, "completions") {
		return nil
	}
	if Int(spec, "completions") != Int(spec, "parallelism") {
		return field.ErrorList{field.Invalid(p, spec["completions"], "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// validateTemplateUpdate is validatePodTemplateUpdate (v1.37, with
// MutablePodResourcesForSuspendedJobs and
// MutableSchedulingDirectivesForSuspendedJobs on by default): the pod
// template of a Job that is not suspended is immutable; a suspended Job
// with no active Pods that never started (or carries a true Suspended
// condition) may change its scheduling directives (nodeSelector,
// tolerations, node affinity, scheduling gates, template labels and
// annotations) and its containers' resources, checked on the pod spec
// alone; any other suspended Job's template is immutable. The bad value
// is the internal Go value as encoding/json prints it:
//
//	spec.template: Invalid value: {"labels":{…},"Spec":{"Volumes":null,…}}: field is immutable
func validateTemplateUpdate(obj, old map[string]any, p *field.Path) field.ErrorList {
	spec, oldSpec := Obj(obj, "spec"), Obj(old, "spec")
	tmpl, oldTmpl := Obj(spec, "template"), Obj(oldSpec, "template")
	status := Obj(old, "status")
	suspended := Bool(oldSpec, "suspend")
	mutable := suspended && (!Has(status, "startTime") || conditionTrue(status, "Suspended")) && Int(status, "active") == 0
	if mutable && tmpl != nil && oldTmpl != nil {
		oldTmpl = jsonx.CopyObject(oldTmpl)
		copyDirectives(oldTmpl, tmpl)
		ns, os := Obj(tmpl, "spec"), Obj(oldTmpl, "spec")
		copyResources(os, ns, "containers")
		copyResources(os, ns, "initContainers")
		if SemanticEqual(ns, os) {
			return nil
		}
		return field.ErrorList{field.Invalid(p.Child("spec"), gotypes.InternalJSON(gotypes.InternalPodSpec, ns), FieldImmutableErrorMsg)}
	}
	if SemanticEqual(tmpl, oldTmpl) {
		return nil
	}
	return field.ErrorList{field.Invalid(p, gotypes.InternalJSON(gotypes.InternalPodTemplateSpec, tmpl), FieldImmutableErrorMsg)}
}

// copyDirectives copies the scheduling directives of tmpl into oldTmpl.
func copyDirectives(oldTmpl, tmpl map[string]any) {
	om, nm := ensureObj(oldTmpl, "metadata"), Obj(tmpl, "metadata")
	os, ns := ensureObj(oldTmpl, "spec"), Obj(tmpl, "spec")
	for _, k := range []string{"labels", "annotations"} {
		copyKey(om, nm, k)
	}
	for _, k := range []string{"nodeSelector", "tolerations", "schedulingGates"} {
		copyKey(os, ns, k)
	}
	na := Obj(Obj(ns, "affinity"), "nodeAffinity")
	if oa := Obj(os, "affinity"); oa != nil || na != nil {
		oa = jsonx.CopyObject(oa)
		if oa == nil {
			oa = map[string]any{}
		}
		if na != nil {
			oa["nodeAffinity"] = na
		} else {
			delete(oa, "nodeAffinity")
		}
		if len(oa) == 0 && !Has(ns, "affinity") {
			delete(os, "affinity")
		} else {
			os["affinity"] = oa
		}
	}
}

// copyResources is validatePodResourceUpdatesOnly's copy: when both
// specs have as many containers of the list, each old container named
// like the new one at its index takes the new one's resources.
func copyResources(os, ns map[string]any, list string) {
	oc, nc := List(os, list), List(ns, list)
	if len(oc) != len(nc) {
		return
	}
	for i := range nc {
		o, _ := oc[i].(map[string]any)
		n, _ := nc[i].(map[string]any)
		if o != nil && n != nil && Str(o, "name") == Str(n, "name") {
			copyKey(o, n, "resources")
		}
	}
}

func conditionTrue(status map[string]any, typ string) bool {
	for _, c := range List(status, "conditions") {
		if c, _ := c.(map[string]any); Str(c, "type") == typ && Str(c, "status") == "True" {
			return true
		}
	}
	return false
}

func copyKey(dst, src map[string]any, k string) {
	if dst == nil {
		return
	}
	if v, ok := src[k]; ok && v != nil {
		dst[k] = v
	} else {
		delete(dst, k)
	}
}
