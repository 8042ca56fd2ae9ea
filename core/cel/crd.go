package cel

import (
	"encoding/json"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// CRDRules are the x-kubernetes-validations of CRD schemas.
//
// OWNED BY the CRD-rules work: refine freely (keep the Remote/Dispatch pair
// of every method in this file).
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

func init() {
	serve("CheckCRD", func(e Engine, r CheckCRDRequest) ([]Cause, error) { return e.CheckCRD(r) })
	serve("ValidateCustomResource", func(e Engine, r CustomResourceRequest) (CustomResourceResponse, error) {
		return e.ValidateCustomResource(r)
	})
}

func (r remote) CheckCRD(req CheckCRDRequest) (out []Cause, err error) {
	err = r.call("CheckCRD", req, &out)
	return out, err
}

func (r remote) ValidateCustomResource(req CustomResourceRequest) (out CustomResourceResponse, err error) {
	err = r.call("ValidateCustomResource", req, &out)
	return out, err
}

// Errors turns an engine's causes back into the core's field errors,
// printed as kube printed them: a cause with a Message (kube's ErrorBody)
// keeps it word for word.
//
//	Errors([]Cause{{Type: "FieldValueInvalid", Field: "spec",
//		Message: "Invalid value: failed rule: self.replicas <= self.maxReplicas"}})
//	// → spec: Invalid value: failed rule: self.replicas <= self.maxReplicas
func Errors(causes []Cause) field.ErrorList {
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
