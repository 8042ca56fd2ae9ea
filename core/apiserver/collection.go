package apiserver

import (
	"strconv"

	"github.com/kubesandbox/kubesandbox/core/apierr"
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
	do.adm = q.admission("DELETE", writeOptions("DeleteOptions", do.dryRun))
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
		item := do
		if item.adm != nil {
			// the collection's admission attributes name no object (kube's message says "Unknown")
			item.adm = q.s.admissionFor(q.res, metaStr(obj, "namespace"), "", "", "DELETE", writeOptions("DeleteOptions", do.dryRun), do.dryRun, q.user())
		}
		out, deleted, err := q.s.deleteObject(q.res, metaStr(obj, "namespace"), metaStr(obj, "name"), item)
		if apierr.Is(err, apierr.ReasonNotFound) {
			continue // gone meanwhile
		}
		if err != nil {
			return err // as the registry's DeleteCollection: the first failure
		}
		if deleted {
			// the registry answers the items it listed, not the deletions'
			// revisions a single DELETE answers
			meta(out)["resourceVersion"] = metaStr(obj, "resourceVersion")
		}
		items = append(items, out)
	}
	lm := map[string]any{"resourceVersion": strconv.FormatInt(int64(rev), 10)}
	if q.res.CRD {
		lm["continue"] = ""
	}
	return q.respondList(items, lm)
}
