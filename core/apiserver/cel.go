package apiserver

import (
	"errors"
	"net/http"
	"reflect"

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
//
// On an update, a failing rule whose value did not change is a warning
// (ratcheting), sent with the answer whether the write succeeds or not:
// validation has no request, so a success leaves its warnings under the
// validated object (keepWarnings), which respond takes when it answers
// with that very object; a failure carries them in its error
// (withWarnings), which writeErrorAs sends.

// rulesNotChecked is the strategies' cause when schema errors block CEL.
const rulesNotChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// customResourceRules returns the rules' causes and warnings for a write;
// prior are the causes found so far. An error is the engine's own failure.
func (s *Server) customResourceRules(res *resource.Resource, obj, old object, prior field.ErrorList) (field.ErrorList, []string, error) {
	if blocksCEL(prior) {
		return field.ErrorList{field.Invalid(nil, nil, rulesNotChecked)}, nil, nil
	}
	req := cel.CustomResourceRequest{CRDKey: res.Rules.Key, CRD: res.Rules.CRD, Version: res.Version}
	var err error
	if req.Object, err = jsonx.Marshal(obj); err != nil {
		return nil, nil, err
	}
	if old != nil {
		if req.Old, err = jsonx.Marshal(old); err != nil {
			return nil, nil, err
		}
	}
	resp, err := s.opts.CEL.ValidateCustomResource(req)
	if err != nil {
		return nil, nil, err
	}
	return cel.Errors(resp.Causes), resp.Warnings, nil
}

// warnedError is a write's error with the warnings kube sends with it.
type warnedError struct {
	error
	warnings []string
}

func (e *warnedError) Unwrap() error { return e.error }

func withWarnings(err error, warnings []string) error {
	if len(warnings) == 0 {
		return err
	}
	return &warnedError{err, warnings}
}

// errorWarnings adds the Warning headers an error carries.
func errorWarnings(w http.ResponseWriter, err error) {
	var we *warnedError
	if !errors.As(err, &we) {
		return
	}
	for _, text := range we.warnings {
		if h, ok := warningHeader(text); ok {
			w.Header().Add("Warning", h)
		}
	}
}

// maxKeptWarnings bounds keptWarnings: an entry whose object is never
// answered (a write retried after a conflict) is dropped with the rest.
const maxKeptWarnings = 1024

// keepWarnings leaves a validated object's warnings for respond.
func (s *Server) keepWarnings(obj object, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
	if s.keptWarnings == nil || len(s.keptWarnings) >= maxKeptWarnings {
		s.keptWarnings = map[uintptr]keptWarnings{}
	}
	s.keptWarnings[objectID(obj)] = keptWarnings{obj, warnings}
}

// keptWarnings holds its object, whose address (the key) then cannot be
// reused by another while the entry lives.
type keptWarnings struct {
	obj      object
	warnings []string
}

// takeWarnings returns (and forgets) the warnings kept for obj.
func (s *Server) takeWarnings(obj object) []string {
	s.warnMu.Lock()
	defer s.warnMu.Unlock()
	if len(s.keptWarnings) == 0 || obj == nil {
		return nil
	}
	id := objectID(obj)
	k := s.keptWarnings[id]
	delete(s.keptWarnings, id)
	return k.warnings
}

// objectID is a map's identity (it stays put while the map lives).
func objectID(obj object) uintptr { return uintptr(reflect.ValueOf(obj).UnsafePointer()) }

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
