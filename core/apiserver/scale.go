package apiserver

import (
	"net/http"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/patch"
)

// The scale subresource: an autoscaling/v1 Scale view of an object whose
// replicas live at the resource's spec/status paths.

func scaleOf(res *resource.Resource, obj object) object {
	m := meta(obj)
	sm := map[string]any{}
	for _, k := range []string{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"} {
		if v, ok := m[k]; ok {
			sm[k] = v
		}
	}
	spec := map[string]any{}
	// ScaleSpec.replicas is omitempty: a Scale of 0 replicas has spec {}
	if v, ok := nested(obj, jsonPathFields(res.Scale.SpecReplicasPath)...); ok && !isZeroNumber(v) {
		spec["replicas"] = v
	}
	status := map[string]any{"replicas": int64(0)}
	if v, ok := nested(obj, jsonPathFields(res.Scale.StatusReplicasPath)...); ok {
		status["replicas"] = v
	}
	if res.Scale.LabelSelectorPath != "" {
		v, ok := nested(obj, jsonPathFields(res.Scale.LabelSelectorPath)...)
		if !ok && !res.CRD {
			// the built-in registries print spec.selector
			// (LabelSelectorAsSelector(spec.selector).String())
			v, ok = nested(obj, "spec", "selector")
		}
		if ok {
			if s, ok := v.(string); ok {
				status["selector"] = s
			} else if sel, ok := v.(map[string]any); ok && res.Scale.SelectorIsSet {
				status["selector"] = builtin.SelectorString(map[string]any{"matchLabels": sel})
			} else if sel, ok := v.(map[string]any); ok {
				status["selector"] = builtin.SelectorString(sel)
			}
		}
	}
	return object{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": sm, "spec": spec, "status": status}
}

func (q *request) getScale() error {
	obj, err := q.current()
	if err != nil {
		return err
	}
	writeObject(q.w, http.StatusOK, q.out, scaleOf(q.res, obj))
	return nil
}

func (q *request) updateScale() error {
	dry, err := q.dryRun()
	if err != nil {
		return err
	}
	body, err := readBody(q.r)
	if err != nil {
		return err
	}
	if contentType(q.r) == mediaProtobuf {
		// typed clients send their Scale as protobuf, also to custom
		// resources (whose scale endpoint serves Scale with every codec)
		sc, err := decodeProtobufBody(body, "Scale", "v1", builtin.Definition("io.k8s.api.autoscaling.v1.Scale"))
		if err != nil {
			return err
		}
		return q.writeScale(sc, dry)
	}
	sc, err := jsonx.DecodeObject(body)
	if err != nil {
		return apierr.BadRequestf("the object provided is unrecognized (must be of type Scale): couldn't get version/kind; json parse error: %v (%s)", err, summarize(body))
	}
	return q.writeScale(sc, dry)
}

func (q *request) patchScale(pt string, body []byte, dry bool) error {
	if pt != patchJSON && pt != patchMerge && pt != patchStrategic {
		return apierr.UnsupportedMediaType(pt, []string{patchJSON, patchMerge})
	}
	// The patch applies to the Scale of the object as stored at each try
	// (as kube-apiserver's patcher does inside GuaranteedUpdate), so a
	// controller's write between our read and our write (a Deployment's
	// status) is not a 409: the patched Scale carries the fresh
	// resourceVersion.
	return q.storeScale(dry, func(old object) (object, error) {
		cur, _ := jsonx.Marshal(scaleOf(q.res, old))
		var patched []byte
		var err error
		if pt == patchJSON {
			patched, err = patch.JSONPatch(cur, body)
		} else {
			patched, err = patch.MergePatch(cur, body)
		}
		if err != nil {
			return nil, patch.ToAPIError(err)
		}
		sc, err := jsonx.DecodeObject(patched)
		if err != nil {
			return nil, apierr.BadRequest(err.Error())
		}
		return sc, q.checkScale(sc)
	})
}

// writeScale stores the replicas of a Scale into the object.
func (q *request) writeScale(sc object, dry bool) error {
	// the built-in scale REST's ValidateScale, before it reads the object
	if err := q.checkScale(sc); err != nil {
		return err
	}
	return q.storeScale(dry, func(object) (object, error) { return sc, nil })
}

// checkScale is the built-in scale REST's ValidateScale (custom resources
// leave it to their schema).
func (q *request) checkScale(sc object) error {
	replicas, _ := nested(sc, "spec", "replicas")
	if n, ok := jsonx.Int64(replicas); ok && n < 0 && !q.res.CRD && metaStr(sc, "name") == q.ri.name {
		return apierr.Invalid(apierr.GK{Group: "autoscaling", Kind: "Scale"}, metaStr(sc, "name"),
			field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), n, "must be greater than or equal to 0")})
	}
	return nil
}

// storeScale writes the Scale that scaleFor makes from the stored object
// into it and answers the resulting Scale.
func (q *request) storeScale(dry bool, scaleFor func(old object) (object, error)) error {
	manager := q.managerName()
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, "scale", dry, q.admission("UPDATE", writeOptions("UpdateOptions", dry)), func(old object) (object, error) {
		sc, err := scaleFor(old)
		if err != nil {
			return nil, err
		}
		replicas, hasReplicas := nested(sc, "spec", "replicas")
		obj := jsonx.CopyObject(old)
		if rv := metaStr(sc, "resourceVersion"); rv != "" {
			meta(obj)["resourceVersion"] = rv
		}
		if hasReplicas {
			setNested(obj, replicas, jsonPathFields(q.res.Scale.SpecReplicasPath)...)
		}
		if errs := schemaValidate(q.res, obj); len(errs) > 0 {
			return nil, apierr.Invalid(q.gk(), q.ri.name, errs)
		}
		out, err := q.s.fieldManagerFor(q.res).Update(old, obj, manager, "scale", q.s.now())
		if err == nil {
			dropScaleEntryTimes(out)
			if hasReplicas && isZeroNumber(replicas) {
				// a Scale of 0 replicas has spec {} (omitempty): its
				// entry owns nothing and is not kept (and no other scale
				// entry still owns spec.replicas, which this write took)
				dropScaleEntries(out)
			}
		}
		return out, err
	})
	if err != nil {
		return err
	}
	writeObject(q.w, http.StatusOK, q.out, scaleOf(q.res, out))
	return nil
}

// dropScaleEntryTimes: entries written through the scale subresource carry
// no time stamp on the real server (its scale handler rebuilds them).
func dropScaleEntryTimes(obj object) {
	l, _ := meta(obj)["managedFields"].([]any)
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["subresource"] == "scale" {
			delete(m, "time")
		}
	}
}

// dropScaleEntries removes the entries of the scale subresource.
func dropScaleEntries(obj object) {
	l, _ := meta(obj)["managedFields"].([]any)
	kept := l[:0:0]
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["subresource"] == "scale" {
			continue
		}
		kept = append(kept, e)
	}
	if len(kept) != len(l) {
		meta(obj)["managedFields"] = kept
	}
}

func isZeroNumber(v any) bool {
	n, ok := jsonx.Int64(v)
	return ok && n == 0
}
