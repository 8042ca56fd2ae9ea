// Package engine is kubesandbox's CEL engine (core/cel.Engine) built from
// the real Kubernetes code: k8s.io/apiextensions-apiserver's CRD validator
// for x-kubernetes-validations (package cel/crd) and k8s.io/apiserver's
// ValidatingAdmissionPolicy plugin (package cel/policy). Natively it runs
// as a process of its own (cel/cmd/kubesandbox-cel, started by the
// server on first use) or linked into cel/cmd/kubesandbox; in the browser its halves are
// cel-crd.wasm and cel-policy.wasm (cel/cmd/wasm, which links one or the
// other, never this package), reached through core/cel.Remote.
package engine

import (
	"github.com/kubesandbox/kubesandbox/cel/crd"
	"github.com/kubesandbox/kubesandbox/cel/policy"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// Engine is the composed engine: CRD rules and admission policies.
type Engine struct {
	*crd.Rules
	*policy.Engine
}

// New returns an engine; it keeps what it compiles (per CRD, per policy).
func New() *Engine { return &Engine{Rules: crd.New(), Engine: policy.New()} }

var _ cel.Engine = (*Engine)(nil)
