package apiserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// request is one resource request on its way through the verbs.
type request struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	ri    reqInfo
	res   *resource.Resource
	out   output
	query url.Values
	warn  []string
}

func (q *request) dispatch() error {
	if q.res.Hooks.Answer != nil {
		return q.answer()
	}
	if q.res.Hooks.Computed != nil {
		return q.computed()
	}
	switch q.ri.verb {
	case "create", "update", "patch":
		if err := q.checkFieldManager(); err != nil {
			return err
		}
	}
	if sub := ownSubresource(q.res, q.ri.subresource); sub != nil {
		return q.serveSubresource(sub)
	}
	switch q.ri.verb {
	case "get":
		return q.get()
	case "list":
		return q.list()
	case "watch":
		return q.watch()
	case "create":
		if q.ri.subresource != "" {
			return apierr.MethodNotSupported(q.gr(), "create")
		}
		return q.create()
	case "update":
		if q.ri.name == "" {
			return apierr.BadRequest("name must be provided")
		}
		return q.update()
	case "patch":
		if q.ri.name == "" {
			return apierr.BadRequest("name must be provided")
		}
		return q.patch()
	case "delete":
		if q.ri.subresource != "" {
			return apierr.MethodNotSupported(q.gr(), "delete")
		}
		return q.delete()
	case "deletecollection":
		return q.deleteCollection()
	}
	return apierr.MethodNotSupported(q.gr(), q.ri.verb)
}

func (q *request) gr() apierr.GR { return apierr.GR{Group: q.res.Group, Resource: q.res.Resource} }
func (q *request) gk() apierr.GK { return apierr.GK{Group: q.res.Group, Kind: q.res.Kind} }

// storageKey is /<group>/<resource>/<namespace>/<name> (namespace left
// out for cluster-scoped resources). Every version of a resource shares
// its keys, so objects are listed in namespace, then name order; a View
// uses the keys of the group it views (events.k8s.io events: /core/events/).
func storageKey(res *resource.Resource, ns, name string) string {
	return storagePrefix(res, ns) + name
}

func storagePrefix(res *resource.Resource, ns string) string {
	g := res.Group
	if res.View != nil {
		g = res.View.Group
	}
	if g == "" {
		g = "core"
	}
	p := "/" + g + "/" + res.Resource + "/"
	if res.Namespaced && ns != "" {
		p += ns + "/"
	}
	return p
}

// etcdKey is the key the real server stores an object under, as its
// storage errors quote it: /registry/<group>/<resource>/<ns>/<name> for a
// custom resource, /registry/<resource>/<ns>/<name> for a built-in one
// (a few built-ins have their own prefix there, e.g. services/specs).
func etcdKey(res *resource.Resource, ns, name string) string {
	p := "/registry/"
	if res.CRD {
		p += res.Group + "/"
	}
	p += res.Resource + "/"
	if res.Namespaced && ns != "" {
		p += ns + "/"
	}
	return p + name
}

func (q *request) key() string { return storageKey(q.res, q.ri.namespace, q.ri.name) }

// decodeStored turns stored bytes into the object as the requested
// version shows it.
func (q *request) decodeStored(kv store.KV) (object, error) {
	return decodeStoredFor(q.res, kv)
}

func decodeStoredFor(res *resource.Resource, kv store.KV) (object, error) {
	obj, err := jsonx.DecodeObject(kv.Value)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	if res.View != nil {
		obj = res.View.FromStorage(obj)
	}
	obj["apiVersion"] = res.GroupVersion()
	return obj, nil
}

// respond writes an object (or list, or Status) in the negotiated form.
func (q *request) respond(code int, v object) error {
	q.warnKept(v)
	for _, w := range q.warn {
		q.w.Header().Add("Warning", w)
	}
	if q.out.table {
		t, err := q.table(v)
		if err != nil {
			return err
		}
		writeObject(q.w, code, output{media: mediaJSON}, t)
		return nil
	}
	if q.out.partial != "" {
		p, err := q.partialAnswer(v)
		if err != nil {
			return err
		}
		v = p
	}
	writeObject(q.w, code, q.out, v)
	return nil
}

// dryRun reports dryRun=All (and rejects other values as the real server).
func (q *request) dryRun() (bool, error) {
	vals := q.query["dryRun"]
	if len(vals) == 0 {
		return false, nil
	}
	for _, v := range vals {
		if v != "All" {
			return false, q.optionsInvalid(field.NotSupported(field.NewPath("dryRun"), vals, []string{"All"}))
		}
	}
	return true, nil
}

// optionsKind names the options type of the verb (CreateOptions, ...).
func (q *request) optionsKind() string {
	switch q.ri.verb {
	case "create":
		return "CreateOptions"
	case "update":
		return "UpdateOptions"
	case "patch":
		return "PatchOptions"
	case "delete", "deletecollection":
		return "DeleteOptions"
	}
	return "ListOptions"
}

func (q *request) optionsInvalid(errs ...*field.Error) error {
	return apierr.Invalid(apierr.GK{Group: "meta.k8s.io", Kind: q.optionsKind()}, "", errs)
}

// checkFieldManager validates the fieldManager parameter.
func (q *request) checkFieldManager() error {
	m := q.query.Get("fieldManager")
	var errs field.ErrorList
	if len(m) > 128 {
		errs = append(errs, field.TooLong(field.NewPath("fieldManager"), "", 128))
	}
	for i, r := range m {
		if !strconv.IsPrint(r) { // unicode.IsPrint's definition, without its tables
			errs = append(errs, field.Invalid(field.NewPath("fieldManager"), m, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	if len(errs) > 0 {
		return q.optionsInvalid(errs...)
	}
	return nil
}

// managerName is the field manager of a non-apply write: the fieldManager
// parameter, else the User-Agent's program name (up to the first '/').
func (q *request) managerName() string {
	if m := q.query.Get("fieldManager"); m != "" {
		return m
	}
	ua := q.r.Header.Get("User-Agent")
	if i := strings.IndexByte(ua, '/'); i >= 0 {
		ua = ua[:i]
	}
	return ua
}
