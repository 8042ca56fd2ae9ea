package cel

import (
	"encoding/json"
	"errors"
	"sync"
)

// CRDRules are the x-kubernetes-validations of CRD schemas.
//
// Every method has its Remote and Dispatch pair in this file.
type CRDRules interface {
	// CheckCRD returns kube-apiserver's causes for the CEL of a CRD being
	// created (old nil) or updated: rules that do not compile, whose
	// estimated cost exceeds the budget, bad messageExpression/fieldPath...
	CheckCRD(req CheckCRDRequest) ([]Cause, error)
	// ValidateCustomResource evaluates the rules of one served version's
	// schema on a custom resource being written (Old nil on create).
	ValidateCustomResource(req CustomResourceRequest) (CustomResourceResponse, error)
}

// CheckCRDRequest is a CRD (apiextensions.k8s.io/v1 JSON) and, on update,
// the stored one.
type CheckCRDRequest struct {
	CRD json.RawMessage `json:"crd"`
	Old json.RawMessage `json:"old,omitempty"`
}

// CustomResourceRequest is one custom resource write. CRDKey identifies the
// CRD as stored (uid and resourceVersion): an engine keeps what it
// compiled under it, so Remote sends CRD only until the engine has it
// (an engine without it answers ErrUnknownCRDKey).
type CustomResourceRequest struct {
	CRDKey      string          `json:"crdKey"`
	CRD         json.RawMessage `json:"crd,omitempty"`
	Version     string          `json:"version"`
	Subresource string          `json:"subresource,omitempty"`
	Object      json.RawMessage `json:"object"`
	Old         json.RawMessage `json:"old,omitempty"`
}

// CustomResourceResponse is the rules' verdict on a write: the causes of
// its 422, and the warnings kube sends with the answer — on an update,
// the failures of rules whose value did not change (ratcheting) are
// warnings, not causes.
type CustomResourceResponse struct {
	Causes   []Cause  `json:"causes,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

func dispatchCRD(e Engine, method string, req []byte) (any, bool, error) {
	switch method {
	case "CheckCRD":
		return serve(req, e.CheckCRD)
	case "ValidateCustomResource":
		return serve(req, e.ValidateCustomResource)
	}
	return nil, false, nil
}

func (r *remote) CheckCRD(req CheckCRDRequest) (out []Cause, err error) {
	err = r.call("CheckCRD", req, &out)
	return out, err
}

// ValidateCustomResource sends the CRD only while the engine has not
// compiled it under req.CRDKey: a CRD's JSON is often 10–100 times the
// object's, and every write under it would carry it across the transport
// (a pipe natively, a thread hop in the browser) to be scanned again.
//
//	1st write under uid/42@7: {crdKey, crd, object} → compiled, kept
//	2nd write:                {crdKey, object}      → the kept validator
//	engine restarted:         {crdKey, object}      → ErrUnknownCRDKey,
//	                          then {crdKey, crd, object} again
//
// Any failure of the short call is retried once with the CRD (an engine
// built before this protocol fails to decode a missing CRD its own way).
func (r *remote) ValidateCustomResource(req CustomResourceRequest) (out CustomResourceResponse, err error) {
	if req.CRDKey != "" && r.sent.has(req.CRDKey) {
		short := req
		short.CRD = nil
		if err = r.call("ValidateCustomResource", short, &out); err == nil {
			return out, nil
		}
		r.sent.forget(req.CRDKey)
		out = CustomResourceResponse{}
	}
	if err = r.call("ValidateCustomResource", req, &out); err == nil && req.CRDKey != "" {
		r.sent.add(req.CRDKey)
	}
	return out, err
}

// ErrUnknownCRDKey is the engine's answer to a ValidateCustomResource
// without a CRD whose key it holds nothing under (it was restarted, or
// emptied its cache): the caller sends the CRD again.
var ErrUnknownCRDKey = errors.New("cel: the engine holds no CRD under this key; send the CRD")

// sentKeys are the CRD keys whose CRD reached the engine. Keys change with
// every write of a CRD, so the set is emptied when it reaches
// maxSentKeys (the engine bounds its cache alike).
type sentKeys struct {
	mu   sync.Mutex
	keys map[string]struct{}
}

const maxSentKeys = 256

func (s *sentKeys) has(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.keys[k]
	return ok
}

func (s *sentKeys) add(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys == nil || len(s.keys) >= maxSentKeys {
		s.keys = map[string]struct{}{}
	}
	s.keys[k] = struct{}{}
}

func (s *sentKeys) forget(k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keys, k)
}
