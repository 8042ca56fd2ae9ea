package apiserver

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/patch"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

const (
	patchJSON      = "application/json-patch+json"
	patchMerge     = "application/merge-patch+json"
	patchStrategic = "application/strategic-merge-patch+json"
	patchApply     = "application/apply-patch+yaml"
)

// patch handles PATCH with the four patch types. JSON, merge and strategic
// patches are applied to the stored object's JSON and then take the update
// path; apply goes through the field manager (and creates when missing).
func (q *request) patch() error {
	pt := contentType(q.r)
	supported := []string{patchJSON, patchMerge, patchApply}
	if !q.res.CRD {
		supported = []string{patchJSON, patchMerge, patchStrategic, patchApply}
	}
	if !hasString(supported, pt) {
		return apierr.UnsupportedMediaType(pt, supported)
	}
	dry, err := q.dryRun()
	if err != nil {
		return err
	}
	fv, err := q.fieldValidation()
	if err != nil {
		return err
	}
	force := q.query.Get("force")
	var errs field.ErrorList
	if pt == patchApply && q.query.Get("fieldManager") == "" {
		errs = append(errs, field.Required(field.NewPath("fieldManager"), "is required for apply patch"))
	}
	if pt != patchApply && force != "" {
		errs = append(errs, field.Forbidden(field.NewPath("force"), "may not be specified for non-apply patch"))
	}
	if len(errs) > 0 {
		return apierr.Invalid(apierr.GK{Group: "meta.k8s.io", Kind: "PatchOptions"}, "", errs)
	}
	body, err := readBody(q.r)
	if err != nil {
		return err
	}
	if q.ri.subresource == "scale" {
		if pt == patchApply {
			return q.applyScale(body, isTrue(force), dry)
		}
		return q.patchScale(pt, body, dry)
	}
	if pt == patchApply {
		return q.apply(body, isTrue(force), dry, fv)
	}
	if pt == patchJSON {
		// a malformed JSON patch is rejected before the object is looked up
		if err := patch.ValidateJSON(body); err != nil {
			return patch.ToAPIError(err)
		}
	}
	manager := q.managerName()
	sub := q.ri.subresource
	var prev object
	adm := q.admission("UPDATE", writeOptions("PatchOptions", dry))
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, sub, dry, adm, func(old object) (object, error) {
		prev = old
		cur, err := jsonx.Marshal(old)
		if err != nil {
			return nil, err
		}
		var res patch.Result
		opts := patch.Options{FieldValidation: fv}
		switch pt {
		case patchJSON:
			res, err = patch.JSONPatchWith(cur, body, opts)
		case patchMerge:
			res, err = patch.MergePatchWith(cur, body, opts)
		case patchStrategic:
			res, err = patch.StrategicMergePatchWith(cur, body, q.res.SchemaOf(), opts)
		}
		if err != nil {
			return nil, patch.ToAPIError(err)
		}
		obj, err := jsonx.DecodeObject(res.Object)
		if err != nil {
			return nil, apierr.BadRequest(err.Error())
		}
		if err := checkPatchedIdentity(q, obj, old); err != nil {
			return nil, err
		}
		if err := q.checkPatchedFields(fv, res, obj); err != nil {
			return nil, err
		}
		if q.res.Hooks.Default != nil && !q.res.CRD {
			// kube-apiserver decodes (and so defaults) the patched object
			// before the field manager runs: the defaults a patch brings
			// (a new container's imagePullPolicy, ...) are the patcher's
			q.res.Hooks.Default(obj)
		}
		prepareUpdate(q.res, obj, old, sub)
		return q.s.fieldManagerFor(q.res).Update(old, obj, manager, sub, q.s.now())
	})
	if err != nil {
		return err
	}
	q.kindWarnings(out, prev)
	return q.respond(http.StatusOK, out)
}

// checkPatchedIdentity rejects patches that change what identifies the
// object, as the real server does.
func checkPatchedIdentity(q *request, obj, old object) error {
	if err := checkTypeMeta(q.res, obj); err != nil {
		return err
	}
	// the patcher's checkName
	n := metaStr(obj, "name")
	if n == "" {
		return apierr.BadRequestf("the name of the object (%s based on URL) was undeterminable: name must be provided", q.ri.name)
	}
	if n != q.ri.name {
		return apierr.BadRequestf("the name of the object (%s) does not match the name on the URL (%s)", n, q.ri.name)
	}
	if ns := metaStr(obj, "namespace"); q.ri.namespace != "" && ns != "" && ns != q.ri.namespace {
		return apierr.BadRequestf("the namespace of the object (%s) does not match the namespace on the request (%s)", ns, q.ri.namespace)
	}
	if err := checkNamespace(q.res, obj, q.ri.namespace); err != nil {
		return err
	}
	return nil
}

// apply is server-side apply.
func (q *request) apply(body []byte, force, dry bool, fv string) error {
	applied, err := fieldmanager.ParseApplyBody(body)
	if err != nil {
		return err
	}
	manager := q.query.Get("fieldManager")
	sub := q.ri.subresource
	fm := q.s.fieldManagerFor(q.res)
	if err := checkAppliedType(q.res, applied); err != nil {
		return err
	}
	nameErr := func() error { // checked after the apply, as the patcher's checkName
		if n := metaStr(applied, "name"); n != "" && n != q.ri.name {
			return apierr.BadRequestf("the name of the object (%s) does not match the name on the URL (%s)", n, q.ri.name)
		}
		return nil
	}
	if err := checkNamespace(q.res, applied, q.ri.namespace); err != nil {
		return err
	}
	if err := q.checkFields(fv, nil, jsonx.CopyObject(applied)); err != nil {
		return err
	}
	if _, _, err := q.s.store.Get(q.key(), 0); err != nil && sub == "" {
		// create by apply
		if err := nameErr(); err != nil {
			return err
		}
		meta(applied)["name"] = q.ri.name
		created, err := fm.Apply(nil, jsonx.CopyObject(applied), manager, sub, force, q.s.now())
		if err != nil {
			return patch.ToAPIError(err)
		}
		adm := q.admission("CREATE", writeOptions("PatchOptions", dry))
		out, err := q.s.createObject(q.res, created, createOpts{manager: manager, dryRun: dry, applied: true, adm: adm, user: q.user()})
		q.warn = append(q.warn, adm.warnings()...)
		if err == nil {
			q.kindWarnings(out, nil)
			return q.respond(http.StatusCreated, out)
		}
		if !apierr.Is(err, apierr.ReasonAlreadyExists) {
			return err
		}
		// created meanwhile by someone else: apply to it, as the real
		// patcher's retry loop does
	}
	var prev object
	adm := q.admission("UPDATE", writeOptions("PatchOptions", dry))
	out, _, err := q.s.updateObject(q.res, q.ri.namespace, q.ri.name, sub, dry, adm, func(old object) (object, error) {
		prev = old
		obj, err := fm.Apply(old, jsonx.CopyObject(applied), manager, sub, force, q.s.now())
		if err != nil {
			return nil, patch.ToAPIError(err)
		}
		if err := nameErr(); err != nil {
			return nil, err
		}
		if rv := metaStr(applied, "resourceVersion"); rv == "" {
			meta(obj)["resourceVersion"] = metaStr(old, "resourceVersion")
		}
		prepareUpdate(q.res, obj, old, sub)
		return obj, nil
	})
	if err != nil {
		return err
	}
	q.kindWarnings(out, prev)
	return q.respond(http.StatusOK, out)
}

// checkAppliedType is the field manager's versionCheckManager: an apply
// body must name exactly the served group, version and kind, e.g.
// "invalid object type: example.com/v1, Kind=" for one without kind.
func checkAppliedType(res *resource.Resource, applied object) error {
	av, _ := applied["apiVersion"].(string)
	kind, _ := applied["kind"].(string)
	if av == res.GroupVersion() && kind == res.Kind {
		return nil
	}
	group, version := "", av
	if i := strings.IndexByte(av, '/'); i >= 0 {
		group, version = av[:i], av[i+1:]
	}
	return apierr.BadRequestf("invalid object type: %s/%s, Kind=%s", group, version, kind)
}

// checkPatchedFields applies defaulting and pruning to a patched object
// and reports, per fieldValidation, the patch body's own strict-decoding
// problems followed by the patched object's unknown fields: warnings, or
// under Strict the handler's 422 "patch: Invalid value: ...".
func (q *request) checkPatchedFields(fv string, res patch.Result, obj object) error {
	q.warn = nil // the mutate function may run again
	unknown, err := schemaDefaultAndPrune(q.res, obj)
	if err != nil {
		return err
	}
	if fv == patch.FieldValidationIgnore {
		return nil
	}
	problems := append([]string(nil), res.StrictErrors...)
	for _, p := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", p))
	}
	if len(problems) == 0 {
		return nil
	}
	if fv == patch.FieldValidationStrict {
		value := res.PatchValue
		if value == "" {
			value = string(res.Object) // JSON and merge patches: the patched object
		}
		return patch.ToAPIError(&patch.StrictError{PatchValue: value, Errors: problems})
	}
	return q.reportFieldProblems(fv, problems)
}
