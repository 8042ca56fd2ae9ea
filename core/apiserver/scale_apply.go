package apiserver

import (
	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/patch"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

// applyScale is server-side apply of an autoscaling/v1 Scale
// (application/apply-patch+yaml on …/NAME/scale, client-go's ApplyScale):
// as kube-apiserver's scale handler maps a Scale's managedFields onto the
// parent's (managedfields.ScaleHandler), the applied spec.replicas is
// applied to the parent's replicas path by the manager on subresource
// "scale", so the parent gains the entry
//
//	{"manager":"hpa","operation":"Apply","apiVersion":"apps/v1","fieldsType":"FieldsV1",
//	 "fieldsV1":{"f:spec":{"f:replicas":{}}},"subresource":"scale"}
//
// and the answer is the Scale. A conflict names the other manager as its
// identifier on the parent reads (`conflict with "kubectl-create" using
// apps/v1`: the scale handler keeps the parent's manager identifiers).
func (q *request) applyScale(body []byte, force, dry bool) error {
	applied, err := fieldmanager.ParseApplyBody(body)
	if err != nil {
		return err
	}
	if n := metaStr(applied, "name"); n != "" && n != q.ri.name {
		return apierr.BadRequestf("the name of the object (%s) does not match the name on the URL (%s)", n, q.ri.name)
	}
	if err := q.checkScale(applied); err != nil {
		return err
	}
	parent := object{"apiVersion": q.res.GroupVersion(), "kind": q.res.Kind, "metadata": map[string]any{"name": q.ri.name}}
	if q.res.Namespaced {
		meta(parent)["namespace"] = q.ri.namespace
	}
	replicas, hasReplicas := nested(applied, "spec", "replicas")
	if hasReplicas {
		setNested(parent, replicas, jsonPathFields(q.res.Scale.SpecReplicasPath)...)
	}
	manager := q.query.Get("fieldManager")
	fm := q.s.fieldManagerFor(q.res)
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, "scale", dry, q.admission("UPDATE", writeOptions("UpdateOptions", dry)), func(old object) (object, error) {
		obj, err := fm.Apply(old, jsonx.CopyObject(parent), manager, "scale", force, q.s.now())
		if err != nil {
			return nil, patch.ToAPIError(err)
		}
		rv := metaStr(applied, "resourceVersion")
		if rv == "" {
			rv = metaStr(old, "resourceVersion")
		}
		meta(obj)["resourceVersion"] = rv
		if errs := schemaValidate(q.res, obj); len(errs) > 0 {
			return nil, apierr.Invalid(q.gk(), q.ri.name, errs)
		}
		dropScaleEntryTimes(obj)
		return obj, nil
	})
	if err != nil {
		return err
	}
	writeObject(q.w, 200, q.out, scaleOf(q.res, out))
	return nil
}
