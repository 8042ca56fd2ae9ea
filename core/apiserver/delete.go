package apiserver

import (
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
	uid, rv     string // preconditions
	dryRun      bool
	grace       *int64
}

func (q *request) deleteOptions() (deleteOptions, error) {
	var o deleteOptions
	body, err := readBody(q.r)
	if err != nil {
		return o, err
	}
	if len(body) > 0 {
		var m map[string]any
		if contentType(q.r) == mediaProtobuf {
			m, err = protobuf.DecodeToJSONObject(body, builtin.Definition("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"))
		} else {
			m, err = jsonx.DecodeObject(body)
		}
		if err != nil {
			return o, apierr.BadRequestf("the object provided is unrecognized (must be of type DeleteOptions): %v (%s)", err, summarize(body))
		}
		o.propagation, _ = m["propagationPolicy"].(string)
		if pre, ok := m["preconditions"].(map[string]any); ok {
			o.uid, _ = pre["uid"].(string)
			o.rv, _ = pre["resourceVersion"].(string)
		}
		if g, ok := jsonx.Int64(m["gracePeriodSeconds"]); ok {
			o.grace = &g
		}
		for _, d := range jsonx.Strings(m["dryRun"]) {
			if d == "All" {
				o.dryRun = true
			}
		}
		if orphan, ok := m["orphanDependents"].(bool); ok && o.propagation == "" {
			o.propagation = map[bool]string{true: "Orphan", false: "Background"}[orphan]
		}
	}
	if p := q.query.Get("propagationPolicy"); p != "" {
		o.propagation = p
	}
	if g := q.query.Get("gracePeriodSeconds"); g != "" {
		n, err := strconv.ParseInt(g, 10, 64)
		if err != nil {
			return o, apierr.BadRequestf("gracePeriodSeconds: invalid value %q", g)
		}
		o.grace = &n
	}
	dry, err := q.dryRun()
	if err != nil {
		return o, err
	}
	o.dryRun = o.dryRun || dry
	switch o.propagation {
	case "", "Foreground", "Background", "Orphan":
	default:
		return o, apierr.Invalid(apierr.GK{Group: "meta.k8s.io", Kind: "DeleteOptions"}, "", field.ErrorList{
			field.NotSupported(field.NewPath("propagationPolicy"), o.propagation, []string{"Foreground", "Background", "Orphan", "nil"})})
	}
	return o, nil
}

func (q *request) delete() error {
	o, err := q.deleteOptions()
	if err != nil {
		return err
	}
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
	out, deleted, err := s.writeExisting(res, ns, name, o.dryRun, func(obj object) (object, writeOp, error) {
		m := meta(obj)
		if o.uid != "" && o.uid != str(m, "uid") {
			return nil, 0, preconditionConflict(gk, name, fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", o.uid, str(m, "uid")))
		}
		if o.rv != "" && o.rv != str(m, "resourceVersion") {
			return nil, 0, preconditionConflict(gk, name, fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", o.rv, str(m, "resourceVersion")))
		}
		if res.Hooks.Delete.Forbid != nil {
			if why := res.Hooks.Delete.Forbid(obj); why != "" {
				return nil, 0, apierr.Forbidden(apierr.GR{Group: res.Group, Resource: res.Resource}, name, why)
			}
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
		out, deleted, err = s.writeExisting(res, ns, name, false, func(obj object) (object, writeOp, error) {
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
