package builtin

import (
	"reflect"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// CustomResourceDefinitions: how a CRD becomes an endpoint, all in this
// file. A CRD is stored like any object; its hooks make it serve:
//
//  1. create: crdDefault and crdPrepareCreate fill it in, crdValidate
//     checks what its resources rely on, and the create commits;
//  2. crdController hears Created: the server serves one
//     resource.Resource per served version (CRDResources) at once, then
//     the controller writes the Established/NamesAccepted status as the
//     apiextensions controllers would (synchronously, as "apiserver");
//  3. every later write (Updated) serves the CRD as it now is; a restart
//     (Restored) serves every stored CRD again;
//  4. DELETE: crdBeginDelete adds the clean-up finalizer and the
//     Terminating condition; the controller hears Deleting, purges the
//     custom resources, stops serving them and removes the finalizer,
//     which removes the CRD (Deleted).

// crdCleanupFinalizer holds a deleting CRD until its objects are gone.
const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// crdHooks are the CRD's hooks.
func crdHooks(h *resource.Hooks) {
	h.Default = crdDefault
	h.PrepareCreate = crdPrepareCreate
	h.Validate = crdValidate
	h.CEL = crdCEL
	h.Delete.Begin = crdBeginDelete
	h.Controller = crdController
}

// crdDefault fills the server-side defaults of a CRD spec.
func crdDefault(obj resource.Object) {
	spec := child(obj, "spec")
	if spec == nil {
		return
	}
	if _, ok := spec["conversion"]; !ok {
		spec["conversion"] = map[string]any{"strategy": "None"}
	}
	if names := child(spec, "names"); names != nil {
		kind := str(names, "kind")
		if str(names, "singular") == "" && kind != "" {
			names["singular"] = strings.ToLower(kind)
		}
		if str(names, "listKind") == "" && kind != "" {
			names["listKind"] = kind + "List"
		}
	}
}

// crdPrepareCreate resets status as the CRD strategy does.
func crdPrepareCreate(obj resource.Object) {
	st := map[string]any{
		"acceptedNames":  map[string]any{"kind": "", "plural": ""},
		"conditions":     nil,
		"storedVersions": []any{},
	}
	if storage := crdStorageVersion(obj); storage != "" {
		st["storedVersions"] = []any{storage}
	}
	obj["status"] = st
}

func crdVersions(crd resource.Object) []map[string]any {
	return items(child(crd, "spec"), "versions")
}

// crdStorageVersion is the name of the (last) version marked storage.
func crdStorageVersion(crd resource.Object) string {
	storage := ""
	for _, v := range crdVersions(crd) {
		if b, _ := v["storage"].(bool); b {
			storage = str(v, "name")
		}
	}
	return storage
}

// crdValidate checks what the resources derived from a CRD rely on.
func crdValidate(obj, old resource.Object) field.ErrorList {
	var errs field.ErrorList
	spec := child(obj, "spec")
	sp := field.NewPath("spec")
	if spec == nil {
		return field.ErrorList{field.Required(sp, "")}
	}
	group := str(spec, "group")
	names := child(spec, "names")
	plural := str(names, "plural")
	if group == "" {
		errs = append(errs, field.Required(sp.Child("group"), ""))
	} else if !strings.Contains(group, ".") {
		errs = append(errs, field.Invalid(sp.Child("group"), group, "should be a domain with at least one dot"))
	}
	if plural == "" {
		errs = append(errs, field.Required(sp.Child("names", "plural"), ""))
	}
	if str(names, "kind") == "" {
		errs = append(errs, field.Required(sp.Child("names", "kind"), ""))
	}
	if n := metaStr(obj, "name"); plural != "" && group != "" && n != plural+"."+group {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), n, "must be spec.names.plural+\".\"+spec.group"))
	}
	switch str(spec, "scope") {
	case "Namespaced", "Cluster":
	case "":
		errs = append(errs, field.Required(sp.Child("scope"), ""))
	default:
		errs = append(errs, field.NotSupported(sp.Child("scope"), str(spec, "scope"), []string{"Cluster", "Namespaced"}))
	}
	vs := crdVersions(obj)
	if len(vs) == 0 {
		errs = append(errs, field.Invalid(sp.Child("versions"), []any{}, "must have exactly one version marked as storage version"))
	}
	storage := 0
	for i, v := range vs {
		if b, _ := v["storage"].(bool); b {
			storage++
		}
		if sch, ok := nested(v, "schema", "openAPIV3Schema"); ok {
			if _, err := schema.FromCRD(sch); err != nil {
				errs = append(errs, field.Invalid(sp.Child("versions").Index(i).Child("schema", "openAPIV3Schema"), "", err.Error()))
			}
		}
	}
	if len(vs) > 0 && storage != 1 {
		errs = append(errs, field.Invalid(sp.Child("versions"), jsonx.DeepCopy(spec["versions"]), "must have exactly one version marked as storage version"))
	}
	return errs
}

// CRDResources builds one Resource per served version of a CRD.
func CRDResources(crd resource.Object) []*resource.Resource {
	spec := child(crd, "spec")
	names := child(spec, "names")
	storageVersion := crdStorageVersion(crd)
	rules := crdRules(crd)
	var out []*resource.Resource
	for _, v := range crdVersions(crd) {
		if served, _ := v["served"].(bool); !served {
			continue
		}
		res := &resource.Resource{
			Group: str(spec, "group"), Version: str(v, "name"),
			Resource: str(names, "plural"), Singular: str(names, "singular"),
			Kind: str(names, "kind"), ListKind: str(names, "listKind"),
			Namespaced: str(spec, "scope") == "Namespaced",
			ShortNames: jsonx.Strings(names["shortNames"]), Categories: jsonx.Strings(names["categories"]),
			CRD: true, StorageVersion: storageVersion,
		}
		if _, ok := nested(v, "subresources", "status"); ok {
			res.Status = true
			res.StatusKeeps = []string{resource.AllMetadata} // the status strategy copies the stored object
		}
		if sc, ok := nested(v, "subresources", "scale"); ok {
			if m, ok := sc.(map[string]any); ok {
				res.Scale = &resource.Scale{SpecReplicasPath: str(m, "specReplicasPath"), StatusReplicasPath: str(m, "statusReplicasPath"), LabelSelectorPath: str(m, "labelSelectorPath")}
			}
		}
		if sch, ok := nested(v, "schema", "openAPIV3Schema"); ok {
			res.Schema, _ = schema.FromCRD(sch)
			if schema.HasRules(sch) {
				res.Rules = rules
			}
		}
		if cols, ok := v["additionalPrinterColumns"].([]any); ok {
			for _, c := range cols {
				cm := mapOf(c)
				p, _ := jsonx.Int64(cm["priority"])
				res.PrinterColumns = append(res.PrinterColumns, resource.PrinterColumn{
					Name: str(cm, "name"), Type: str(cm, "type"), Format: str(cm, "format"),
					Description: str(cm, "description"), Priority: p, JSONPath: str(cm, "jsonPath")})
			}
		}
		for _, sf := range items(v, "selectableFields") {
			res.SelectableFields = append(res.SelectableFields, strings.TrimPrefix(str(sf, "jsonPath"), "."))
		}
		out = append(out, res)
	}
	return out
}

// crdRules is what the CEL engine needs of a CRD: its JSON and a key that
// changes with every write (uid/resourceVersion).
func crdRules(crd resource.Object) *resource.CRDRules {
	b, err := jsonx.Marshal(crd)
	if err != nil {
		return nil
	}
	return &resource.CRDRules{Key: metaStr(crd, "uid") + "/" + metaStr(crd, "resourceVersion"), CRD: b}
}

// crdHasRules: does any version's schema have CEL rules?
func crdHasRules(crd resource.Object) bool {
	for _, v := range crdVersions(crd) {
		if sch, ok := nested(v, "schema", "openAPIV3Schema"); ok && schema.HasRules(sch) {
			return true
		}
	}
	return false
}

// crdCEL asks the engine about the rules of a CRD being created, or
// updated with a changed spec (a status write does not check the schema,
// as the CRD status strategy does not). A CRD without rules never calls
// the engine.
func crdCEL(e cel.Engine, obj, old resource.Object) (field.ErrorList, error) {
	if !crdHasRules(obj) {
		return nil, nil
	}
	if old != nil && reflect.DeepEqual(obj["spec"], old["spec"]) {
		return nil, nil
	}
	o, ob, err := celJSON(obj, old)
	if err != nil {
		return nil, err
	}
	causes, err := e.CheckCRD(cel.CheckCRDRequest{CRD: o, Old: ob})
	if err != nil {
		return nil, err
	}
	return cel.Errors(causes), nil
}

// crdBeginDelete is the CRD registry's own delete: the clean-up finalizer
// and the Terminating condition; no grace period, no generation bump.
func crdBeginDelete(obj resource.Object, finalizers []string, now string) bool {
	m := ensure(obj, "metadata")
	if m == nil {
		return false
	}
	fins := make([]string, 0, len(finalizers)+1)
	for _, f := range finalizers {
		if f != "" {
			fins = append(fins, f)
		}
	}
	if !hasStr(fins, crdCleanupFinalizer) {
		fins = append(fins, crdCleanupFinalizer)
	}
	m["finalizers"] = jsonx.Anys(fins)
	m["deletionTimestamp"] = now
	st := child(obj, "status")
	if st == nil {
		st = map[string]any{}
		obj["status"] = st
	}
	conds, _ := st["conditions"].([]any)
	st["conditions"] = append(conds, map[string]any{
		"type": "Terminating", "status": "True", "reason": "InstanceDeletionPending",
		"message":            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
		"lastTransitionTime": now,
	})
	return true
}

// crdController keeps what the server serves in step with the stored
// CRDs, establishes new ones and cleans up deleted ones.
func crdController(c resource.Cluster, ev resource.Event) error {
	name := metaStr(ev.Obj, "name")
	deleting := metaStr(ev.Obj, "deletionTimestamp") != ""
	switch ev.Type {
	case resource.Created:
		c.Serve(name, CRDResources(ev.Obj))
		return c.Update(ev.Obj, "apiserver", "status", func(crd resource.Object) { crdEstablish(crd, c.Now()) })
	case resource.Restored:
		c.Serve(name, CRDResources(ev.Obj))
	case resource.Updated:
		if !deleting {
			c.Serve(name, CRDResources(ev.Obj))
		}
	case resource.Deleted:
		c.Serve(name, nil)
	case resource.Deleting:
		if err := c.Purge(name); err != nil {
			return err
		}
		c.Serve(name, nil)
		return c.Update(ev.Obj, "", "", func(crd resource.Object) {
			m := ensure(crd, "metadata")
			var fins []string
			for _, f := range jsonx.Strings(m["finalizers"]) {
				if f != crdCleanupFinalizer {
					fins = append(fins, f)
				}
			}
			if len(fins) == 0 {
				delete(m, "finalizers")
			} else {
				m["finalizers"] = jsonx.Anys(fins)
			}
		})
	}
	return nil
}

// crdEstablish writes the status the apiextensions controllers write once
// the names are accepted.
func crdEstablish(crd resource.Object, now string) {
	names := jsonx.DeepCopy(nestedOr(crd, "spec", "names"))
	st := child(crd, "status")
	if st == nil {
		st = map[string]any{}
		crd["status"] = st
	}
	st["acceptedNames"] = names
	st["conditions"] = []any{
		map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": now},
		map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": now},
	}
}

func hasStr(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
