package corev1

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
	"time"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// DefaultPV is SetDefaults_PersistentVolume (reclaim policy Retain,
// volumeMode Filesystem); the sources' defaults are builtin's
// defaultVolumeSources.
func DefaultPV(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		return
	}
	if Str(spec, "persistentVolumeReclaimPolicy") == "" {
		spec["persistentVolumeReclaimPolicy"] = "Retain"
	}
	if spec["volumeMode"] == nil {
		spec["volumeMode"] = "Filesystem"
	}
}

// PreparePVCreate is the strategy's PrepareForCreate: status reset to
// phase Pending since now (the new object's creationTimestamp); and the
// StorageObjectInUseProtection admission plugin's finalizer.
func PreparePVCreate(obj map[string]any) {
	obj["status"] = map[string]any{"phase": "Pending", "lastPhaseTransitionTime": Obj(obj, "metadata")["creationTimestamp"]}
	addFinalizer(obj, "kubernetes.io/pv-protection")
}

// PreparePVStatusUpdate is the status strategy's PrepareForUpdate past
// the spec reset: a write that changes status.phase with no
// lastPhaseTransitionTime of its own (none, or the stored one) is stamped
// now; one that keeps the phase and names none keeps the stored one.
//
//	stored {phase: Pending, lastPhaseTransitionTime: T0}, written {phase: Available}
//	→ {phase: Available, lastPhaseTransitionTime: now}
func PreparePVStatusUpdate(obj, old map[string]any, now string) {
	st, ost := Obj(obj, "status"), Obj(old, "status")
	t, ot := st["lastPhaseTransitionTime"], ost["lastPhaseTransitionTime"]
	switch {
	case Str(st, "phase") == Str(ost, "phase") && t == nil:
		if ot != nil {
			ensureStatus(obj)["lastPhaseTransitionTime"] = ot
		}
	case Str(st, "phase") != Str(ost, "phase") && (t == nil || sameTime(t, ot)):
		ensureStatus(obj)["lastPhaseTransitionTime"] = now
	}
}

func ensureStatus(obj map[string]any) map[string]any {
	st, ok := obj["status"].(map[string]any)
	if !ok {
		st = map[string]any{}
		obj["status"] = st
	}
	return st
}

// sameTime is metav1.Time's Equal of two RFC 3339 values.
func sameTime(a, b any) bool {
	as, _ := a.(string)
	bs, _ := b.(string)
	ta, err1 := time.Parse(time.RFC3339, as)
	tb, err2 := time.Parse(time.RFC3339, bs)
	if err1 != nil || err2 != nil {
		return as == bs
	}
	return ta.Equal(tb)
}

// ValidatePVStatus is the status strategy's ValidateUpdate,
// ValidatePersistentVolumeStatusUpdate: metadata only (the server's
// generic ObjectMeta checks; the resourceVersion it requires is always set
// by then), none of the main resource's rules — a status write of a
// hostPath volume with the mount-options annotation is stored.
func ValidatePVStatus(obj, old map[string]any) field.ErrorList { return nil }

// ValidatePV is ValidatePersistentVolume (create) and
// ValidatePersistentVolumeUpdate: access modes, capacity (storage only,
// positive), reclaim policy, node affinity, exactly one volume source
// (each checked as kube checks it, pvsource.go), class names and volume mode; on update the source and
// volumeMode are immutable. Example: spec {capacity: {storage: 1Gi}} →
// spec.accessModes: Required value; spec: Required value: must specify a volume type.
//
// On update the real strategy runs ValidatePersistentVolume twice (once
// itself, once inside ValidatePersistentVolumeUpdate), so each of its
// causes comes twice.
func ValidatePV(obj, old map[string]any) field.ErrorList {
	errs := validatePV(obj)
	spec := Obj(obj, "spec")
	if _, ok := StrMap(Obj(obj, "metadata"), "annotations")["volume.beta.kubernetes.io/mount-options"]; ok &&
		!slices.ContainsFunc(mountOptionSources, func(k string) bool { return spec[k] != nil }) {
		errs = append(errs, field.Forbidden(metaPath.Child("annotations", "volume.beta.kubernetes.io/mount-options"), "may not specify mount options for this volume type"))
	}
	if old == nil {
		return errs
	}
	errs = append(errs, validatePV(obj)...)
	sp := field.NewPath("spec")
	ospec := Obj(old, "spec")
	ns, os := pvSourceOf(spec), pvSourceOf(ospec)
	if csi := Obj(ns, "csi"); csi != nil && Obj(os, "csi") != nil && !Has(Obj(os, "csi"), "controllerExpandSecretRef") {
		csi = copyMap(csi)
		delete(csi, "controllerExpandSecretRef")
		ns["csi"] = csi
	}
	if !SemanticEqual(ns, os) {
		errs = append(errs, field.Forbidden(sp.Child("persistentvolumesource"), "spec.persistentvolumesource is immutable after creation\n"+specDiff(os, ns)))
	}
	if !SemanticEqual(spec["volumeMode"], ospec["volumeMode"]) {
		errs = append(errs, field.Invalid(field.NewPath("volumeMode"), spec["volumeMode"], FieldImmutableErrorMsg))
	}
	if ona, ok := ospec["nodeAffinity"].(map[string]any); ok && !SemanticEqual(spec["nodeAffinity"], ona) {
		errs = append(errs, field.Invalid(field.NewPath("nodeAffinity"), goNodeAffinity(spec["nodeAffinity"]), FieldImmutableErrorMsg+", except for updating from beta label to GA"))
	}
	if ospec["volumeAttributesClassName"] != nil && spec["volumeAttributesClassName"] == nil {
		errs = append(errs, field.Forbidden(sp.Child("volumeAttributesClassName"), "update from non-nil value to nil is forbidden"))
	}
	return errs
}

// mountOptionSources are the sources that take the mount-options annotation.
var mountOptionSources = []string{"gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "nfs", "rbd", "quobyte",
	"iscsi", "cinder", "cephfs", "azureFile", "vsphereVolume", "azureDisk", "photonPersistentDisk"}

// validatePV is ValidatePersistentVolume.
func validatePV(obj map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	sp := field.NewPath("spec")
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), false, validation.NameIsDNSSubdomain, metaPath)
	modes := Strs(spec, "accessModes")
	if len(modes) == 0 {
		errs = append(errs, field.Required(sp.Child("accessModes"), ""))
	}
	rwop, other := false, false
	for _, m := range modes {
		if !slices.Contains(accessModes, m) {
			errs = append(errs, field.NotSupported(sp.Child("accessModes"), m, accessModes))
		}
		rwop = rwop || m == "ReadWriteOncePod"
		other = other || (m != "ReadWriteOncePod" && slices.Contains(accessModes, m))
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(sp.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
	}
	capacity := Obj(spec, "capacity")
	cp := sp.Child("capacity")
	if len(capacity) == 0 {
		errs = append(errs, field.Required(cp, ""))
	}
	if _, ok := capacity["storage"]; !ok || len(capacity) > 1 {
		var canon map[string]any
		if spec["capacity"] != nil {
			canon = map[string]any{}
		}
		for k, v := range capacity {
			if q, ok := ParseQuantity(v); ok {
				canon[k] = q.String()
			}
		}
		errs = append(errs, field.NotSupported(cp, jsonValue(canon), []string{"storage"}))
	}
	for _, k := range Keys(capacity) {
		errs = append(errs, basicResource(capacity[k], cp.Key(k))...)
		if q, ok := ParseQuantity(capacity[k]); ok {
			if q.Sign() <= 0 {
				errs = append(errs, field.Invalid(cp.Key(k), q.String(), IsNotPositiveErrorMsg))
			}
		}
	}
	if rp := Str(spec, "persistentVolumeReclaimPolicy"); rp != "" && rp != "Delete" && rp != "Recycle" && rp != "Retain" {
		errs = append(errs, field.NotSupported(sp.Child("persistentVolumeReclaimPolicy"), rp, []string{"Delete", "Recycle", "Retain"}))
	}
	affinity := false
	if na, ok := spec["nodeAffinity"].(map[string]any); ok {
		affinity = true
		np := sp.Child("nodeAffinity", "required")
		if req, ok := na["required"].(map[string]any); ok {
			errs = append(errs, validateNodeSelector(req, np)...)
		} else {
			errs = append(errs, field.Required(np, "must specify required node constraints"))
		}
	}
	n := 0
	for _, s := range pvSources {
		src, ok := spec[s[0]].(map[string]any)
		if !ok {
			continue
		}
		if n > 0 && s[1] != "" {
			errs = append(errs, field.Forbidden(sp.Child(s[1]), "may not specify more than 1 volume type"))
			continue
		}
		n++
		errs = append(errs, validatePVSource(s, src, sp.Child(s[2]), affinity, sp, Str(Obj(obj, "metadata"), "name"))...)
	}
	if n == 0 {
		errs = append(errs, field.Required(sp, "must specify a volume type"))
	}
	if hp := Obj(spec, "hostPath"); hp != nil && path.Clean(Str(hp, "path")) == "/" && Str(spec, "persistentVolumeReclaimPolicy") == "Recycle" {
		errs = append(errs, field.Forbidden(sp.Child("persistentVolumeReclaimPolicy"), "may not be 'recycle' for a hostPath mount of '/'"))
	}
	if sc := Str(spec, "storageClassName"); sc != "" {
		errs = append(errs, dns1123Subdomain(sc, sp.Child("storageClassName"))...)
	}
	if vm, ok := spec["volumeMode"].(string); ok && vm != "Block" && vm != "Filesystem" {
		errs = append(errs, field.NotSupported(sp.Child("volumeMode"), vm, []string{"Block", "Filesystem"}))
	}
	if vac, ok := spec["volumeAttributesClassName"].(string); ok {
		vp := sp.Child("volumeAttributesClassName")
		if vac == "" {
			errs = append(errs, field.Required(vp, "an empty string is disallowed"))
		} else {
			errs = append(errs, dns1123Subdomain(vac, vp)...)
		}
		if spec["csi"] == nil {
			errs = append(errs, field.Required(sp.Child("csi"), "has to be specified when using volumeAttributesClassName"))
		}
	}
	return errs
}

func pvSourceOf(spec map[string]any) map[string]any {
	out := map[string]any{}
	for _, s := range pvSources {
		if v, ok := spec[s[0]]; ok && v != nil {
			out[s[0]] = v
		}
	}
	return out
}

// validateCSIDriverName is ValidateCSIDriverName.
func validateCSIDriverName(d string, p *field.Path) field.ErrorList {
	if d == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(d) > 63 {
		errs = append(errs, field.TooLong(p, "", 63))
	}
	for _, m := range validation.IsDNS1123Subdomain(strings.ToLower(d)) {
		errs = append(errs, field.Invalid(p, d, m))
	}
	return errs
}

// validateNodeSelector is ValidateNodeSelector (label values checked).
func validateNodeSelector(sel map[string]any, p *field.Path) field.ErrorList {
	tp := p.Child("nodeSelectorTerms")
	terms := Objs(sel, "nodeSelectorTerms")
	if len(terms) == 0 {
		return field.ErrorList{field.Required(tp, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, term := range terms {
		ip := tp.Index(i)
		for j, rq := range Objs(term, "matchExpressions") {
			rp := ip.Child("matchExpressions").Index(j)
			vals := Strs(rq, "values")
			switch op := Str(rq, "operator"); op {
			case "In", "NotIn":
				if len(vals) == 0 {
					errs = append(errs, field.Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
				}
			case "Exists", "DoesNotExist":
				if len(vals) > 0 {
					errs = append(errs, field.Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
				}
			case "Gt", "Lt":
				if len(vals) != 1 {
					errs = append(errs, field.Required(rp.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
				}
			default:
				errs = append(errs, field.Invalid(rp.Child("operator"), op, "not a valid selector operator"))
			}
			errs = append(errs, ValidateLabelName(Str(rq, "key"), rp.Child("key"))...)
			for k, v := range vals {
				for _, m := range validation.IsValidLabelValue(v) {
					errs = append(errs, field.Invalid(rp.Child("values").Index(k), v, m))
				}
			}
		}
		for j, rq := range Objs(term, "matchFields") {
			rp := ip.Child("matchFields").Index(j)
			vals := Strs(rq, "values")
			if op := Str(rq, "operator"); op == "In" || op == "NotIn" {
				if len(vals) != 1 {
					errs = append(errs, field.Required(rp.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
				}
			} else {
				errs = append(errs, field.Invalid(rp.Child("operator"), op, "not a valid selector operator"))
			}
			if k := Str(rq, "key"); k != "metadata.name" {
				errs = append(errs, field.Invalid(rp.Child("key"), k, "not a valid field selector key"))
				continue
			}
			for k, v := range vals {
				for _, m := range validation.NameIsDNSSubdomain(v, false) {
					errs = append(errs, field.Invalid(rp.Child("values").Index(k), v, m))
				}
			}
		}
	}
	return errs
}

// goNodeAffinity renders a VolumeNodeAffinity as the internal struct
// prints in a field error (Go field names, nil lists as null).
func goNodeAffinity(v any) json.RawMessage {
	na, ok := v.(map[string]any)
	if !ok {
		return json.RawMessage("null")
	}
	type req struct {
		Key, Operator string
		Values        []string
	}
	reqs := func(l []map[string]any) []req {
		var out []req
		for _, r := range l {
			var vals []string
			if r["values"] != nil {
				vals = append([]string{}, Strs(r, "values")...)
			}
			out = append(out, req{Str(r, "key"), Str(r, "operator"), vals})
		}
		return out
	}
	type term struct{ MatchExpressions, MatchFields []req }
	var out struct {
		Required *struct{ NodeSelectorTerms []term }
	}
	if r, ok := na["required"].(map[string]any); ok {
		out.Required = &struct{ NodeSelectorTerms []term }{}
		for _, t := range Objs(r, "nodeSelectorTerms") {
			out.Required.NodeSelectorTerms = append(out.Required.NodeSelectorTerms, term{reqs(Objs(t, "matchExpressions")), reqs(Objs(t, "matchFields"))})
		}
	}
	return jsonValue(out)
}
