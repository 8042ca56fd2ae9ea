package cel

import (
	"encoding/json"
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
// CRD as stored (uid and resourceVersion): an engine may keep what it
// compiled under it.
type CustomResourceRequest struct {
	CRDKey      string          `json:"crdKey"`
	CRD         json.RawMessage `json:"crd"`
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

func (r remote) CheckCRD(req CheckCRDRequest) (out []Cause, err error) {
	err = r.call("CheckCRD", req, &out)
	return out, err
}

func (r remote) ValidateCustomResource(req CustomResourceRequest) (out CustomResourceResponse, err error) {
	err = r.call("ValidateCustomResource", req, &out)
	return out, err
}
