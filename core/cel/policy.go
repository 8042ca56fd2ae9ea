package cel

import (
	"encoding/json"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// Policies are ValidatingAdmissionPolicies and their bindings
// (admissionregistration.k8s.io/v1).
//
// OWNED BY the admission-policy work: refine freely (keep the
// Remote/Dispatch pair of every method in this file).
type Policies interface {
	// CheckPolicy returns kube-apiserver's causes for the expressions of a
	// ValidatingAdmissionPolicy or binding being created (Old nil) or
	// updated.
	CheckPolicy(req CheckPolicyRequest) ([]Cause, error)
	// Admit evaluates the policies bound to one write.
	Admit(req AdmissionRequest) (AdmissionResponse, error)
}

// CheckPolicyRequest is a policy or binding (JSON) and the stored one.
type CheckPolicyRequest struct {
	Object json.RawMessage `json:"object"`
	Old    json.RawMessage `json:"old,omitempty"`
}

// AdmissionRequest is one write and what the policies need to judge it.
type AdmissionRequest struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT.
	Operation string            `json:"operation"`
	Object    json.RawMessage   `json:"object,omitempty"`
	Old       json.RawMessage   `json:"old,omitempty"`
	Namespace json.RawMessage   `json:"namespace,omitempty"`
	Policies  []json.RawMessage `json:"policies,omitempty"`
	Bindings  []json.RawMessage `json:"bindings,omitempty"`
}

// AdmissionResponse is the verdict: Denied with kube's Status when a Deny
// action fails, Warnings for Warn, AuditAnnotations for Audit.
type AdmissionResponse struct {
	Denied   json.RawMessage `json:"denied,omitempty"`
	Warnings []string        `json:"warnings,omitempty"`
}

func init() {
	serve("CheckPolicy", func(e Engine, r CheckPolicyRequest) ([]Cause, error) { return e.CheckPolicy(r) })
	serve("Admit", func(e Engine, r AdmissionRequest) (AdmissionResponse, error) { return e.Admit(r) })
}

func (r remote) CheckPolicy(req CheckPolicyRequest) (out []Cause, err error) {
	err = r.call("CheckPolicy", req, &out)
	return out, err
}

func (r remote) Admit(req AdmissionRequest) (out AdmissionResponse, err error) {
	err = r.call("Admit", req, &out)
	return out, err
}

// FieldErrors turns an engine's causes back into the core's field errors.
func FieldErrors(causes []Cause) field.ErrorList {
	var errs field.ErrorList
	for _, c := range causes {
		errs = append(errs, &field.Error{Type: field.Type(c.Type), Field: c.Field, BadValue: c.BadValue, Detail: c.Detail})
	}
	return errs
}
