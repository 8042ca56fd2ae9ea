package apiserver

import (
	"errors"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
	"github.com/kubesandbox/kubesandbox/core/validation"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

// This file connects the verbs to the engines below them: metadata
// validation (core/validation), structural schemas (core/schema) and
// managedFields / server-side apply (patch/fieldmanager).

// fieldManager maintains metadata.managedFields.
type fieldManager interface {
	Update(live, obj map[string]any, manager, subresource string, now time.Time) (map[string]any, error)
	Apply(live, applied map[string]any, manager, subresource string, force bool, now time.Time) (map[string]any, error)
}

// updateNeverFails wraps a Manager whose Update keeps the live
// managedFields on internal errors: the write goes on, as on the real
// server.
type updateNeverFails struct{ *fieldmanager.Manager }

func (u updateNeverFails) Update(live, obj map[string]any, manager, sub string, now time.Time) (map[string]any, error) {
	out, _ := u.Manager.Update(live, obj, manager, sub, now)
	if out == nil {
		out = obj
	}
	return out, nil
}

type noFieldManager struct{}

func (noFieldManager) Update(live, obj map[string]any, manager, subresource string, now time.Time) (map[string]any, error) {
	return obj, nil
}
func (noFieldManager) Apply(live, applied map[string]any, manager, subresource string, force bool, now time.Time) (map[string]any, error) {
	return nil, apierr.Internal(errNoSchema)
}

var errNoSchema = errors.New("no type converter for this resource")

// fieldManagerFor returns the (cached) field manager of a resource version.
func (s *Server) fieldManagerFor(res *resource.Resource) fieldManager {
	s.fmMu.Lock()
	defer s.fmMu.Unlock()
	if fm, ok := s.fieldManagers[res]; ok {
		return fm
	}
	opts := fieldmanager.Options{
		GroupVersion: res.GroupVersion(), Kind: res.Kind, Schema: res.SchemaOf(),
		EmptyListResets: !res.CRD,
	}
	if !res.CRD {
		gv, kind := res.GroupVersion(), res.Kind
		opts.Zero = func() map[string]any { return builtin.ZeroObjectFor(gv, kind) }
	}
	if res.Status {
		opts.ResetFields = map[string][][]string{
			"":       append([][]string{{"status"}}, res.ResetFields[""]...),
			"status": append(statusResetFields(res), res.ResetFields["status"]...),
		}
	}
	if sch := res.SchemaOf(); sch != nil || res.Hooks.Default != nil {
		hook, typed := res.Hooks.Default, !res.CRD
		opts.Defaulter = func(obj map[string]any) {
			if sch != nil {
				if typed {
					// the applied body was decoded (and refused) by
					// checkFields; the merged object takes the Go
					// type's spellings (canonical quantities)
					_ = common.DecodeTyped(sch, obj)
				}
				schema.Default(sch, obj)
			}
			if hook != nil {
				hook(obj)
			}
		}
	}
	var fm fieldManager = noFieldManager{}
	if m, err := fieldmanager.New(opts); err == nil {
		fm = updateNeverFails{m}
	}
	s.fieldManagers[res] = fm
	return fm
}

// statusResetFields are the paths a status write's managers never own:
// the spec and the metadata the kind keeps (GetResetFields of its status
// strategy), e.g. {{"spec"}, {"metadata", "labels"}} for a Deployment.
func statusResetFields(res *resource.Resource) [][]string {
	paths := [][]string{{"spec"}}
	for _, k := range res.StatusKeeps {
		if k == resource.AllMetadata {
			return append(paths, []string{"metadata"})
		}
		paths = append(paths, []string{"metadata", k})
	}
	return paths
}

// nameFunc is how a resource's names are validated.
func nameFunc(res *resource.Resource) validation.NameFunc {
	if res.Hooks.Name != nil {
		return res.Hooks.Name
	}
	return validation.NameIsDNSSubdomain
}

// validateMeta checks metadata on create (old == nil) or update.
func validateMeta(res *resource.Resource, obj, old object) field.ErrorList {
	p := field.NewPath("metadata")
	m, _ := obj["metadata"].(map[string]any)
	errs := validation.ValidateObjectMeta(m, res.Namespaced, nameFunc(res), p)
	if old != nil {
		// The real server checks metadata updates twice: in the generic
		// BeforeUpdate and again in the strategy's ValidateUpdate, so each
		// failure appears as two causes (the message lists it once).
		om, _ := old["metadata"].(map[string]any)
		upd := validation.ValidateObjectMetaUpdate(m, om, p)
		errs = append(errs, upd...)
		if !res.NoKindMetaChecks {
			errs = append(errs, upd...)
		}
	}
	return errs
}

// schemaDefaultAndPrune applies structural defaulting and pruning (custom
// resources) and returns the pruned (unknown) field paths.
func schemaDefaultAndPrune(res *resource.Resource, obj object) ([]string, error) {
	sch := res.SchemaOf()
	if sch == nil {
		return nil, nil
	}
	if !res.CRD {
		// a built-in is decoded into its Go type first: quantities take
		// their canonical spelling, []byte fields must be base64
		if err := common.DecodeTyped(sch, obj); err != nil {
			return nil, apierr.BadRequestf("%s in version %q cannot be handled as a %s: %v", res.Kind, res.Version, res.Kind, err)
		}
	}
	schema.Default(sch, obj)
	unknown, err := schema.Coerce(sch, obj, true)
	if err != nil {
		return nil, apierr.BadRequestf("%s in version %q cannot be handled as a %s: %v", res.Kind, res.Version, res.Kind, err)
	}
	return unknown, nil
}

// schemaValidate validates obj against the resource's schema.
func schemaValidate(res *resource.Resource, obj object) field.ErrorList {
	sch := res.SchemaOf()
	if sch == nil {
		return nil
	}
	if !res.CRD && res.Hooks.Validate != nil {
		// a built-in with its own validation (core/builtin/<group>) keeps
		// only the schema's type errors: list-map keys, scale paths and
		// the rest are not kube-apiserver's checks for it. Only
		// ValidateValue reports type errors: schema.Validate's walks of
		// embedded resources and list sets and maps report others
		// (TestValidateTypeErrorsAreValidateValues), so they are skipped.
		var typeErrs field.ErrorList
		for _, e := range schema.ValidateValue(sch, obj) {
			if e.Type == field.TypeTypeInvalid {
				typeErrs = append(typeErrs, e)
			}
		}
		return typeErrs
	}
	errs := schema.Validate(sch, obj)
	if res.Scale != nil {
		errs = append(errs, schema.ValidateScaleSpec(obj, res.Scale.SpecReplicasPath)...)
		errs = append(errs, schema.ValidateScaleStatus(obj, res.Scale.StatusReplicasPath, res.Scale.LabelSelectorPath)...)
	}
	return errs
}

func builtinResources() []*resource.Resource { return builtin.Resources() }
