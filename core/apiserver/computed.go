package apiserver

import (
	"net/http"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// computed serves a computed, read-only resource (resource.Hooks.Computed),
// as kube-apiserver's componentstatus REST does: for example
//
//	GET /api/v1/componentstatuses/etcd-0
//	→ 200 {"kind":"ComponentStatus","apiVersion":"v1","metadata":{"name":"etcd-0"},
//	       "conditions":[{"type":"Healthy","status":"True","message":"ok"}]}
//
// An unknown name is 404 `componentstatus "nope" not found` (the REST names
// the singular), a list has empty list metadata, watch is 405.
func (q *request) computed() error {
	if q.ri.subresource != "" {
		return apierr.NotFoundPath()
	}
	switch q.ri.verb {
	case "get":
		for _, it := range q.res.Hooks.Computed(q.s.opts.Controllers != nil) {
			if m, _ := it["metadata"].(map[string]any); m != nil && m["name"] == q.ri.name {
				obj := object(jsonx.CopyObject(it))
				obj["apiVersion"], obj["kind"] = q.res.GroupVersion(), q.res.Kind
				return q.respond(http.StatusOK, obj)
			}
		}
		return apierr.NotFound(apierr.GR{Group: q.res.Group, Resource: q.res.Singular}, q.ri.name)
	case "list":
		var items []any
		for _, it := range q.res.Hooks.Computed(q.s.opts.Controllers != nil) {
			items = append(items, map[string]any(jsonx.CopyObject(it)))
		}
		if items == nil {
			items = []any{}
		}
		return q.respondList(items, map[string]any{})
	case "watch":
		return apierr.MethodNotSupported(q.gr(), "watch")
	}
	return apierr.MethodNotAllowed()
}
