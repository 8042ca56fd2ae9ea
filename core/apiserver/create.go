package apiserver

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// create handles POST on a collection (or on an object path, which the
// real server also treats as create).
func (q *request) create() error {
	// the name on the URL (POST to an object path) may be left out of the body
	obj, dry, err := q.decodeWrite(q.ri.name == "")
	if err != nil {
		return err
	}
	q.warnFinalizers(obj, nil)
	adm := q.admission("CREATE", writeOptions("CreateOptions", dry))
	var stored []byte
	out, err := q.s.createObject(q.res, obj, createOpts{manager: q.managerName(), dryRun: dry, adm: adm, user: q.user(), stored: &stored})
	q.warn = append(q.warn, adm.warnings()...)
	if err != nil {
		return err
	}
	q.kindWarnings(out, nil)
	if q.answersStored(stored) {
		q.warnKept(out)
		return q.writeBody(http.StatusCreated, mediaJSON, stored)
	}
	return q.respond(http.StatusCreated, out)
}

// kindWarnings adds the kind's warnings (resource.Hooks.Warnings) for a
// successful write of the main resource; old is nil for a create.
func (q *request) kindWarnings(obj, old object) {
	if q.res.Hooks.Warnings == nil || q.ri.subresource != "" || obj == nil {
		return
	}
	for _, w := range q.res.Hooks.Warnings(obj, old) {
		if h, ok := warningHeader(w); ok {
			q.warn = append(q.warn, h)
		}
	}
}

// standardFinalizers need no domain.
var standardFinalizers = map[string]bool{"orphan": true, "foregroundDeletion": true, "kubernetes": true}

// warnFinalizers is the custom resource strategy's WarningsOnCreate/Update:
// each finalizer the write adds that has no domain path is warned about
// (built-in kinds reject those in validation instead).
func (q *request) warnFinalizers(obj, old object) {
	if !q.res.CRD {
		return
	}
	had := map[string]bool{}
	if old != nil {
		for _, f := range jsonx.Strings(meta(old)["finalizers"]) {
			had[f] = true
		}
	}
	added := map[string]bool{}
	for _, f := range jsonx.Strings(meta(obj)["finalizers"]) {
		if !had[f] {
			added[f] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(added)) {
		if strings.Contains(f, "/") || standardFinalizers[f] {
			continue
		}
		msg := "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
		if strings.Contains(f, ".") {
			msg = "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers"
		}
		if h, ok := warningHeader(fmt.Sprintf("metadata.finalizers: %q: %s", f, msg)); ok {
			q.warn = append(q.warn, h)
		}
	}
}

// answer serves a virtual resource (resource.Hooks.Answer): a create is
// decoded and checked as any, gets its managedFields and is answered by
// the kind; nothing is stored, dry run or not.
func (q *request) answer() error {
	if q.ri.name != "" || q.ri.subresource != "" {
		return apierr.NotFoundPath()
	}
	if q.ri.verb != "create" {
		return apierr.MethodNotAllowed()
	}
	if err := q.checkFieldManager(); err != nil {
		return err
	}
	obj, _, err := q.decodeWrite(true)
	if err != nil {
		return err
	}
	obj, err = q.s.fieldManagerFor(q.res).Update(nil, obj, q.managerName(), "", q.s.now())
	if err != nil {
		return err
	}
	out, err := q.res.Hooks.Answer(obj, q.s.timestamp(), q.user())
	if err != nil {
		return err
	}
	return q.respond(http.StatusCreated, out)
}

// decodeWrite is the common front of create and update: options, body,
// type meta, name and namespace against the URL, and fieldValidation.
// With anyName, the body's name is not compared with the URL's; an empty
// body name is accepted on create.
func (q *request) decodeWrite(anyName bool) (obj object, dry bool, err error) {
	if dry, err = q.dryRun(); err != nil {
		return nil, false, err
	}
	fv, err := q.fieldValidation()
	if err != nil {
		return nil, false, err
	}
	body, err := readBody(q.r)
	if err != nil {
		return nil, false, err
	}
	if obj, err = decodeObject(q.r, body, q.res); err != nil {
		return nil, false, err
	}
	if err := checkMetadataType(q.res, obj); err != nil {
		return nil, false, err
	}
	if err := checkJSONTypes(q.res, obj); err != nil {
		return nil, false, err
	}
	if av, _ := obj["apiVersion"].(string); av == "" && q.res.CRD {
		// the unstructured decoder does not default the version (built-in
		// kinds get the URL's)
		return nil, false, apierr.BadRequestf("the API version in the data () does not match the expected API version (%s)", q.res.GroupVersion())
	}
	if err := checkTypeMeta(q.res, obj); err != nil {
		return nil, false, err
	}
	n := metaStr(obj, "name")
	mismatch := n != q.ri.name
	if q.ri.verb == "create" {
		mismatch = n != "" && n != q.ri.name
	}
	if !anyName && mismatch {
		return nil, false, apierr.BadRequestf("the name of the object (%s) does not match the name on the URL (%s)", n, q.ri.name)
	}
	if err := checkNamespace(q.res, obj, q.ri.namespace); err != nil {
		return nil, false, err
	}
	if err := q.checkFields(fv, body, obj); err != nil {
		return nil, false, err
	}
	return obj, dry, nil
}

type createOpts struct {
	manager string
	dryRun  bool
	// applied: the object came from server-side apply, whose field manager
	// already set managedFields.
	applied bool
	// user: who creates it (nil: resource.Anonymous())
	user resource.User
	// adm is the request's validating admission (nil: none).
	adm *admission
	// stored, when set, receives the bytes written to the store (not on a
	// dry run): the answer's JSON when nothing changes the object after.
	stored *[]byte
}

// createObject runs the create pipeline on a decoded, type-checked object
// and stores it. The result is the stored object.
func (s *Server) createObject(res *resource.Resource, obj object, o createOpts) (object, error) {
	gr := apierr.GR{Group: res.Group, Resource: res.Resource}
	m := meta(obj)
	if str(m, "name") == "" && str(m, "generateName") == "" {
		return nil, apierr.Invalid(objectGK(res), "", validateMeta(res, obj, nil))
	}
	s.prepareCreate(res, obj)
	name := str(m, "name")
	if err := s.namespaceCheck(res, str(m, "namespace"), name); err != nil {
		return nil, err
	}
	if res.Hooks.Default != nil {
		res.Hooks.Default(obj)
	}
	if !o.applied {
		managed, err := s.fieldManagerFor(res).Update(nil, obj, o.manager, "", s.now())
		if err != nil {
			return nil, err
		}
		if mf, ok := meta(managed)["managedFields"]; ok {
			m["managedFields"] = mf
		} else {
			delete(m, "managedFields")
		}
	}
	// mutating admission, then the strategy's PrepareForCreate, as kube's
	// create handler admits before rest.BeforeCreate
	if err := o.adm.mutate("CREATE", obj, nil); err != nil {
		return nil, err
	}
	prepareCreateHook(res, obj, o.user)
	if err := s.validate(res, obj, nil, false); err != nil {
		return nil, err
	}
	if err := o.adm.admit("CREATE", res, obj, nil); err != nil {
		return nil, err
	}
	if res.Hooks.Allocate != nil {
		// after the field manager ran: nobody owns what it sets
		res.Hooks.Allocate(obj)
	}
	if rv, err := strconv.ParseUint(str(m, "resourceVersion"), 10, 64); err == nil && rv != 0 && !o.dryRun && !o.applied {
		// etcd3's Create refuses a resourceVersion it can parse (not "0",
		// not "abc") with a plain error (500), after validation and
		// admission, before the existence check; a dry run never reaches
		// etcd and keeps it, and apply's create writes through
		// GuaranteedUpdate, which sets the new one.
		return nil, apierr.Unknown("resourceVersion should not be set on objects to be created")
	}
	key := storageKey(res, str(m, "namespace"), name)
	var result object
	_, _, err := s.store.Update(key, func(cur *store.KV, next store.Revision) (store.Op, error) {
		if cur != nil {
			return store.NoOp(), apierr.AlreadyExists(gr, name)
		}
		if o.dryRun {
			result = jsonx.CopyObject(obj)
			return store.NoOp(), nil
		}
		b, err := encodeForStore(res, obj, next)
		if err != nil {
			return store.NoOp(), err
		}
		result = obj
		if o.stored != nil {
			*o.stored = b
		}
		return store.PutOp(b), nil
	})
	if err != nil {
		return nil, err
	}
	if !o.dryRun {
		s.notify(res, resource.Event{Type: resource.Created, Obj: result})
	}
	return result, nil
}
