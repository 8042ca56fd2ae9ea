package apiserver

import (
	"fmt"
	"log"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// CustomResourceDefinitions: a CRD object in storage is the source of the
// resources it serves. Creating one registers its served versions at once
// and writes the Established/NamesAccepted status (as the apiextensions
// controllers do, but synchronously); deleting one removes its objects and
// its resources, then the CRD itself.

const crdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// crdDefault fills the server-side defaults of a CRD spec.
func crdDefault(obj object) {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return
	}
	if _, ok := spec["conversion"]; !ok {
		spec["conversion"] = map[string]any{"strategy": "None"}
	}
	if names, ok := spec["names"].(map[string]any); ok {
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
func crdPrepareCreate(obj object) {
	storage := ""
	for _, v := range crdVersions(obj) {
		if b, _ := v["storage"].(bool); b {
			storage = str(v, "name")
		}
	}
	st := map[string]any{
		"acceptedNames":  map[string]any{"kind": "", "plural": ""},
		"conditions":     nil,
		"storedVersions": []any{},
	}
	if storage != "" {
		st["storedVersions"] = []any{storage}
	}
	obj["status"] = st
}

func crdVersions(obj object) []map[string]any {
	spec, _ := obj["spec"].(map[string]any)
	l, _ := spec["versions"].([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// crdValidate checks what the resources derived from a CRD rely on.
func crdValidate(obj, old object) field.ErrorList {
	var errs field.ErrorList
	spec, _ := obj["spec"].(map[string]any)
	sp := field.NewPath("spec")
	if spec == nil {
		return field.ErrorList{field.Required(sp, "")}
	}
	group := str(spec, "group")
	names, _ := spec["names"].(map[string]any)
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
			if _, err := schemaFromCRD(sch); err != nil {
				errs = append(errs, field.Invalid(sp.Child("versions").Index(i).Child("schema", "openAPIV3Schema"), "", err.Error()))
			}
		}
	}
	if len(vs) > 0 && storage != 1 {
		errs = append(errs, field.Invalid(sp.Child("versions"), jsonx.DeepCopy(spec["versions"]), "must have exactly one version marked as storage version"))
	}
	return errs
}

// crdResources builds one Resource per served version of a CRD.
func crdResources(crd object) []*resource.Resource {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	storageVersion := ""
	for _, v := range crdVersions(crd) {
		if b, _ := v["storage"].(bool); b {
			storageVersion = str(v, "name")
		}
	}
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
			ShortNames: stringSlice(names["shortNames"]), Categories: stringSlice(names["categories"]),
			CRD: true, StorageVersion: storageVersion,
		}
		if _, ok := nested(v, "subresources", "status"); ok {
			res.Status = true
		}
		if sc, ok := nested(v, "subresources", "scale"); ok {
			if m, ok := sc.(map[string]any); ok {
				res.Scale = &resource.Scale{SpecReplicasPath: str(m, "specReplicasPath"), StatusReplicasPath: str(m, "statusReplicasPath"), LabelSelectorPath: str(m, "labelSelectorPath")}
			}
		}
		if sch, ok := nested(v, "schema", "openAPIV3Schema"); ok {
			res.Schema, _ = schemaFromCRD(sch)
		}
		if cols, ok := v["additionalPrinterColumns"].([]any); ok {
			for _, c := range cols {
				cm, _ := c.(map[string]any)
				p, _ := int64Of(cm["priority"])
				res.PrinterColumns = append(res.PrinterColumns, resource.PrinterColumn{
					Name: str(cm, "name"), Type: str(cm, "type"), Format: str(cm, "format"),
					Description: str(cm, "description"), Priority: p, JSONPath: str(cm, "jsonPath")})
			}
		}
		if sfs, ok := v["selectableFields"].([]any); ok {
			for _, sf := range sfs {
				if m, ok := sf.(map[string]any); ok {
					res.SelectableFields = append(res.SelectableFields, strings.TrimPrefix(str(m, "jsonPath"), "."))
				}
			}
		}
		out = append(out, res)
	}
	return out
}

// crdCreated registers the new CRD's resources and marks it Established.
// The create has been answered already: if the status write fails, the
// CRD is served but not Established, as while the real establishing
// controller has not run yet, and the error is logged as that controller
// logs it (a NotFound only means the CRD is gone again).
func (s *Server) crdCreated(crd object) {
	s.registerCRD(crd)
	name := metaStr(crd, "name")
	crdRes := s.reg.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	now := s.timestamp()
	_, _, err := s.updateObject(crdRes, "", name, false, func(obj object) (object, error) {
		next := jsonx.CopyObject(obj)
		spec, _ := next["spec"].(map[string]any)
		names := jsonx.DeepCopy(spec["names"])
		st, _ := next["status"].(map[string]any)
		if st == nil {
			st = map[string]any{}
			next["status"] = st
		}
		st["acceptedNames"] = names
		st["conditions"] = []any{
			map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found", "lastTransitionTime": now},
			map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted", "lastTransitionTime": now},
		}
		return s.fieldManagerFor(crdRes).Update(obj, next, "apiserver", "status", s.now())
	})
	if err != nil && !apierr.Is(err, apierr.ReasonNotFound) {
		handleError(fmt.Errorf("establishing CustomResourceDefinition %q: %w", name, err))
	}
}

func (s *Server) registerCRD(crd object) {
	name := metaStr(crd, "name")
	s.reg.removeCRD(name)
	for _, res := range crdResources(crd) {
		s.reg.add(res, name)
	}
}

// crdUpdated keeps the registry in step with a CRD write.
func (s *Server) crdUpdated(old, cur object, deleted bool) {
	if deleted {
		s.reg.removeCRD(metaStr(old, "name"))
		return
	}
	if cur != nil && metaStr(cur, "deletionTimestamp") == "" {
		s.registerCRD(cur)
	}
}

func markCRDTerminating(obj object, now string) {
	st, _ := obj["status"].(map[string]any)
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
}

// afterGracefulDelete runs what controllers do once an object is marked for
// deletion: a CRD's instances are removed and then its cleanup finalizer;
// a namespace's content is removed and then the namespace.
func (s *Server) afterGracefulDelete(res *resource.Resource, obj object) {
	switch {
	case isCRDResource(res):
		s.cleanupCRD(obj)
	case !res.CRD && res.Kind == "Namespace":
		s.cleanupNamespace(metaStr(obj, "name"))
	}
}

// cleanupCRD is the CRD finalizer controller: it deletes the CRD's
// objects and then its cleanup finalizer. When a write fails it stops, as
// the real controller does (InstanceDeletionFailed, requeue): the CRD
// keeps its finalizer and the rest of its objects, and the next DELETE of
// the CRD (or the next start) tries again.
func (s *Server) cleanupCRD(crd object) {
	name := metaStr(crd, "name")
	for _, res := range s.reg.all() {
		if !res.CRD {
			continue
		}
		if s.reg.ownerOf(res) != name {
			continue
		}
		prefix := storagePrefix(res, "")
		kvs, _, _, _ := s.store.List(prefix, "", 0, nil, 0)
		for _, kv := range kvs {
			_, _, err := s.store.Update(kv.Key, func(cur *store.KV, next store.Revision) (store.Op, error) {
				if cur == nil {
					return store.NoOp(), nil
				}
				return store.DeleteOp(), nil
			})
			if err != nil {
				handleError(fmt.Errorf("deleting the objects of CustomResourceDefinition %q: %w", name, err))
				return
			}
		}
		break
	}
	s.reg.removeCRD(name)
	crdRes := s.reg.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	_, _, err := s.updateObject(crdRes, "", name, false, func(obj object) (object, error) {
		m := meta(obj)
		fins := withFinalizer(stringSlice(m["finalizers"]), "", crdCleanupFinalizer)
		if len(fins) == 0 {
			delete(m, "finalizers")
		} else {
			m["finalizers"] = toAnySlice(fins)
		}
		return obj, nil
	})
	if err != nil && !apierr.Is(err, apierr.ReasonNotFound) {
		handleError(fmt.Errorf("removing the finalizer of CustomResourceDefinition %q: %w", name, err))
	}
}

// handleError reports an error that has no client to answer to (the work
// of an in-process controller), as utilruntime.HandleError does: a line
// on stderr (the browser console under WebAssembly).
func handleError(err error) {
	log.Printf("apiserver: %v", err)
}
