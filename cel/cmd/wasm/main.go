//go:build js && wasm

// Command wasm is the CEL engine (cel/engine) for the browser, in two
// parts: cel-crd.wasm (CRD validation rules, cel/crd: the default build,
// part_crd.go) and cel-policy.wasm (ValidatingAdmissionPolicies,
// cel/policy: -tags celpolicy, part_policy.go). web/worker-cel.js loads each
// into the SharedWorker that runs the core the first time the core calls
// one of its methods (a CRD with x-kubernetes-validations, a
// ValidatingAdmissionPolicy), so a page with CRD rules alone never
// downloads the policy half. Each hands the worker one synchronous
// function, call(method, request) → [error, response], through
//
//	kubesandboxCELReady(call)
//
// (the worker's kubesandboxCEL routes each method to its part's call).
// method names a core/cel.Engine method, request and response are its JSON
// (core/cel.Dispatch); error is null or a string, response a string or
// null. E.g.
//
//	call('CheckCRD', '{"crd": {...}}')  →  [null, '[]']
//	call('Nope', '{}')                  →  ['cel: unknown method "Nope"', null]
//
// The core (wasm/cel.go) calls it from
// Go through JavaScript while its own goroutine waits: the call must
// answer before it returns, so the engine never waits on JavaScript
// (no timers, no promises) — it only computes. A panic in the engine is
// the call's error, never the end of this program.
package main

import (
	"syscall/js"
)

func main() {
	mark("main")
	e := newEngine()
	warmUp(e)
	mark("warm")
	fn := js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 2 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeString {
			return []any{"kubesandboxCEL(method, request): two strings", nil}
		}
		out, err := call(e, a[0].String(), []byte(a[1].String()))
		if err != nil {
			return []any{err.Error(), nil}
		}
		return []any{nil, string(out)}
	})
	if ready := js.Global().Get("kubesandboxCELReady"); ready.Type() == js.TypeFunction {
		ready.Invoke(fn)
	}
	select {}
}

// mark tells the worker how far the start-up got (kubesandboxCELMark,
// its load's phases in stats().cel), when it listens.
func mark(name string) {
	if f := js.Global().Get("kubesandboxCELMark"); f.Type() == js.TypeFunction {
		f.Invoke(name)
	}
}
