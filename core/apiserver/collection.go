package apiserver

import (
	"strconv"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// deleteCollection deletes every object the selectors match and answers
// with the list of deleted objects (as they were), at the list's revision.
func (q *request) deleteCollection() error {
	if q.ri.subresource != "" {
		return apierr.MethodNotSupported(q.gr(), "deletecollection")
	}
	o, err := q.listOptions()
	if err != nil {
		return err
	}
	do, err := q.deleteOptions()
	if err != nil {
		return err
	}
	match := o.matcher(q.res)
	kvs, rev, _, err := q.s.store.List(storagePrefix(q.res, q.ri.namespace), "", 0, nil, 0)
	if err != nil {
		return err
	}
	items := []any{}
	for _, kv := range kvs {
		obj, err := q.decodeStored(kv)
		if err != nil {
			return err
		}
		if match != nil && !match(obj) {
			continue
		}
		out, _, err := q.s.deleteObject(q.res, metaStr(obj, "namespace"), metaStr(obj, "name"), do)
		if err != nil {
			continue // gone meanwhile
		}
		items = append(items, out)
	}
	lm := map[string]any{"resourceVersion": strconv.FormatInt(int64(rev), 10)}
	if q.res.CRD {
		lm["continue"] = ""
	}
	return q.respondList(items, lm)
}

// cleanupNamespace is the namespace lifecycle controller, run in-process:
// it deletes the content of a terminating namespace and, once nothing is
// left, removes the namespace.
func (s *Server) cleanupNamespace(ns string) {
	remaining := 0
	for _, res := range s.reg.all() {
		if !res.Namespaced || (res.StorageVersion != "" && res.StorageVersion != res.Version) {
			continue
		}
		kvs, _, _, _ := s.store.List(storagePrefix(res, ns), "", 0, nil, 0)
		for _, kv := range kvs {
			obj, err := decodeStoredFor(res, kv)
			if err != nil {
				continue
			}
			_, deleted, err := s.deleteObject(res, ns, metaStr(obj, "name"), deleteOptions{propagation: "Background"})
			if err == nil && !deleted {
				remaining++
			}
		}
	}
	if remaining > 0 {
		return
	}
	nsRes := s.reg.lookup("", "v1", "namespaces")
	s.updateObject(nsRes, "", ns, false, func(obj object) (object, error) {
		if metaStr(obj, "deletionTimestamp") == "" {
			return obj, nil
		}
		if spec, ok := obj["spec"].(map[string]any); ok {
			delete(spec, "finalizers")
		}
		if len(stringSlice(meta(obj)["finalizers"])) == 0 {
			return obj, errDeleteNow
		}
		return obj, nil
	})
}

// watchNamespaceContent re-checks a terminating namespace when an object in it
// goes away (its finalizers may have held the namespace).
func (s *Server) watchNamespaceContent(ev store.Event) {
	if ev.Type != store.Delete {
		return
	}
	obj, err := jsonx.DecodeObject(ev.KV.Value)
	if err != nil {
		return
	}
	ns := metaStr(obj, "namespace")
	if ns == "" {
		return
	}
	nsRes := s.reg.lookup("", "v1", "namespaces")
	kv, _, err := s.store.Get(storageKey(nsRes, "", ns), 0)
	if err != nil {
		return
	}
	nsObj, err := jsonx.DecodeObject(kv.Value)
	if err == nil && metaStr(nsObj, "deletionTimestamp") != "" {
		go s.cleanupNamespace(ns)
	}
}
