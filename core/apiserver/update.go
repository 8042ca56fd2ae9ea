package apiserver

import (
	"net/http"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// update handles PUT of an object or its status.
func (q *request) update() error {
	if q.ri.subresource == "scale" {
		return q.updateScale()
	}
	obj, dry, err := q.decodeWrite(false)
	if err != nil {
		return err
	}
	manager := q.managerName()
	sub := q.ri.subresource
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, dry, func(old object) (object, error) {
		if rv := metaStr(obj, "resourceVersion"); rv == "" && q.res.CRD {
			// reported with the resource as the kind, like the storage layer does
			return nil, apierr.Invalid(apierr.GK{Group: q.res.Group, Kind: q.res.Resource}, q.ri.name, field.ErrorList{
				field.Invalid(field.NewPath("metadata", "resourceVersion"), int64(0), "must be specified for an update")})
		}
		next := jsonx.CopyObject(obj)
		prepareUpdate(q.res, next, old, sub)
		return q.s.fieldManagerFor(q.res).Update(old, next, manager, sub, q.s.now())
	})
	if err != nil {
		return err
	}
	return q.respond(http.StatusOK, out)
}

// updateObject is the guaranteed-update loop of every write to an existing
// object: mutate computes the new object from the current one; the
// resourceVersion precondition, validation, no-op detection, and the
// "last finalizer removed from a deleting object" rule are applied here.
// deleted reports that the write removed the object.
func (s *Server) updateObject(res *resource.Resource, ns, name string, dryRun bool, mutate func(old object) (object, error)) (out object, deleted bool, err error) {
	return s.writeExisting(res, ns, name, dryRun, false, mutate)
}

// writeExisting is updateObject; deleting marks the graceful-deletion
// write, which is not validated as an update (it sets the immutable
// deletion fields).
func (s *Server) writeExisting(res *resource.Resource, ns, name string, dryRun, deleting bool, mutate func(old object) (object, error)) (out object, deleted bool, err error) {
	gr := apierr.GR{Group: res.Group, Resource: res.Resource}
	key := storageKey(res, ns, name)
	var oldForCRD object
	_, _, err = s.store.Update(key, func(cur *store.KV, next store.Revision) (store.Op, error) {
		out, deleted = nil, false // the store may run this again after a failed group commit
		if cur == nil {
			return store.NoOp(), apierr.NotFound(gr, name)
		}
		old, err := decodeStoredFor(res, *cur)
		if err != nil {
			return store.NoOp(), err
		}
		oldForCRD = old
		obj, err := mutate(jsonx.CopyObject(old))
		if err == errDeleteNow {
			out, deleted = obj, true
			if dryRun {
				return store.NoOp(), nil
			}
			return store.DeleteOp(), nil
		}
		if err != nil {
			return store.NoOp(), err
		}
		m := meta(obj)
		if rv := str(m, "resourceVersion"); rv != "" && rv != metaStr(old, "resourceVersion") {
			return store.NoOp(), apierr.Conflict(gr, name, apierr.OptimisticLockMessage)
		}
		if res.Hooks.Default != nil {
			res.Hooks.Default(obj)
		}
		if str(m, "resourceVersion") == "" && !res.CRD {
			// built-ins allow unconditional updates: the registry fills in
			// the stored resourceVersion before validating
			m["resourceVersion"] = metaStr(old, "resourceVersion")
		}
		if !deleting {
			if err := validate(res, obj, old); err != nil {
				return store.NoOp(), err
			}
		}
		m["resourceVersion"] = metaStr(old, "resourceVersion")
		if equalIgnoringManagedTimes(obj, old) {
			out = old
			return store.NoOp(), nil
		}
		// a namespace is also held by spec.finalizers (the registry's
		// ShouldDeleteNamespaceDuringUpdate)
		nsHeld := res.Kind == "Namespace" && !res.CRD && len(stringSlice(nestedOr(obj, "spec", "finalizers"))) > 0
		if str(m, "deletionTimestamp") != "" && len(stringSlice(m["finalizers"])) == 0 && !nsHeld {
			out, deleted = obj, true
			if dryRun {
				return store.NoOp(), nil
			}
			return store.DeleteOp(), nil
		}
		if dryRun {
			out = obj
			return store.NoOp(), nil
		}
		b, err := encodeForStore(obj, next)
		if err != nil {
			return store.NoOp(), err
		}
		out = obj
		return store.PutOp(b), nil
	})
	if err != nil {
		return nil, false, err
	}
	if isCRDResource(res) && !dryRun {
		s.crdUpdated(oldForCRD, out, deleted)
	}
	return out, deleted, nil
}

// equalIgnoringManagedTimes: an update that changes nothing but the time
// stamps of managedFields is a no-op (the real server restores the old
// managedFields in that case).
func equalIgnoringManagedTimes(a, b object) bool {
	if equal(a, b) {
		return true
	}
	ac, bc := jsonx.CopyObject(a), jsonx.CopyObject(b)
	for _, o := range []object{ac, bc} {
		if l, ok := meta(o)["managedFields"].([]any); ok {
			for _, e := range l {
				if em, ok := e.(map[string]any); ok {
					delete(em, "time")
				}
			}
		}
	}
	if equal(ac, bc) {
		meta(a)["managedFields"] = meta(b)["managedFields"]
		return true
	}
	return false
}

func isCRDResource(res *resource.Resource) bool {
	return res.Group == "apiextensions.k8s.io" && res.Resource == "customresourcedefinitions"
}
