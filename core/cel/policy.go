package cel

import (
	"encoding/json"
)

// Policies are ValidatingAdmissionPolicies and their bindings
// (admissionregistration.k8s.io/v1).
//
// Every method has its Remote and Dispatch pair in this file.
type Policies interface {
	// CheckPolicy returns kube-apiserver's causes for the expressions of a
	// ValidatingAdmissionPolicy or binding being created (Old nil) or
	// updated.
	CheckPolicy(req CheckPolicyRequest) ([]Cause, error)
	// Admit evaluates the policies bound to one write.
	Admit(req AdmissionRequest) (AdmissionResponse, error)
	// TypeCheck type-checks a policy's expressions against the schemas of
	// the kinds its matchConstraints name, as kube-controller-manager's
	// validatingadmissionpolicy-status controller does: the answer is the
	// policy's status.typeChecking.expressionWarnings (none: empty).
	TypeCheck(req TypeCheckRequest) ([]ExpressionWarning, error)
}

// TypeCheckRequest is a policy and what kube-controller-manager's type
// checker reads through discovery: the RESTMapper (Kinds: every resource
// served in the group-versions the policy's resourceRules name) and the
// OpenAPI v3 document of each of them (Schemas, by the path /openapi/v3
// serves it under: "apis/apps/v1", "api/v1"). A group-version the server
// does not serve is in neither; its kinds are not checked, as in kube.
//
//	{"policy":{...},
//	 "kinds":[{"resource":{"group":"apps","version":"v1","resource":"deployments"},
//	           "kind":{"group":"apps","version":"v1","kind":"Deployment"}}],
//	 "schemas":{"apis/apps/v1":{"openapi":"3.0.0","components":{...}}}}
type TypeCheckRequest struct {
	Policy  json.RawMessage            `json:"policy"`
	Kinds   []ResourceKind             `json:"kinds,omitempty"`
	Schemas map[string]json.RawMessage `json:"schemas,omitempty"`
}

// ResourceKind is one mapping of a resource to its kind.
type ResourceKind struct {
	Resource GVR `json:"resource"`
	Kind     GVK `json:"kind"`
}

// ExpressionWarning is one entry of status.typeChecking.expressionWarnings:
//
//	{"fieldRef": "spec.validations[0].expression",
//	 "warning": "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'\n..."}
type ExpressionWarning struct {
	FieldRef string `json:"fieldRef"`
	Warning  string `json:"warning"`
}

// CheckPolicyRequest is a policy or binding (JSON) and the stored one.
type CheckPolicyRequest struct {
	Object json.RawMessage `json:"object"`
	Old    json.RawMessage `json:"old,omitempty"`
}

// AdmissionRequest is one write (kube's admission.Attributes) and what the
// policies need to judge it — what kube-apiserver's plugin keeps in
// informers: the policies, the bindings with their params, the namespace.
// The core sends it only when at least one policy and one binding exist.
//
//	{"operation":"CREATE","kind":{"group":"apps","version":"v1","kind":"Deployment"},
//	 "resource":{"group":"apps","version":"v1","resource":"deployments"},
//	 "name":"web","namespace":"prod","object":{...},"namespaceObject":{...},
//	 "policies":[{"policy":{...}}],"bindings":[{"binding":{...}}]}
type AdmissionRequest struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT.
	Operation   string `json:"operation"`
	Kind        GVK    `json:"kind"`
	Resource    GVR    `json:"resource"`
	SubResource string `json:"subResource,omitempty"`
	Name        string `json:"name,omitempty"`
	Namespace   string `json:"namespace,omitempty"`
	// Object is nil on DELETE, Old nil on CREATE.
	Object json.RawMessage `json:"object,omitempty"`
	Old    json.RawMessage `json:"old,omitempty"`
	// Options are the CreateOptions, UpdateOptions or DeleteOptions.
	Options  json.RawMessage `json:"options,omitempty"`
	DryRun   bool            `json:"dryRun,omitempty"`
	UserInfo UserInfo        `json:"userInfo"`
	// NamespaceObject is the Namespace of a namespaced write (nil if none).
	NamespaceObject json.RawMessage `json:"namespaceObject,omitempty"`
	Policies        []PolicyInput   `json:"policies,omitempty"`
	Bindings        []BindingInput  `json:"bindings,omitempty"`
}

// GVK and GVR name a kind and a resource.
type GVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// GVR names a resource.
type GVR struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
}

// UserInfo is the requester.
type UserInfo struct {
	Username string   `json:"username,omitempty"`
	UID      string   `json:"uid,omitempty"`
	Groups   []string `json:"groups,omitempty"`
}

// PolicyInput is one stored ValidatingAdmissionPolicy. ParamScope is how
// its paramKind is served: "Namespaced", "Cluster", or "" when nothing
// serves it (or it has none).
type PolicyInput struct {
	Policy     json.RawMessage `json:"policy"`
	ParamScope string          `json:"paramScope,omitempty"`
}

// BindingInput is one stored binding and the param objects its paramRef
// may select: the named object (if it exists) or, for a selector, every
// object of the paramKind in the params' namespace (the namespace of
// paramRef, else of the request; all for a cluster-scoped kind).
type BindingInput struct {
	Binding json.RawMessage   `json:"binding"`
	Params  []json.RawMessage `json:"params,omitempty"`
}

// AdmissionResponse is the verdict: Denied is kube's Status when a policy
// denies (Deny action, a failing failurePolicy Fail, a missing param), Warnings the texts of
// Warn actions (sent as Warning headers). Audit annotations have no
// visible effect on a response and are not returned.
type AdmissionResponse struct {
	Denied   json.RawMessage `json:"denied,omitempty"`
	Warnings []string        `json:"warnings,omitempty"`
}

func dispatchPolicy(e Engine, method string, req []byte) (any, bool, error) {
	switch method {
	case "CheckPolicy":
		return serve(req, e.CheckPolicy)
	case "Admit":
		return serve(req, e.Admit)
	case "TypeCheck":
		return serve(req, e.TypeCheck)
	}
	return nil, false, nil
}

func (r *remote) CheckPolicy(req CheckPolicyRequest) (out []Cause, err error) {
	err = r.call("CheckPolicy", req, &out)
	return out, err
}

func (r *remote) Admit(req AdmissionRequest) (out AdmissionResponse, err error) {
	err = r.call("Admit", req, &out)
	return out, err
}

func (r *remote) TypeCheck(req TypeCheckRequest) (out []ExpressionWarning, err error) {
	err = r.call("TypeCheck", req, &out)
	return out, err
}
