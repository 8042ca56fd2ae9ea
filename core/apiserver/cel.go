package apiserver

import (
	"fmt"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// This file asks the CEL engine (Options.CEL, core/cel) about a write,
// after the rest of its validation:
//   - an object whose kind carries CEL (Hooks.CheckCEL: a CRD's rules) gets
//     the engine's causes about its expressions;
//   - a custom resource of a version whose schema has rules (res.Rules)
//     gets its rules evaluated, as the customresource strategies do —
//     unless the schema already found a blocking error, when kube adds one
//     cause saying the rules were not checked.
//
// Without an engine nothing is asked: rules are stored, not evaluated.

// rulesNotChecked is the strategies' cause when schema errors block CEL.
const rulesNotChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// celValidate returns the CEL causes of a write; prior are the causes
// found so far. An engine failure is an internal error.
func (s *Server) celValidate(res *resource.Resource, obj, old object, prior field.ErrorList) (field.ErrorList, error) {
	e := s.opts.CEL
	if e == nil {
		return nil, nil
	}
	var causes []cel.Cause
	var err error
	switch {
	case res.Hooks.CheckCEL != nil:
		causes, err = res.Hooks.CheckCEL(e, obj, old)
	case res.Rules != nil:
		if blocksCEL(prior) {
			return field.ErrorList{field.Invalid(nil, nil, rulesNotChecked)}, nil
		}
		causes, err = s.validateCustomResource(e, res, obj, old)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, apierr.Internal(fmt.Errorf("CEL: %w", err))
	}
	return celErrors(causes), nil
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

// validateCustomResource asks the engine to evaluate res's rules.
func (s *Server) validateCustomResource(e cel.Engine, res *resource.Resource, obj, old object) ([]cel.Cause, error) {
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
	return e.ValidateCustomResource(req)
}

// celErrors turns the engine's causes into field errors that print as
// kube printed them (Cause.Message is kube's ErrorBody).
func celErrors(causes []cel.Cause) field.ErrorList {
	errs := make(field.ErrorList, 0, len(causes))
	for _, c := range causes {
		t := field.Type(c.Type)
		fe := &field.Error{Type: t, Field: c.Field, BadValue: c.BadValue, Detail: c.Detail}
		if c.Message != "" {
			fe.BadValue = field.OmitValue
			fe.Detail = strings.TrimPrefix(strings.TrimPrefix(c.Message, t.Text()), ": ")
		}
		errs = append(errs, fe)
	}
	return errs
}
