package apiserver

import (
	"fmt"
	"net/http"
	"strconv"

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
	var prev object
	base := q.warn
	adm := q.admission("UPDATE", writeOptions("UpdateOptions", dry))
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, sub, dry, adm, func(old object) (object, error) {
		prev = old
		if uid := metaStr(obj, "uid"); uid != "" && uid != metaStr(old, "uid") {
			// the body's uid is a precondition of the storage update
			// (DefaultUpdatedObjectInfo.Preconditions), checked first
			return nil, apierr.Conflict(q.gr(), q.ri.name, fmt.Sprintf(
				"StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
				etcdKey(q.res, q.ri.namespace, q.ri.name), uid, metaStr(old, "uid")))
		}
		if rv := metaStr(obj, "resourceVersion"); rv != "" {
			if _, err := strconv.ParseUint(rv, 10, 64); err != nil {
				// ObjectResourceVersion's plain error: a 500 without a reason
				return nil, apierr.Unknown(err.Error())
			}
		}
		if rv := metaStr(obj, "resourceVersion"); rv == "" && (q.res.CRD || q.res.ConditionalUpdate) {
			// reported with the resource as the kind, like the storage layer does
			return nil, apierr.Invalid(apierr.GK{Group: q.res.Group, Kind: q.res.Resource}, q.ri.name, field.ErrorList{
				field.Invalid(field.NewPath("metadata", "resourceVersion"), int64(0), "must be specified for an update")})
		}
		next := jsonx.CopyObject(obj)
		if q.res.Hooks.Default != nil && !q.res.CRD {
			// kube-apiserver decodes (and so defaults) the body before
			// the field manager runs: what the defaults add (a Node's
			// status.allocatable from its capacity) is the writer's
			q.res.Hooks.Default(next)
		}
		q.warn = base[:len(base):len(base)] // the loop may run again
		q.warnFinalizers(next, old)
		prepareUpdate(q.res, next, old, sub)
		return q.s.fieldManagerFor(q.res).Update(old, next, manager, sub, q.s.now())
	})
	q.warn = append(q.warn, adm.warnings()...)
	if err != nil {
		return err
	}
	q.kindWarnings(out, prev)
	return q.respond(http.StatusOK, out)
}

// updateObject is the guaranteed-update loop of every write to an existing
// object: mutate computes the new object from the current one; the
// resourceVersion precondition, mutating admission, the strategy's rules
// after it (generation, a status strategy's PrepareForUpdate), validation,
// no-op detection, and the "last finalizer removed from a deleting object"
// rule are applied here. sub is the subresource written ("", "status" or
// "scale"). deleted reports that the write removed the object.
func (s *Server) updateObject(res *resource.Resource, ns, name, sub string, dryRun bool, adm *admission, mutate func(old object) (object, error)) (out object, deleted bool, err error) {
	op := writeUpdate
	if sub == "status" {
		op = writeUpdateStatus
	}
	return s.writeExisting(res, ns, name, dryRun, adm, func(old object) (object, writeOp, error) {
		obj, err := mutate(old)
		return obj, op, err
	})
}

// writeOp is what a decide function of writeExisting decides to do with
// the object it computed, as a store.UpdateFunc returns a store.Op.
type writeOp int

const (
	// writeUpdate: an update, validated and stored unless it changes
	// nothing; a deleting object it leaves without finalizers (and not
	// Delete.Held) is removed instead.
	writeUpdate writeOp = iota
	// writeUpdateStatus: writeUpdate of the status subresource, prepared
	// and validated by the kind's status strategy (no generation bump).
	writeUpdateStatus
	// writeMarkDeleted: the graceful-deletion write, stored like an update
	// but not validated as one (it sets the immutable deletion fields).
	writeMarkDeleted
	// writeDeleteNow: remove the object in the same transaction.
	writeDeleteNow
	// writeMarkGraceful: writeMarkDeleted stored even when no finalizer
	// holds the object (a graceful deletion; a second write removes it).
	writeMarkGraceful
	// writeUnchanged: leave the stored object as it is.
	writeUnchanged
	// writeStorage: a registry's own storage update (GuaranteedUpdate, a
	// Pod's binding): stored without update validation.
	writeStorage
)

// writeExisting is the loop behind updateObject and deleteObject: decide
// gets a copy of the current object and returns the next one with what to
// do with it. The controller of res hears of the outcome.
//
// adm is the request's validating admission: an update is admitted after
// its validation (a DELETE admits itself in deleteObject's decide).
func (s *Server) writeExisting(res *resource.Resource, ns, name string, dryRun bool, adm *admission, decide func(old object) (object, writeOp, error)) (out object, deleted bool, err error) {
	gr := apierr.GR{Group: res.Group, Resource: res.Resource}
	key := storageKey(res, ns, name)
	_, _, err = s.store.Update(key, func(cur *store.KV, next store.Revision) (store.Op, error) {
		out, deleted = nil, false // the store may run this again after a failed group commit
		if cur == nil {
			return store.NoOp(), apierr.NotFound(gr, name)
		}
		old, err := decodeStoredFor(res, *cur)
		if err != nil {
			return store.NoOp(), err
		}
		obj, op, err := decide(jsonx.CopyObject(old))
		if err != nil {
			return store.NoOp(), err
		}
		switch op {
		case writeUnchanged:
			out = old
			return store.NoOp(), nil
		case writeDeleteNow:
			out, deleted = obj, true
			if dryRun {
				return store.NoOp(), nil
			}
			// the deleted object is answered at the deletion's revision
			// (etcd3 store's conditionalDelete decodes it at txnResp.Revision)
			meta(obj)["resourceVersion"] = strconv.FormatInt(int64(next), 10)
			return store.DeleteOp(), nil
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
		if op == writeUpdate || op == writeUpdateStatus {
			// kube-apiserver's order: mutating admission (in the handler),
			// then the store's BeforeUpdate — the strategy's
			// PrepareForUpdate sees the admitted object —, validation,
			// validating admission
			if err := adm.mutate("UPDATE", obj, old); err != nil {
				return store.NoOp(), err
			}
			prepareAdmitted(res, obj, old, op == writeUpdateStatus, s.timestamp)
			if err := s.validate(res, obj, old, op == writeUpdateStatus); err != nil {
				return store.NoOp(), err
			}
			if err := adm.admit("UPDATE", res, obj, old); err != nil {
				return store.NoOp(), err
			}
		}
		m["resourceVersion"] = metaStr(old, "resourceVersion")
		if equalIgnoringManagedTimes(obj, old) {
			out = old
			return store.NoOp(), nil
		}
		held := res.Hooks.Delete.Held != nil && res.Hooks.Delete.Held(obj)
		// the registry's ShouldDeleteDuringUpdate: an object in its grace
		// period (a bound Pod being deleted) stays until the period is cut
		// to 0 — the kubelet's status write of its stopped containers is
		// an update, not its removal
		inGrace := int64OrZero(meta(old)["deletionGracePeriodSeconds"]) > 0
		if str(m, "deletionTimestamp") != "" && len(jsonx.Strings(m["finalizers"])) == 0 && !held && !inGrace && op != writeMarkGraceful {
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
		b, err := encodeForStore(res, obj, next)
		if err != nil {
			return store.NoOp(), err
		}
		out = obj
		return store.PutOp(b), nil
	})
	if err != nil {
		return nil, false, err
	}
	if !dryRun {
		if adm != nil {
			adm.plugins.flush()
		}
		ev := resource.Event{Type: resource.Updated, Obj: out}
		if deleted {
			ev.Type = resource.Deleted
		}
		s.notify(res, ev)
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
