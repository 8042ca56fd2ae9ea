//go:build js && wasm && celpolicy

package main

import (
	"github.com/kubesandbox/kubesandbox/cel/policy"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// The policy part (cel-policy.wasm, -tags celpolicy):
// ValidatingAdmissionPolicies alone, loaded the first time a policy exists.
// policyPart is the admission policies; the CRD methods belong to
// cel-crd.wasm (web/worker-cel.js routes them there).
type policyPart struct{ *policy.Engine }

func (policyPart) CheckCRD(cel.CheckCRDRequest) ([]cel.Cause, error) {
	return nil, otherPart("CheckCRD")
}

func (policyPart) ValidateCustomResource(cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	return cel.CustomResourceResponse{}, otherPart("ValidateCustomResource")
}

func newEngine() cel.Engine { return policyPart{policy.New()} }

// warmUp checks warmPolicy: it builds the policy plugin's CEL environment.
func warmUp(e cel.Engine) error { return warmPolicyCheck(e) }
