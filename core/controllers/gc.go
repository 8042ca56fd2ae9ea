package controllers

import (
	"bytes"
	"net/http"
)

// The garbage collector, after kubernetes/kubernetes
// pkg/controller/garbagecollector (attemptToDeleteItem,
// processDeletingDependentsItem, orphanDependents, removeFinalizer), with
// the store as its graph: dependents are found by scanning for the owner's
// uid.
//
// Worked example, `kubectl delete deploy web` (propagationPolicy
// Background): the Deployment is gone at once; its ReplicaSet web-5d4f
// has a dangling owner reference, so it is DELETEd (Background, uid
// precondition); then each pod web-5d4f-xxxxx is dangling and DELETEd.
//
// With Foreground the API server keeps the Deployment with the
// foregroundDeletion finalizer: its ReplicaSet (which has dependents) is
// deleted with Foreground, the pods with Background; when no dependent
// with blockOwnerDeletion is left, the finalizer is removed and the API
// server deletes the owner. With Orphan, the ownerReferences to the owner
// are patched out of its dependents, then the orphan finalizer is removed.

const (
	finalizerForeground = "foregroundDeletion"
	finalizerOrphan     = "orphan"
)

// collectGarbage runs the collector on one object; done reports that the
// object's controller should not run (it was deleted).
func (m *Manager) collectGarbage(key string, o obj) (bool, error) {
	if deleting(o) {
		switch {
		case hasFinalizer(o, finalizerForeground):
			return false, m.processDeletingDependents(key, o)
		case hasFinalizer(o, finalizerOrphan):
			return false, m.orphanDependents(key, o)
		}
		return false, nil // "being deleted" is a one-way trip: wait
	}
	refs := ownerRefs(o)
	if len(refs) == 0 {
		return false, nil
	}
	return m.attemptToDelete(key, o, refs)
}

// owner states, as classifyReferences.
const (
	ownerSolid = iota
	ownerDangling
	ownerWaiting // being deleted in foreground
)

func (m *Manager) classify(ns string, r ownerRef) int {
	k, ok := m.kindFor(r.group(), r.Kind)
	if !ok {
		return ownerSolid // unresolvable kind: the real collector retries, never deletes
	}
	if !k.Namespaced {
		ns = ""
	}
	owner := m.get(k, ns, r.Name)
	if owner == nil || uid(owner) != r.UID {
		return ownerDangling
	}
	if deleting(owner) && hasFinalizer(owner, finalizerForeground) {
		return ownerWaiting
	}
	return ownerSolid
}

func (m *Manager) attemptToDelete(key string, o obj, refs []ownerRef) (bool, error) {
	ns := namespace(o)
	var solid, dangling, waiting []ownerRef
	for _, r := range refs {
		switch m.classify(ns, r) {
		case ownerSolid:
			solid = append(solid, r)
		case ownerDangling:
			dangling = append(dangling, r)
		default:
			waiting = append(waiting, r)
		}
	}
	k, ok := m.kindForKey(key)
	if !ok {
		return false, nil
	}
	switch {
	case len(solid) != 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return false, nil
		}
		var uids []string
		for _, r := range append(dangling, waiting...) {
			uids = append(uids, r.UID)
		}
		return false, m.patchOwnerRefsOut(k, o, uids)
	case len(waiting) != 0 && len(m.dependents(uid(o), ns)) != 0:
		for _, d := range m.dependents(uid(o), ns) {
			if deleting(d.o) && hasFinalizer(d.o, finalizerForeground) {
				// a possible cycle: make our references non-blocking first
				if err := m.unblockOwnerRefs(k, o); err != nil {
					return false, err
				}
				break
			}
		}
		return true, m.deleteObject(k, o, "Foreground")
	default:
		policy := "Background"
		switch {
		case hasFinalizer(o, finalizerOrphan):
			policy = "Orphan"
		case hasFinalizer(o, finalizerForeground):
			policy = "Foreground"
		}
		return true, m.deleteObject(k, o, policy)
	}
}

// deleteObject is the collector's DELETE: a uid precondition and a policy.
func (m *Manager) deleteObject(k kindInfo, o obj, policy string) error {
	body := map[string]any{"kind": "DeleteOptions", "apiVersion": "v1",
		"preconditions": map[string]any{"uid": uid(o)}, "propagationPolicy": policy}
	_, err := m.cm.do(m.ctx, http.MethodDelete, k.path(namespace(o), name(o), ""), ctJSON, body)
	if isCode(err, http.StatusNotFound) || isCode(err, http.StatusConflict) {
		return nil // gone, or replaced by another object of that name
	}
	return err
}

// patchOwnerRefsOut removes the references to uids: a strategic merge
// patch with $patch: delete (GenerateDeleteOwnerRefStrategicMergeBytes),
// or, where strategic merge is unsupported (custom resources), a JSON
// merge patch of the remaining references.
func (m *Manager) patchOwnerRefsOut(k kindInfo, o obj, uids []string) error {
	var del []any
	for _, u := range uids {
		del = append(del, map[string]any{"$patch": "delete", "uid": u})
	}
	smp := map[string]any{"metadata": map[string]any{"ownerReferences": del, "uid": uid(o)}}
	path := k.path(namespace(o), name(o), "")
	_, err := m.cm.do(m.ctx, http.MethodPatch, path, ctStrategic, smp)
	if !isCode(err, http.StatusUnsupportedMediaType) {
		return ignoreNotFound(err)
	}
	drop := map[string]bool{}
	for _, u := range uids {
		drop[u] = true
	}
	var keep []any
	for _, e := range list(o, "metadata", "ownerReferences") {
		if em, ok := e.(map[string]any); ok && !drop[str(em, "uid")] {
			keep = append(keep, em)
		}
	}
	var refs any = keep
	if keep == nil {
		refs = nil
	}
	jmp := map[string]any{"metadata": map[string]any{"resourceVersion": rv(o), "ownerReferences": refs}}
	_, err = m.cm.do(m.ctx, http.MethodPatch, path, ctMerge, jmp)
	return ignoreNotFound(err)
}

// unblockOwnerRefs sets blockOwnerDeletion false on every reference that
// has it (unblockOwnerReferencesStrategicMergePatch).
func (m *Manager) unblockOwnerRefs(k kindInfo, o obj) error {
	var refs []any
	for _, r := range ownerRefs(o) {
		if r.Block {
			refs = append(refs, map[string]any{"uid": r.UID, "blockOwnerDeletion": false})
		}
	}
	if len(refs) == 0 {
		return nil
	}
	path := k.path(namespace(o), name(o), "")
	smp := map[string]any{"metadata": map[string]any{"ownerReferences": refs, "uid": uid(o)}}
	_, err := m.cm.do(m.ctx, http.MethodPatch, path, ctStrategic, smp)
	if !isCode(err, http.StatusUnsupportedMediaType) {
		return ignoreNotFound(err)
	}
	var all []any
	for _, e := range list(o, "metadata", "ownerReferences") {
		if em, ok := e.(map[string]any); ok {
			em = copyObj(em)
			if boolean(em, "blockOwnerDeletion") {
				em["blockOwnerDeletion"] = false
			}
			all = append(all, em)
		}
	}
	jmp := map[string]any{"metadata": map[string]any{"resourceVersion": rv(o), "ownerReferences": all}}
	_, err = m.cm.do(m.ctx, http.MethodPatch, path, ctMerge, jmp)
	return ignoreNotFound(err)
}

// processDeletingDependents: an owner in foreground deletion loses its
// finalizer once no dependent blocks it.
func (m *Manager) processDeletingDependents(key string, o obj) error {
	id := uid(o)
	blocking := 0
	for _, d := range m.dependents(id, namespace(o)) {
		for _, r := range ownerRefs(d.o) {
			if r.UID == id && r.Block {
				blocking++
				if !(deleting(d.o) && hasFinalizer(d.o, finalizerForeground)) {
					m.q.add(d.key)
				}
			}
		}
	}
	if blocking > 0 {
		return nil
	}
	return m.removeFinalizer(key, o, finalizerForeground)
}

// orphanDependents removes the references to the owner from its
// dependents, then the orphan finalizer.
func (m *Manager) orphanDependents(key string, o obj) error {
	id := uid(o)
	for _, d := range m.dependents(id, namespace(o)) {
		k, ok := m.kindForKey(d.key)
		if !ok {
			continue
		}
		if err := m.patchOwnerRefsOut(k, d.o, []string{id}); err != nil {
			return err
		}
	}
	return m.removeFinalizer(key, o, finalizerOrphan)
}

// removeFinalizer is a JSON merge patch of the remaining finalizers with
// the resourceVersion read (so a concurrent change conflicts and retries).
func (m *Manager) removeFinalizer(key string, o obj, f string) error {
	k, ok := m.kindForKey(key)
	if !ok {
		return nil
	}
	var rest []any
	found := false
	for _, x := range finalizers(o) {
		if x == f {
			found = true
			continue
		}
		rest = append(rest, x)
	}
	if !found {
		return nil
	}
	var fins any = rest
	if rest == nil {
		fins = nil
	}
	p := map[string]any{"metadata": map[string]any{"resourceVersion": rv(o), "finalizers": fins}}
	_, err := m.cm.do(m.ctx, http.MethodPatch, k.path(namespace(o), name(o), ""), ctMerge, p)
	return ignoreNotFound(err)
}

func ignoreNotFound(err error) error {
	if isCode(err, http.StatusNotFound) {
		return nil
	}
	return err
}

// dependents are the objects with an owner reference to uid: in ns for a
// namespaced owner, anywhere for a cluster-scoped one (ns "").
func (m *Manager) dependents(ownerUID, ns string) []stored {
	if ownerUID == "" {
		return nil
	}
	kvs, _, _, err := m.st.List("/", "", 0, nil, 0)
	if err != nil {
		return nil
	}
	hint := []byte(ownerUID)
	var out []stored
	for _, kv := range kvs {
		if !interesting(kv.Key) || !bytes.Contains(kv.Value, hint) {
			continue
		}
		_, _, kns, _, ok := parseKey(kv.Key)
		if !ok || (ns != "" && kns != ns) {
			continue
		}
		o := decode(kv.Value)
		for _, r := range ownerRefs(o) {
			if r.UID == ownerUID {
				out = append(out, stored{kv.Key, o})
				break
			}
		}
	}
	return out
}

// ownerKey is the storage key of the object a reference names.
func (m *Manager) ownerKey(ns string, r ownerRef) (string, bool) {
	k, ok := m.kindFor(r.group(), r.Kind)
	if !ok || r.Name == "" {
		return "", false
	}
	if !k.Namespaced {
		ns = ""
	} else if ns == "" {
		return "", false
	}
	return k.storeKey(ns, r.Name), true
}

// kindFor resolves group/Kind from the built-in catalogue, then the
// CustomResourceDefinitions in the store.
func (m *Manager) kindFor(group, kind string) (kindInfo, bool) {
	if k, ok := builtinKinds()[group+"/"+kind]; ok {
		return k, true
	}
	return m.crdKind(func(k kindInfo) bool { return k.Group == group && k.Kind == kind })
}

// kindForKey resolves the resource of a storage key.
func (m *Manager) kindForKey(key string) (kindInfo, bool) {
	group, plural, _, _, ok := parseKey(key)
	if !ok {
		return kindInfo{}, false
	}
	if k, ok := builtinKinds()[group+"/"+plural+"/"]; ok {
		return k, true
	}
	return m.crdKind(func(k kindInfo) bool { return k.Group == group && k.Plural == plural })
}

func (m *Manager) crdKind(match func(kindInfo) bool) (kindInfo, bool) {
	kvs, _, _, err := m.st.List("/apiextensions.k8s.io/customresourcedefinitions/", "", 0, nil, 0)
	if err != nil {
		return kindInfo{}, false
	}
	for _, kv := range kvs {
		crd := decode(kv.Value)
		k := kindInfo{Group: str(crd, "spec", "group"), Plural: str(crd, "spec", "names", "plural"),
			Kind: str(crd, "spec", "names", "kind"), Namespaced: str(crd, "spec", "scope") == "Namespaced"}
		for _, v := range list(crd, "spec", "versions") {
			vm, _ := v.(map[string]any)
			if boolean(vm, "storage") || (k.Version == "" && boolean(vm, "served")) {
				k.Version = str(vm, "name")
			}
		}
		if k.Version != "" && match(k) {
			return k, true
		}
	}
	return kindInfo{}, false
}
