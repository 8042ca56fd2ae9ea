package apiserver

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// The write path shared by create, update, patch and apply:
//
//	body ─decode─▶ object ─checkTypeMeta─▶ default+prune ─▶ prepare (system
//	fields, status rules, generation) ─▶ validate ─▶ managedFields ─▶ store
//
// Every step may fail with a typed error; nothing is stored unless all pass.

const rfc3339 = "2006-01-02T15:04:05Z"

func (s *Server) timestamp() string { return s.now().UTC().Format(rfc3339) }

// checkTypeMeta fills apiVersion/kind when missing and rejects bodies of
// another group/version (400) or kind (CRs: 422 Invalid; built-ins: 400).
func checkTypeMeta(res *resource.Resource, obj object) error {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if av == "" {
		obj["apiVersion"] = res.GroupVersion()
	} else if av != res.GroupVersion() {
		return apierr.BadRequestf("the API version in the data (%s) does not match the expected API version (%s)", av, res.GroupVersion())
	}
	if kind == "" {
		obj["kind"] = res.Kind
	} else if kind != res.Kind {
		if !res.CRD {
			return apierr.BadRequestf("no kind %q is registered for version %q in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"", kind, res.GroupVersion())
		}
		name := metaStr(obj, "name")
		return apierr.Invalid(apierr.GK{Group: res.Group, Kind: kind}, name,
			field.ErrorList{field.Invalid(field.NewPath("kind"), kind, "must be "+res.Kind)})
	}
	return nil
}

// checkNamespace makes the object's namespace agree with the URL's.
func checkNamespace(res *resource.Resource, obj object, ns string) error {
	m := meta(obj)
	got := str(m, "namespace")
	if !res.Namespaced {
		if got != "" {
			delete(m, "namespace")
		}
		return nil
	}
	if got != "" && got != ns {
		return apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if ns != "" {
		m["namespace"] = ns
	}
	return nil
}

const nameChars = "bcdfghjklmnpqrstvwxz2456789"

// generateName appends five random characters to prefix (cut to 58).
func generateName(prefix string) string {
	if len(prefix) > 58 {
		prefix = prefix[:58]
	}
	b := make([]byte, 5)
	rand.Read(b)
	for i := range b {
		b[i] = nameChars[int(b[i])%len(nameChars)]
	}
	return prefix + string(b)
}

// hasGeneration reports whether objects of res carry metadata.generation.
func hasGeneration(res *resource.Resource) bool { return !res.NoGeneration }

// specChanged reports a change outside metadata (and status, when status
// is a subresource): the rule for bumping generation.
func specChanged(res *resource.Resource, obj, old object) bool {
	for k := range union(obj, old) {
		if k == "metadata" || (k == "status" && res.Status) || k == "apiVersion" || k == "kind" {
			continue
		}
		if !equal(obj[k], old[k]) {
			return true
		}
	}
	return false
}

func union(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// prepareCreate sets what the server owns on a new object.
func (s *Server) prepareCreate(res *resource.Resource, obj object) {
	m := meta(obj)
	delete(m, "deletionTimestamp")
	delete(m, "deletionGracePeriodSeconds")
	delete(m, "selfLink")
	m["uid"] = uuid.NewString()
	m["creationTimestamp"] = s.timestamp()
	if hasGeneration(res) {
		m["generation"] = int64(1)
	} else {
		delete(m, "generation")
	}
	if str(m, "name") == "" && str(m, "generateName") != "" {
		m["name"] = generateName(str(m, "generateName"))
	}
	if res.Status {
		if res.CRD {
			delete(obj, "status")
		}
	}
}

// prepareCreateHook runs the resource's PrepareCreate (its registry
// strategy and the default admission plugins). createObject calls it after
// the field manager, as kube-apiserver runs admission and PrepareForCreate
// after managedFields are computed: what they add (a pod's
// serviceAccountName, priority and tolerations, a namespace's finalizer)
// is owned by nobody. Then Requester records who creates it.
func prepareCreateHook(res *resource.Resource, obj object, user resource.User) {
	if res.Hooks.PrepareCreate != nil {
		res.Hooks.PrepareCreate(obj)
	}
	if res.Hooks.Requester != nil {
		if user == nil {
			user = resource.Anonymous()
		}
		res.Hooks.Requester(obj, user)
	}
}

// prepareUpdate carries over what clients cannot change and applies the
// status/main split. sub is "" or "status".
func prepareUpdate(res *resource.Resource, obj, old object, sub string) {
	m, om := meta(obj), meta(old)
	if sub == "status" {
		prepareStatusUpdate(res, obj, old)
		return
	}
	if res.Status {
		if st, ok := old["status"]; ok {
			obj["status"] = jsonx.DeepCopy(st)
		} else {
			delete(obj, "status")
		}
	}
	carryMeta(m, om)
	if res.Hooks.PrepareUpdate != nil {
		res.Hooks.PrepareUpdate(obj, old)
	}
}

// prepareStatusUpdate is a status strategy's PrepareForUpdate after
// rest.BeforeUpdate: the stored object with the written status, and the
// written metadata less what the kind keeps (res.StatusKeeps) and every
// update keeps (carryMeta). With AllMetadata the written managedFields
// and resourceVersion are all that comes of the metadata.
//
// For example, a Deployment's status PATCH
// {"metadata":{"labels":{"a":"b"},"finalizers":["x/y"]}} stores the
// finalizer and keeps the stored labels.
func prepareStatusUpdate(res *resource.Resource, obj, old object) {
	m, om := meta(obj), meta(old)
	status, hasStatus := obj["status"]
	for k := range obj {
		delete(obj, k)
	}
	for k, v := range jsonx.CopyObject(old) {
		obj[k] = v
	}
	if hasStatus {
		obj["status"] = status
	} else {
		delete(obj, "status")
	}
	if len(res.StatusKeeps) == 1 && res.StatusKeeps[0] == resource.AllMetadata {
		nm := meta(obj)
		for _, k := range []string{"managedFields", "resourceVersion"} {
			if v, ok := m[k]; ok {
				nm[k] = v
			} else {
				delete(nm, k)
			}
		}
		return
	}
	obj["metadata"] = m
	carryMeta(m, om)
	for _, k := range res.StatusKeeps {
		if v, ok := om[k]; ok {
			m[k] = jsonx.DeepCopy(v)
		} else {
			delete(m, k)
		}
	}
}

// carryMeta is what rest.BeforeUpdate keeps of the stored metadata om in
// an update's m: generation, uid (when m has none), creation and deletion
// time stamps, the grace period.
func carryMeta(m, om map[string]any) {
	if g, ok := om["generation"]; ok {
		m["generation"] = g
	} else {
		delete(m, "generation")
	}
	if str(m, "uid") == "" && om["uid"] != nil {
		m["uid"] = om["uid"]
	}
	if om["creationTimestamp"] != nil {
		m["creationTimestamp"] = om["creationTimestamp"]
	}
	if om["deletionTimestamp"] != nil {
		m["deletionTimestamp"] = om["deletionTimestamp"]
	} else {
		delete(m, "deletionTimestamp")
	}
	if om["deletionGracePeriodSeconds"] != nil && m["deletionGracePeriodSeconds"] == nil {
		m["deletionGracePeriodSeconds"] = om["deletionGracePeriodSeconds"]
	}
	delete(m, "selfLink")
}

// prepareAdmitted is the rest of the strategy's PrepareForUpdate, which
// kube runs after mutating admission (the store's BeforeUpdate): a write
// of the main resource or its scale moves metadata.generation once when
// the admitted spec differs from the stored one (unless the kind's own
// PrepareUpdate moved it already, as autoscaling/v1's rule for a change
// only its stored v2 spec shows does); a status write runs the status
// strategy's PrepareStatusUpdate (now: the server's clock).
//
// For example, a Pod PUT whose body drops the priority the Priority
// plugin restores changes no spec, and keeps its generation.
func prepareAdmitted(res *resource.Resource, obj, old object, status bool, now func() string) {
	if status {
		if res.Hooks.PrepareStatusUpdate != nil {
			res.Hooks.PrepareStatusUpdate(obj, old, now())
		}
		return
	}
	if !hasGeneration(res) || res.FixedGeneration {
		return
	}
	m := meta(obj)
	g, _ := jsonx.Int64(m["generation"])
	og, _ := jsonx.Int64(meta(old)["generation"])
	if g == og && specChanged(res, obj, old) {
		m["generation"] = og + 1
	}
}

// validate runs metadata, schema and resource validation, and the
// kind's CEL checks when the server has an engine.
// A status write (status) is checked with the kind's ValidateStatus where
// it has one, instead of Validate.
func (s *Server) validate(res *resource.Resource, obj, old object, status bool) error {
	var errs field.ErrorList
	if old != nil || !res.NoKindMetaChecks {
		errs = validateMeta(res, obj, old)
	}
	errs = append(errs, schemaValidate(res, obj)...)
	if status && res.Hooks.ValidateStatus != nil {
		errs = append(errs, res.Hooks.ValidateStatus(obj, old)...)
	} else if res.Hooks.Validate != nil {
		errs = append(errs, res.Hooks.Validate(obj, old)...)
	}
	if old == nil && res.NoKindMetaChecks && len(errs) == 0 {
		errs = validateMeta(res, obj, old)
	}
	if res.Hooks.CEL != nil && s.opts.CEL != nil {
		celErrs, err := res.Hooks.CEL(s.opts.CEL, obj, old)
		if err != nil {
			return apierr.Internal(err)
		}
		errs = append(errs, celErrs...)
	}
	if !res.CRD && !res.DuplicateCauses {
		errs = errs.Dedup()
	}
	var warnings []string
	if res.Rules != nil && s.opts.CEL != nil {
		ruleErrs, w, err := s.customResourceRules(res, obj, old, errs)
		if err != nil {
			return apierr.Internal(err)
		}
		errs, warnings = append(errs, ruleErrs...), w
	}
	if len(errs) > 0 {
		return withWarnings(apierr.Invalid(objectGK(res), metaStr(obj, "name"), errs), warnings)
	}
	s.keepWarnings(obj, warnings)
	return nil
}

// objectGK is the group and kind an Invalid error names: the real
// registry's, the object's internal kind (an events.k8s.io Event's is
// core's Event).
func objectGK(res *resource.Resource) apierr.GK {
	if res.View != nil {
		return apierr.GK{Group: res.View.Group, Kind: res.Kind}
	}
	return apierr.GK{Group: res.Group, Kind: res.Kind}
}

// encodeForStore stamps the revision and serialises (a View's object as
// the group it views stores it).
func encodeForStore(res *resource.Resource, obj object, rev store.Revision) ([]byte, error) {
	meta(obj)["resourceVersion"] = strconv.FormatInt(int64(rev), 10)
	if res.View != nil {
		return jsonx.Marshal(res.View.ToStorage(obj))
	}
	return jsonx.Marshal(obj)
}

// storeErr maps storage errors to API errors for one object.
func storeErr(err error, gr apierr.GR, name string) error {
	switch err {
	case store.ErrNotFound:
		return apierr.NotFound(gr, name)
	case store.ErrExists:
		return apierr.AlreadyExists(gr, name)
	case store.ErrCompacted:
		return apierr.Expired("The resourceVersion for the provided list is too old.")
	}
	return err
}

// namespaceCheck: the namespace must exist (404) and not be terminating
// (403) for a create of a namespaced object.
func (s *Server) namespaceCheck(res *resource.Resource, ns, name string) error {
	if !res.Namespaced {
		return nil
	}
	nsRes := s.reg.lookup("", "v1", "namespaces")
	if nsRes == nil {
		return nil
	}
	kv, _, err := s.store.Get(storageKey(nsRes, "", ns), 0)
	if err != nil {
		return apierr.NotFound(apierr.GR{Resource: "namespaces"}, ns)
	}
	if !bytes.Contains(kv.Value, []byte(`"deletionTimestamp"`)) {
		return nil // not being deleted: no key of that name anywhere (every create used to decode its Namespace to see that)
	}
	nsObj, err := jsonx.DecodeObject(kv.Value)
	if err != nil {
		return err
	}
	if metaStr(nsObj, "deletionTimestamp") != "" {
		e := apierr.Forbidden(apierr.GR{Group: res.Group, Resource: res.Resource}, name,
			fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", ns))
		e.Details.Causes = []apierr.Cause{{Type: "NamespaceTerminating", Message: fmt.Sprintf("namespace %s is being terminated", ns), Field: "metadata.namespace"}}
		return e
	}
	return nil
}

var _ = http.StatusOK
var _ = time.Second
