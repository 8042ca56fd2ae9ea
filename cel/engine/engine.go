// Package engine is kubesandbox's CEL engine (core/cel.Engine) built from
// the real Kubernetes code: k8s.io/apiextensions-apiserver's CRD validator
// for x-kubernetes-validations (package cel/crd) and k8s.io/apiserver's
// ValidatingAdmissionPolicy plugin (package cel/policy). Natively the
// server links it (cel/cmd/kubesandbox); in the browser it is cel.wasm
// (cel/cmd/wasm), reached through core/cel.Remote.
package engine

import (
	"errors"

	"github.com/kubesandbox/kubesandbox/cel/crd"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// ErrNotBuilt answers the methods not built yet.
var ErrNotBuilt = errors.New("cel: not built yet")

// Engine is the composed engine.
type Engine struct {
	*crd.Rules
	policies
}

// New returns an engine; it keeps what it compiles (per CRD, per policy).
func New() *Engine { return &Engine{Rules: crd.New()} }

var _ cel.Engine = (*Engine)(nil)

// policies is replaced by cel/policy.
type policies struct{}

func (policies) CheckPolicy(cel.CheckPolicyRequest) ([]cel.Cause, error) { return nil, ErrNotBuilt }
func (policies) Admit(cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	return cel.AdmissionResponse{}, ErrNotBuilt
}
