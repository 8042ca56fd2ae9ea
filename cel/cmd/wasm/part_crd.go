//go:build js && wasm && !celpolicy

package main

import (
	"github.com/kubesandbox/kubesandbox/cel/crd"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// The CRD part (cel-crd.wasm, the default build): x-kubernetes-validations
// alone. It never links cel/policy (k8s.io/apiserver's admission plugin,
// client-go): a page whose only rules are in CRD schemas downloads,
// compiles and starts half the code.
// crdPart is the CRD rules; the policy methods belong to cel-policy.wasm
// (web/worker-cel.js routes them there: reaching this is a routing bug).
type crdPart struct{ *crd.Rules }

func (crdPart) CheckPolicy(cel.CheckPolicyRequest) ([]cel.Cause, error) {
	return nil, otherPart("CheckPolicy")
}

func (crdPart) Admit(cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	return cel.AdmissionResponse{}, otherPart("Admit")
}

func (crdPart) TypeCheck(cel.TypeCheckRequest) ([]cel.ExpressionWarning, error) {
	return nil, otherPart("TypeCheck")
}

func newEngine() cel.Engine { return crdPart{crd.New()} }

// warmUp checks warmCRD: it builds the CEL environment every CRD shares.
func warmUp(e cel.Engine) error { return warm(e) }
