// Package engine is kubesandbox's CEL engine (core/cel.Engine) built from
// the real Kubernetes code: k8s.io/apiextensions-apiserver's CRD validator
// for x-kubernetes-validations (package cel/crd) and k8s.io/apiserver's
// ValidatingAdmissionPolicy plugin (package cel/policy). Natively the
// server links it (cel/cmd/kubesandbox); in the browser it is cel.wasm
// (cel/cmd/wasm), reached through core/cel.Remote.
package engine

import (
	"errors"

	"github.com/kubesandbox/kubesandbox/cel/policy"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// ErrNotBuilt answers the methods not built yet.
var ErrNotBuilt = errors.New("cel: not built yet")

// Engine is the composed engine.
type Engine struct {
	crdRules
	policies
}

// New returns an engine; it keeps what it compiles (per CRD, per policy).
func New() *Engine { return &Engine{policies: policy.New()} }

var _ cel.Engine = (*Engine)(nil)

// crdRules is replaced by cel/crd.
type crdRules struct{}

func (crdRules) CheckCRD(cel.CheckCRDRequest) ([]cel.Cause, error) { return nil, ErrNotBuilt }
func (crdRules) ValidateCustomResource(cel.CustomResourceRequest) ([]cel.Cause, error) {
	return nil, ErrNotBuilt
}

// policies is cel/policy's engine.
type policies = *policy.Engine
