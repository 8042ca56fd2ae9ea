package apiserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// deleteOptions is meta/v1 DeleteOptions, from the body and the query.
type deleteOptions struct {
	propagation string
	uid, rv     *string // preconditions; an empty one is compared too
	dryRun      bool
	grace       *int64
	adm         *admission // the request's validating admission (nil: none)
}

// deleteOptions reads DeleteOptions as the real handler does: from the
// body when there is one (the query is then not read at all), else from the
// query; then ValidateDeleteOptions.
func (q *request) deleteOptions() (deleteOptions, error) {
	var o deleteOptions
	body, err := readBody(q.r)
	if err != nil {
		return o, err
	}
	var orphan *bool
	var policy *string
	if len(body) > 0 {
		m, err := q.deleteOptionsBody(body)
		if err != nil {
			return o, err
		}
		if p, ok := m["propagationPolicy"].(string); ok {
			policy = &p
		}
		if pre, ok := m["preconditions"].(map[string]any); ok {
			if uid, ok := pre["uid"].(string); ok {
				o.uid = &uid
			}
			if rv, ok := pre["resourceVersion"].(string); ok {
				o.rv = &rv
			}
		}
		if g, ok := jsonx.Int64(m["gracePeriodSeconds"]); ok {
			o.grace = &g
		}
		for _, d := range jsonx.Strings(m["dryRun"]) {
			if d == "All" {
				o.dryRun = true
			}
		}
		if b, ok := m["orphanDependents"].(bool); ok {
			orphan = &b
		}
	} else {
		if p, ok := q.query["propagationPolicy"]; ok && len(p) > 0 {
			policy = &p[0]
		}
		if b, ok := q.query["orphanDependents"]; ok && len(b) > 0 {
			v := isTrue(b[0])
			orphan = &v
		}
		if g := q.query.Get("gracePeriodSeconds"); g != "" {
			n, err := strconv.ParseInt(g, 10, 64)
			if err != nil {
				return o, apierr.BadRequest(err.Error())
			}
			o.grace = &n
		}
		if o.dryRun, err = q.dryRun(); err != nil {
			return o, err
		}
	}
	var errs field.ErrorList
	if orphan != nil && policy != nil {
		errs = append(errs, field.Invalid(field.NewPath("propagationPolicy"), *policy, "orphanDependents and deletionPropagation cannot be both set"))
	}
	if policy != nil {
		switch *policy {
		case "Foreground", "Background", "Orphan":
		default:
			errs = append(errs, field.NotSupported(field.NewPath("propagationPolicy"), *policy, []string{"Foreground", "Background", "Orphan", "nil"}))
		}
		o.propagation = *policy
	} else if orphan != nil {
		o.propagation = map[bool]string{true: "Orphan", false: "Background"}[*orphan]
	}
	if len(errs) > 0 {
		return o, apierr.Invalid(apierr.GK{Group: "meta.k8s.io", Kind: "DeleteOptions"}, "", errs)
	}
	return o, nil
}

// deleteOptionsKind is the only kind a DELETE body may name (the body's
// type, not the resource's: no per-kind behaviour).
const deleteOptionsKind = "DeleteOptions"

// kindProbe is the serializer's first look at a JSON body
// (SimpleMetaFactory.Interpret); its type appears in the real error text.
type kindProbe struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// deleteOptionsBody decodes a DeleteOptions body. DeleteOptions is
// registered unversioned, so any apiVersion goes; another kind is not
// registered in the meta scheme.
func (q *request) deleteOptionsBody(body []byte) (map[string]any, error) {
	if contentType(q.r) == mediaProtobuf {
		m, err := protobuf.DecodeToJSONObject(body, builtin.Definition("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"))
		if err != nil {
			return nil, apierr.BadRequestf("the object provided is unrecognized (must be of type DeleteOptions): %v (%s)", err, summarize(body))
		}
		return m, nil
	}
	var probe kindProbe
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, apierr.BadRequest("couldn't get version/kind; json parse error: " + err.Error())
	}
	if k := probe.Kind; k != "" && k != deleteOptionsKind {
		return nil, apierr.BadRequestf("no kind %q is registered for version %q in scheme \"pkg/runtime/scheme.go:111\"", probe.Kind, probe.APIVersion)
	}
	m, err := jsonx.DecodeObject(body)
	if err != nil {
		return nil, apierr.BadRequestf("the object provided is unrecognized (must be of type DeleteOptions): %v (%s)", err, summarize(body))
	}
	return m, nil
}

func (q *request) delete() error {
	o, err := q.deleteOptions()
	if err != nil {
		return err
	}
	o.adm = q.admission("DELETE", writeOptions("DeleteOptions", o.dryRun))
	out, deleted, err := q.s.deleteObject(q.res, q.ri.namespace, q.ri.name, o)
	if err != nil {
		return err
	}
	if deleted && !q.res.DeleteReturnsObject {
		return q.respondStatusSuccess(out)
	}
	return q.respond(http.StatusOK, out)
}

func (q *request) respondStatusSuccess(obj object) error {
	details := map[string]any{"name": metaStr(obj, "name"), "kind": q.res.Resource, "uid": metaStr(obj, "uid")}
	if q.res.Group != "" { // omitempty, as in StatusDetails
		details["group"] = q.res.Group
	}
	writeObject(q.w, http.StatusOK, q.out, map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Success", "details": details,
	})
	return nil
}

// deleteObject deletes one object, or starts its graceful deletion when
// finalizers hold it. deleted reports that it is gone.
func (s *Server) deleteObject(res *resource.Resource, ns, name string, o deleteOptions) (object, bool, error) {
	gk := apierr.GK{Group: res.Group, Kind: res.Kind}
	graceful := false // marked with a grace period of 0 and no finalizer
	out, deleted, err := s.writeExisting(res, ns, name, o.dryRun, nil, func(obj object) (object, writeOp, error) {
		m := meta(obj)
		if o.uid != nil && *o.uid != str(m, "uid") {
			return nil, 0, preconditionConflict(gk, name, fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *o.uid, str(m, "uid")))
		}
		if o.rv != nil && *o.rv != str(m, "resourceVersion") {
			return nil, 0, preconditionConflict(gk, name, fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *o.rv, str(m, "resourceVersion")))
		}
		if res.Hooks.Delete.Forbid != nil {
			if why := res.Hooks.Delete.Forbid(obj); why != "" {
				return nil, 0, apierr.Forbidden(apierr.GR{Group: res.Group, Resource: res.Resource}, name, why)
			}
		}
		if err := o.adm.admit("DELETE", res, nil, obj); err != nil {
			return nil, 0, err
		}
		if str(m, "deletionTimestamp") != "" {
			if res.Hooks.Delete.GracePeriod != nil && o.grace != nil && s.shortenGrace(m, *o.grace) {
				graceful = int64OrZero(m["deletionGracePeriodSeconds"]) == 0 && len(jsonx.Strings(m["finalizers"])) == 0
				return obj, writeMarkGraceful, nil
			}
			return obj, writeUnchanged, nil // already being deleted
		}
		fins := jsonx.Strings(m["finalizers"])
		switch o.propagation {
		case "Foreground":
			fins = withFinalizer(fins, "foregroundDeletion", "orphan")
		case "Orphan":
			fins = withFinalizer(fins, "orphan", "foregroundDeletion")
		case "":
			// the strategy's DefaultGarbageCollectionPolicy, unless a
			// finalizer already says what happens to dependents
			if res.OrphanByDefault && !hasString(fins, "foregroundDeletion") {
				fins = withFinalizer(fins, "orphan", "foregroundDeletion")
			}
		}
		if res.Hooks.Delete.GracePeriod != nil {
			period := res.Hooks.Delete.GracePeriod(obj, o.grace)
			if len(fins) > 0 {
				m["finalizers"] = jsonx.Anys(fins)
			}
			m["deletionTimestamp"] = s.now().UTC().Add(time.Duration(period) * time.Second).Format(rfc3339)
			m["deletionGracePeriodSeconds"] = period
			if g, ok := jsonx.Int64(m["generation"]); ok && g > 0 {
				m["generation"] = g + 1
			}
			graceful = period == 0 && len(fins) == 0
			return obj, writeMarkGraceful, nil
		}
		if res.Hooks.Delete.Begin != nil && res.Hooks.Delete.Begin(obj, fins, s.timestamp()) {
			return obj, writeMarkDeleted, nil
		}
		if len(fins) == 0 {
			return obj, writeDeleteNow, nil
		}
		m["finalizers"] = jsonx.Anys(fins)
		m["deletionTimestamp"] = s.timestamp()
		m["deletionGracePeriodSeconds"] = int64(0)
		if g, ok := jsonx.Int64(m["generation"]); ok && g > 0 {
			m["generation"] = g + 1
		}
		return obj, writeMarkDeleted, nil
	})
	if err != nil {
		return nil, false, err
	}
	if graceful && !deleted && !o.dryRun {
		// the grace period is over at once: the registry deletes the
		// object it just marked (as it was, with the mark's resourceVersion)
		uid := metaStr(out, "uid")
		marked := out
		out, deleted, err = s.writeExisting(res, ns, name, false, nil, func(obj object) (object, writeOp, error) {
			if metaStr(obj, "uid") != uid || len(jsonx.Strings(meta(obj)["finalizers"])) > 0 {
				return obj, writeUnchanged, nil
			}
			return obj, writeDeleteNow, nil
		})
		if apierr.Is(err, apierr.ReasonNotFound) {
			return marked, true, nil // someone else removed it meanwhile
		}
		if err != nil {
			return nil, false, err
		}
	}
	if !deleted && !o.dryRun {
		// held by finalizers: the kind's controller carries on
		s.notify(res, resource.Event{Type: resource.Deleting, Obj: out})
	}
	return out, deleted, nil
}

// preconditionConflict is BeforeDelete's 409: like kube's, it names the
// kind where other conflicts name the resource ("Widget.example.com").
func preconditionConflict(gk apierr.GK, name, msg string) error {
	return apierr.Conflict(apierr.GR{Group: gk.Group, Resource: gk.Kind}, name, msg)
}

func withFinalizer(fins []string, add, remove string) []string {
	out := make([]string, 0, len(fins)+1)
	for _, f := range fins {
		if f != remove {
			out = append(out, f)
		}
	}
	if add != "" && !hasString(out, add) {
		out = append(out, add)
	}
	return out
}

func nestedOr(obj object, path ...string) any {
	v, _ := nested(obj, path...)
	return v
}

// shortenGrace is BeforeDelete on an object already deleted gracefully
// with a longer grace period than the one now requested: the deletion
// moves closer (never into the past; a period cut short that way becomes
// 1), and reports true. m is the object's metadata.
func (s *Server) shortenGrace(m map[string]any, period int64) bool {
	cur, ok := jsonx.Int64(m["deletionGracePeriodSeconds"])
	if !ok || cur == 0 || period >= cur {
		return false
	}
	if period < 0 {
		period = 1
	}
	ts, err := time.Parse(rfc3339, str(m, "deletionTimestamp"))
	if err != nil {
		return false
	}
	at := ts.Add(time.Duration(period-cur) * time.Second)
	if now := s.now().UTC().Truncate(time.Second); at.Before(now) {
		at = now
		if period != 0 {
			period = 1
		}
	}
	m["deletionTimestamp"] = at.Format(rfc3339)
	m["deletionGracePeriodSeconds"] = period
	return true
}

func int64OrZero(v any) int64 {
	n, _ := jsonx.Int64(v)
	return n
}
