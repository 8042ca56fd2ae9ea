package corev1

import (
	"reflect"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidatePod is the pod strategy's Validate (old == nil: ValidatePodCreate)
// and ValidateUpdate (ValidatePodUpdate), less the metadata checks the
// generic server has already made before it: on create the ObjectMeta
// checks, on update the generic ObjectMeta checks and ValidateObjectMetaUpdate
// (which ValidatePodUpdate starts with).
func ValidatePod(obj, old map[string]any) field.ErrorList {
	if old == nil {
		return validatePodCreate(obj)
	}
	return validatePodUpdate(obj, old)
}

func validatePodCreate(pod map[string]any) field.ErrorList {
	errs := validatePodSpecAndPodOnly(pod)
	spec, sp := Obj(pod, "spec"), field.NewPath("spec")
	if len(List(spec, "ephemeralContainers")) > 0 {
		errs = append(errs, field.Forbidden(sp.Child("ephemeralContainers"), "cannot be set on create"))
	}
	if Str(spec, "nodeName") != "" && len(List(spec, "schedulingGates")) != 0 {
		errs = append(errs, field.Forbidden(sp.Child("nodeName"), "cannot be set until all schedulingGates have been cleared"))
	}
	return errs
}

// validatePodSpecAndPodOnly is validatePodMetadataAndSpec after its
// ObjectMeta check.
func validatePodSpecAndPodOnly(pod map[string]any) field.ErrorList {
	spec, sp := Obj(pod, "spec"), field.NewPath("spec")
	errs := validatePodSpec(spec, sp, true)
	if Str(spec, "serviceAccountName") == "" {
		for vi, v := range Objs(spec, "volumes") {
			for si, src := range Objs(Obj(v, "projected"), "sources") {
				if Has(src, "serviceAccountToken") {
					errs = append(errs, field.Forbidden(sp.Child("volumes").Index(vi).Child("projected", "sources").Index(si).Child("serviceAccountToken"),
						"must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	if g, ok := IntOK(spec, "terminationGracePeriodSeconds"); ok {
		errs = append(errs, NonNegative(g, sp.Child("terminationGracePeriodSeconds"))...)
	}
	for _, k := range []string{"containers", "initContainers"} {
		for i, ctr := range Objs(spec, k) {
			if img := Str(ctr, "image"); len(img) != len(strings.TrimSpace(img)) {
				errs = append(errs, field.Invalid(sp.Child(k).Index(i).Child("image"), img, "must not have leading or trailing whitespace"))
			}
		}
	}
	return errs
}

var updatablePodSpecFields = strings.Join([]string{
	"`spec.containers[*].image`",
	"`spec.initContainers[*].image`",
	"`spec.activeDeadlineSeconds`",
	"`spec.tolerations` (only additions to existing tolerations)",
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)",
}, ",")

func validatePodUpdate(pod, old map[string]any) field.ErrorList {
	mp := field.NewPath("metadata")
	errs := validation.ValidateObjectMeta(Obj(pod, "metadata"), true, validation.NameIsDNSSubdomain, mp)
	errs = append(errs, validatePodSpecAndPodOnly(pod)...)
	spec, oldSpec, sp := Obj(pod, "spec"), Obj(old, "spec"), field.NewPath("spec")

	for _, k := range []string{"containers", "initContainers"} {
		nc, oc := Objs(spec, k), Objs(oldSpec, k)
		if len(nc) != len(oc) {
			return append(errs, field.Forbidden(sp.Child(k), "pod updates may not add or remove containers"))
		}
		for i, c := range nc {
			img := Str(c, "image")
			if img == "" {
				errs = append(errs, field.Required(sp.Child(k).Index(i).Child("image"), ""))
			}
			if len(strings.TrimSpace(img)) != len(img) {
				errs = append(errs, field.Invalid(sp.Child(k).Index(i).Child("image"), img, "must not have leading or trailing whitespace"))
			}
		}
	}

	ads := sp.Child("activeDeadlineSeconds")
	if v, ok := IntOK(spec, "activeDeadlineSeconds"); ok {
		if v < 0 || v > 2147483647 {
			return append(errs, field.Invalid(ads, v, InclusiveRangeError(0, 2147483647)))
		}
		if ov, ok := IntOK(oldSpec, "activeDeadlineSeconds"); ok && ov < v {
			return append(errs, field.Invalid(ads, v, "must be less than or equal to previous value"))
		}
	} else if Has(oldSpec, "activeDeadlineSeconds") {
		errs = append(errs, field.Invalid(ads, nil, "must not update from a positive integer to nil value"))
	}

	errs = append(errs, validateOnlyAddedTolerations(Objs(spec, "tolerations"), Objs(oldSpec, "tolerations"), sp.Child("tolerations"))...)
	errs = append(errs, validateOnlyDeletedSchedulingGates(Objs(spec, "schedulingGates"), Objs(oldSpec, "schedulingGates"), sp.Child("schedulingGates"))...)

	if reflect.DeepEqual(spec, oldSpec) {
		return errs
	}
	// munge the updatable fields to their old values and compare the rest
	munged := jsonx.CopyObject(spec)
	if munged == nil {
		munged = map[string]any{}
	}
	for _, k := range []string{"containers", "initContainers"} {
		oc := Objs(oldSpec, k)
		for i, c := range List(munged, k) {
			if cm, ok := c.(map[string]any); ok && i < len(oc) {
				setOrDelete(cm, "image", oc[i]["image"])
			}
		}
	}
	setOrDelete(munged, "activeDeadlineSeconds", oldSpec["activeDeadlineSeconds"])
	setOrDelete(munged, "schedulingGates", oldSpec["schedulingGates"])
	setOrDelete(munged, "tolerations", oldSpec["tolerations"])
	if og, ok := IntOK(oldSpec, "terminationGracePeriodSeconds"); ok && og < 0 && Int(munged, "terminationGracePeriodSeconds") == 1 {
		munged["terminationGracePeriodSeconds"] = oldSpec["terminationGracePeriodSeconds"]
	}
	if len(List(oldSpec, "schedulingGates")) > 0 {
		// gated pods may add to nodeSelector and node affinity: not
		// reproduced beyond allowing the change
		setOrDelete(munged, "nodeSelector", oldSpec["nodeSelector"])
		setOrDelete(munged, "affinity", oldSpec["affinity"])
	}
	if !SemanticEqual(munged, oldSpec) {
		errs = append(errs, field.Forbidden(sp, "pod updates may not change fields other than "+updatablePodSpecFields+"\n"+specDiff(oldSpec, munged)))
	}
	return errs
}

func setOrDelete(m map[string]any, k string, v any) {
	if v == nil {
		delete(m, k)
	} else {
		m[k] = v
	}
}

func validateOnlyAddedTolerations(nt, ot []map[string]any, p *field.Path) field.ErrorList {
	for _, o := range ot {
		found := false
		for _, n := range nt {
			oc := jsonx.CopyObject(o)
			setOrDelete(oc, "tolerationSeconds", n["tolerationSeconds"])
			if SemanticEqual(oc, n) {
				found = true
				break
			}
		}
		if !found {
			return field.ErrorList{field.Forbidden(p, "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return validateTolerations(nt, p)
}

func validateOnlyDeletedSchedulingGates(ng, og []map[string]any, p *field.Path) field.ErrorList {
	if len(ng) == 0 {
		return nil
	}
	old := map[string]bool{}
	for _, g := range og {
		old[Str(g, "name")] = true
	}
	var errs field.ErrorList
	seen := map[string]bool{}
	// the real server ranges over a map (random order); index order here
	for i := len(ng) - 1; i >= 0; i-- {
		name := Str(ng[i], "name")
		if seen[name] {
			continue // the map keeps the last index of a name
		}
		seen[name] = true
		if !old[name] {
			errs = append([]*field.Error{field.Forbidden(p.Index(i).Child("name"), "only deletion is allowed, but found new scheduling gate '"+name+"'")}, errs...)
		}
	}
	return errs
}

// PreparePodStatusUpdate is the rest of podStatusStrategy's
// PrepareForUpdate (the spec and owner references are kept by the
// resource's StatusKeeps): what a status write leaves out, an old kubelet
// dropping fields it does not know, is kept from the stored status — the
// QoS class, the resource claim statuses, observedGeneration and each
// condition's observedGeneration (matched by type, in order). Example: a
// PUT of {"status":{"phase":"Pending"}} keeps qosClass "BestEffort".
func PreparePodStatusUpdate(obj, old map[string]any, _ string) {
	ost := Obj(old, "status")
	if len(ost) == 0 {
		return
	}
	st := ensureStatus(obj)
	if Str(st, "qosClass") == "" && Str(ost, "qosClass") != "" {
		st["qosClass"] = ost["qosClass"]
	}
	for _, k := range []string{"resourceClaimStatuses", "extendedResourceClaimStatus", "nodeAllocatableResourceClaimStatuses"} {
		if st[k] == nil && ost[k] != nil {
			st[k] = ost[k]
		}
	}
	if Int(st, "observedGeneration") == 0 && Int(ost, "observedGeneration") != 0 {
		st["observedGeneration"] = ost["observedGeneration"]
	}
	oldGens := map[string][]any{}
	for _, c := range Objs(ost, "conditions") {
		oldGens[Str(c, "type")] = append(oldGens[Str(c, "type")], c["observedGeneration"])
	}
	for _, c := range List(st, "conditions") {
		c, ok := c.(map[string]any)
		if !ok {
			continue
		}
		var g any
		if gens := oldGens[Str(c, "type")]; len(gens) > 0 {
			g, oldGens[Str(c, "type")] = gens[0], gens[1:]
		}
		if og, _ := AsInt(g); og != 0 && Int(c, "observedGeneration") == 0 {
			c["observedGeneration"] = g
		}
	}
}
