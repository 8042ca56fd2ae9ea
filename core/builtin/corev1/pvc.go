package corev1

import (
	"encoding/json"
	"reflect"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// PersistentVolumeClaims (ValidatePersistentVolumeClaim(Update) and the
// registry strategy), with v1.37's gates: VolumeAttributesClass and
// RecoverVolumeExpansionFailure on, CrossNamespaceVolumeDataSource off.

const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"

var accessModes = []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}

// DefaultPVC is SetDefaults_PersistentVolumeClaimSpec: volumeMode Filesystem.
func DefaultPVC(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	if spec["volumeMode"] == nil {
		spec["volumeMode"] = "Filesystem"
	}
}

// PreparePVCCreate is the strategy's PrepareForCreate: status reset to
// the phase Pending its defaulting gives, the data source rules of KEP
// 1495; and the StorageObjectInUseProtection admission plugin's finalizer.
func PreparePVCCreate(obj map[string]any) {
	obj["status"] = map[string]any{"phase": "Pending"}
	preparePVCSpec(Obj(obj, "spec"), nil)
	addFinalizer(obj, "kubernetes.io/pvc-protection")
}

// addFinalizer appends f to metadata.finalizers unless it is there.
func addFinalizer(obj map[string]any, f string) {
	m := Obj(obj, "metadata")
	if m == nil {
		return
	}
	for _, have := range Strs(m, "finalizers") {
		if have == f {
			return
		}
	}
	m["finalizers"] = append(List(m, "finalizers"), f)
}

// PreparePVCUpdate is PrepareForUpdate.
func PreparePVCUpdate(obj, old map[string]any) {
	preparePVCSpec(Obj(obj, "spec"), Obj(old, "spec"))
	normalizeDataSources(Obj(old, "spec"))
}

func preparePVCSpec(spec, old map[string]any) {
	if spec == nil {
		return
	}
	// DropDisabledFields: a cross-namespace dataSourceRef (gate off)
	if ref := Obj(spec, "dataSourceRef"); Str(ref, "namespace") != "" {
		if oref := Obj(old, "dataSourceRef"); Str(oref, "namespace") == "" {
			delete(spec, "dataSourceRef")
		}
	}
	// EnforceDataSourceBackwardsCompatibility
	if !Has(old, "dataSource") && !Has(spec, "dataSourceRef") && Has(spec, "dataSource") {
		ds := Obj(spec, "dataSource")
		g := Str(ds, "apiGroup")
		isPVC := g == "" && Str(ds, "kind") == "PersistentVolumeClaim"
		isSnap := g == "snapshot.storage.k8s.io" && Str(ds, "kind") == "VolumeSnapshot"
		if !isPVC && !isSnap {
			delete(spec, "dataSource")
		}
	}
	normalizeDataSources(spec)
}

func normalizeDataSources(spec map[string]any) {
	if spec == nil {
		return
	}
	ds, ref := Obj(spec, "dataSource"), Obj(spec, "dataSourceRef")
	copyRef := func(from map[string]any) map[string]any {
		out := map[string]any{"kind": Str(from, "kind"), "name": Str(from, "name")}
		if Has(from, "apiGroup") {
			out["apiGroup"] = Str(from, "apiGroup")
		}
		return out
	}
	if Has(spec, "dataSource") && !Has(spec, "dataSourceRef") {
		spec["dataSourceRef"] = copyRef(ds)
	} else if Has(spec, "dataSourceRef") && !Has(spec, "dataSource") && Str(ref, "namespace") == "" {
		spec["dataSource"] = copyRef(ref)
	}
}

// ValidatePVC is ValidatePersistentVolumeClaim / ValidatePersistentVolumeClaimUpdate.
//
//	spec: {} → spec.accessModes: Required value: at least 1 access mode is required
//	           spec.resources[storage]: Required value
func ValidatePVC(obj, old map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	lax, invalidGroup := false, false
	if old != nil {
		os := Obj(old, "spec")
		lax = Has(os, "selector") && len(ValidateLabelSelector(Obj(os, "selector"), field.NewPath("x"))) > 0
		for _, k := range []string{"dataSource", "dataSourceRef"} {
			if g := Str(Obj(os, k), "apiGroup"); g != "" && len(validation.IsDNS1123Subdomain(g)) > 0 {
				invalidGroup = true
			}
		}
	}
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsPathSegment, metaPath)...)
	}
	errs = append(errs, validatePVCSpec(spec, field.NewPath("spec"), lax, invalidGroup)...)
	if old != nil {
		errs = append(errs, validatePVCUpdate(obj, old)...)
		errs = append(errs, validatePVCStatus(obj)...)
	}
	return errs
}

// validatePVCStatus is ValidatePersistentVolumeClaimStatusUpdate beyond
// metadata and access modes (RecoverVolumeExpansionFailure on), run on
// every update (a write of the main resource keeps the stored status):
// capacity quantities, health condition reasons, allocated resources and
// their resize statuses.
func validatePVCStatus(obj map[string]any) field.ErrorList {
	st, sp := Obj(obj, "status"), field.NewPath("status")
	var errs field.ErrorList
	capacity := Obj(st, "capacity")
	for _, k := range Keys(capacity) {
		errs = append(errs, basicResource(capacity[k], sp.Child("capacity").Key(k))...)
	}
	for i, c := range Objs(Obj(st, "healthStatus"), "healthConditions") {
		if r := Str(c, "reason"); r != "" {
			errs = append(errs, ValidateConditionReason(r, sp.Child("healthStatus", "healthConditions").Index(i).Child("reason"))...)
		}
	}
	rp := sp.Child("allocatedResourceStatuses")
	statuses := StrMap(st, "allocatedResourceStatuses")
	for _, k := range Keys(statuses) {
		errs = append(errs, pvcResourceKey(k, rp)...)
		switch statuses[k] {
		case "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizePending", "NodeResizeInProgress", "NodeResizeInfeasible":
		default:
			errs = append(errs, field.NotSupported(rp, k, []string{"ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"}))
		}
	}
	ap := sp.Child("allocatedResources")
	alloc := Obj(st, "allocatedResources")
	for _, k := range Keys(alloc) {
		if e := pvcResourceKey(k, ap); len(e) > 0 {
			errs = append(errs, e...)
			continue
		}
		if e := basicResource(alloc[k], ap.Key(k)); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			errs = append(errs, validateQuantityValue("storage", alloc[k], ap.Key(k))...)
		}
	}
	return errs
}

// basicResource is validateBasicResource: the quantity's integer value
// (rounded up) is not negative.
func basicResource(v any, p *field.Path) field.ErrorList {
	if q, ok := ParseQuantity(v); ok && q.ScaledValue(0) < 0 {
		return field.ErrorList{field.Invalid(p, q.ScaledValue(0), "must be a valid resource quantity")}
	}
	return nil
}

// pvcResourceKey is validatePersistentVolumeClaimResourceKey.
func pvcResourceKey(k string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range validation.IsQualifiedName(k) {
		errs = append(errs, field.Invalid(p, k, m))
	}
	if len(errs) == 0 && isNative(k) && k != "storage" {
		errs = append(errs, field.NotSupported(p, k, []string{"storage"}))
	}
	return errs
}

func validatePVCSpec(spec map[string]any, p *field.Path, lax, invalidGroup bool) field.ErrorList {
	var errs field.ErrorList
	modes := Strs(spec, "accessModes")
	if len(modes) == 0 {
		errs = append(errs, field.Required(p.Child("accessModes"), "at least 1 access mode is required"))
	}
	if Has(spec, "selector") {
		if lax {
			errs = append(errs, ValidateLabelSelectorLax(Obj(spec, "selector"), p.Child("selector"))...)
		} else {
			errs = append(errs, ValidateLabelSelector(Obj(spec, "selector"), p.Child("selector"))...)
		}
	}
	rwop, other := false, false
	for _, m := range modes {
		if !has(accessModes, m) {
			errs = append(errs, field.NotSupported(p.Child("accessModes"), m, accessModes))
		} else if m == "ReadWriteOncePod" {
			rwop = true
		} else {
			other = true
		}
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(p.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
	}
	sp := p.Child("resources").Key("storage")
	req := Obj(Obj(spec, "resources"), "requests")
	if v, ok := req["storage"]; !ok {
		errs = append(errs, field.Required(sp, ""))
	} else if q, ok := ParseQuantity(v); ok && q.Sign() <= 0 {
		errs = append(errs, field.Invalid(sp, q.String(), IsNotPositiveErrorMsg))
	}
	for _, k := range []string{"storageClassName", "volumeAttributesClassName"} {
		if n := Str(spec, k); n != "" {
			for _, m := range validation.NameIsDNSSubdomain(n, false) {
				errs = append(errs, field.Invalid(p.Child(k), n, m))
			}
		}
		if k == "storageClassName" && Has(spec, "volumeMode") {
			if vm := Str(spec, "volumeMode"); vm != "Block" && vm != "Filesystem" {
				errs = append(errs, field.NotSupported(p.Child("volumeMode"), vm, []string{"Block", "Filesystem"}))
			}
			for _, ds := range []string{"dataSource", "dataSourceRef"} {
				if Has(spec, ds) {
					errs = append(errs, validateDataSource(Obj(spec, ds), p.Child(ds), invalidGroup, ds == "dataSourceRef")...)
				}
			}
			ref := Obj(spec, "dataSourceRef")
			if Str(ref, "namespace") != "" {
				if Has(spec, "dataSource") {
					errs = append(errs, field.Invalid(p, json.RawMessage("{}"), "may not be specified when dataSourceRef.namespace is specified"))
				}
			} else if Has(spec, "dataSource") && Has(spec, "dataSourceRef") {
				ds := Obj(spec, "dataSource")
				if Str(ds, "apiGroup") != Str(ref, "apiGroup") || Has(ds, "apiGroup") != Has(ref, "apiGroup") ||
					Str(ds, "kind") != Str(ref, "kind") || Str(ds, "name") != Str(ref, "name") {
					errs = append(errs, field.Invalid(p, json.RawMessage("{}"), "must match dataSourceRef"))
				}
			}
		}
	}
	return errs
}

func validateDataSource(ds map[string]any, p *field.Path, invalidGroup, isRef bool) field.ErrorList {
	var errs field.ErrorList
	if Str(ds, "name") == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	kind := Str(ds, "kind")
	if kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	g := Str(ds, "apiGroup")
	if g == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if g != "" && !invalidGroup {
		for _, m := range validation.IsDNS1123Subdomain(g) {
			errs = append(errs, field.Invalid(p.Child("apiGroup"), g, m))
		}
	}
	if ns := Str(ds, "namespace"); isRef && ns != "" {
		for _, m := range validation.NameIsDNSLabel(ns, false) {
			errs = append(errs, field.Invalid(p.Child("namespace"), ns, m))
		}
	}
	return errs
}

func validatePVCUpdate(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	spec, os := Obj(obj, "spec"), Obj(old, "spec")
	nspec, ospec := copyMap(spec), copyMap(os)
	if Str(os, "volumeName") == "" {
		setOrDelete(ospec, "volumeName", spec["volumeName"])
	}
	ann := StrMap(Obj(obj, "metadata"), "annotations")
	oann := StrMap(Obj(old, "metadata"), "annotations")
	oldSC, oldHas := oann[betaStorageClassAnnotation]
	newSC, newHas := ann[betaStorageClassAnnotation]
	if oldHas && !Has(os, "storageClassName") && Has(spec, "storageClassName") && Str(spec, "storageClassName") == oldSC && (!newHas || newSC == oldSC) {
		delete(nspec, "storageClassName")
	} else {
		if newSC != oldSC {
			errs = append(errs, field.Invalid(metaPath.Child("annotations", betaStorageClassAnnotation), newSC, FieldImmutableErrorMsg))
		}
		if Has(spec, "storageClassName") && !Has(os, "storageClassName") && (!oldHas || Str(spec, "storageClassName") == oldSC) {
			setOrDelete(nspec, "storageClassName", os["storageClassName"])
		}
	}
	bound := Str(Obj(obj, "status"), "phase") == "Bound"
	if bound {
		if r := Obj(nspec, "resources"); Obj(r, "requests") != nil {
			r = copyMap(r)
			req := copyMap(Obj(r, "requests"))
			setOrDelete(req, "storage", Obj(Obj(os, "resources"), "requests")["storage"])
			r["requests"] = req
			nspec["resources"] = r
		}
		setOrDelete(nspec, "volumeAttributesClassName", os["volumeAttributesClassName"])
	}
	if !SemanticEqual(nspec, ospec) {
		errs = append(errs, field.Forbidden(field.NewPath("spec"), "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n"+specDiff(ospec, nspec)))
	}
	newSize, _ := ParseQuantity(Obj(Obj(spec, "resources"), "requests")["storage"])
	oldSize, _ := ParseQuantity(Obj(Obj(os, "resources"), "requests")["storage"])
	statusSize, _ := ParseQuantity(Obj(Obj(old, "status"), "capacity")["storage"])
	if cmpQ(newSize, oldSize) < 0 && cmpQ(newSize, statusSize) <= 0 {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "resources", "requests", "storage"), "field can not be less than status.capacity"))
	}
	if !reflect.DeepEqual(spec["volumeMode"], os["volumeMode"]) {
		errs = append(errs, field.Invalid(field.NewPath("volumeMode"), spec["volumeMode"], FieldImmutableErrorMsg))
	}
	if Has(Obj(old, "status"), "currentVolumeAttributesClassName") && !reflect.DeepEqual(spec["volumeAttributesClassName"], os["volumeAttributesClassName"]) {
		p := field.NewPath("spec", "volumeAttributesClassName")
		if !Has(spec, "volumeAttributesClassName") {
			errs = append(errs, field.Forbidden(p, "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"))
		} else if Str(spec, "volumeAttributesClassName") == "" {
			errs = append(errs, field.Forbidden(p, "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil"))
		}
	}
	return errs
}

// cmpQ compares quantities, an unparsed one as zero.
func cmpQ(a, b Quantity) int {
	zero, _ := ParseQuantity(int64(0))
	if !a.Valid() {
		a = zero
	}
	if !b.Valid() {
		b = zero
	}
	return a.Cmp(b)
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// PVCWarnings is GetWarningsForPersistentVolumeClaim (on create and update).
func PVCWarnings(obj, _ map[string]any) []string {
	var ws []string
	if _, ok := StrMap(Obj(obj, "metadata"), "annotations")[betaStorageClassAnnotation]; ok {
		ws = append(ws, metaPath.Child("annotations").Key(betaStorageClassAnnotation).String()+
			": deprecated since v1.8; use \"storageClassName\" attribute instead")
	}
	res := Obj(Obj(obj, "spec"), "resources")
	for _, k := range []string{"requests", "limits"} {
		if q, ok := ParseQuantity(Obj(res, k)["storage"]); ok && !q.IsInteger() {
			ws = append(ws, field.NewPath("spec", "resources", k).Key("storage").String()+": fractional byte value "+
				`"`+q.String()+`" is invalid, must be an integer`)
		}
	}
	return ws
}
