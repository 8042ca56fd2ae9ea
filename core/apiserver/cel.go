package apiserver

import (
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// The CRD validation rules of custom resources (x-kubernetes-validations):
// a custom resource of a version whose schema has rules (res.Rules) gets
// them evaluated by the server's CEL engine after the rest of its
// validation, as the customresource strategies do — unless a blocking
// schema error came first, when kube adds one cause saying the rules were
// not checked. Without an engine rules are stored, not evaluated.

// rulesNotChecked is the strategies' cause when schema errors block CEL.
const rulesNotChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// customResourceRules returns the rules' causes for a write; prior are the
// causes found so far. An error is the engine's own failure.
func (s *Server) customResourceRules(res *resource.Resource, obj, old object, prior field.ErrorList) (field.ErrorList, error) {
	if blocksCEL(prior) {
		return field.ErrorList{field.Invalid(nil, nil, rulesNotChecked)}, nil
	}
	req := cel.CustomResourceRequest{CRDKey: res.Rules.Key, CRD: res.Rules.CRD, Version: res.Version}
	var err error
	if req.Object, err = jsonx.Marshal(obj); err != nil {
		return nil, err
	}
	if old != nil {
		if req.Old, err = jsonx.Marshal(old); err != nil {
			return nil, err
		}
	}
	causes, err := s.opts.CEL.ValidateCustomResource(req)
	if err != nil {
		return nil, err
	}
	return cel.Errors(causes), nil
}

// blocksCEL is the strategies' hasBlockingErr: OpenAPI type, required,
// enum, maxLength, maxItems failures leave the rules unevaluated.
func blocksCEL(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.TypeNotSupported, field.TypeRequired, field.TypeTooLong, field.TypeTooMany, field.TypeTypeInvalid:
			return true
		}
	}
	return false
}
