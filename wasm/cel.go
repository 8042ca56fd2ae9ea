//go:build js && wasm

package main

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/store"
)

var _ cel.Transport = (*celTransport)(nil)

// celTransport is the core's core/cel.Transport in the browser: the CEL
// engine is two wasm programs of its own (cel/cmd/wasm: cel-crd.wasm for
// CRD rules, cel-policy.wasm for admission policies), which the worker
// loads into this same SharedWorker, each as a Go instance of its own, the
// first time a call needs that part. web/worker-cel.js offers
//
//	kubesandboxLoadCEL(method) → Promise   loads method's part once (again after a failure)
//	kubesandboxCELLoaded(method) → bool    that part runs
//	kubesandboxCEL(method, request) → [error, response]   the call, synchronous
//
// The first Call of a part waits for its load on its own goroutine
// (JavaScript's event loop goes on: the download, other requests); every
// call after that is a plain synchronous call into the other instance.
// The core calls the engine only when a rule or a policy exists, so a
// sandbox without any never downloads either part. A failed load fails
// the call (the core answers it as an InternalError) and the next call
// tries again.
//
// E.g. the first custom resource written after a CRD with
// x-kubernetes-validations:  Call("ValidateCustomResource", {...})
// → kubesandboxLoadCEL("ValidateCustomResource") (fetch + compile + Go
// init of cel-crd.wasm) → kubesandboxCEL("ValidateCustomResource",
// "{...}") → `[{"type": ...}]`.
type celTransport struct {
	mu sync.Mutex // one load at a time; held across it
}

// errCELLoad wraps a failed load of a part of the engine.
var errCELLoad = errors.New("the CEL engine (cel.wasm) could not be loaded")

// Call loads method's part if needed and calls method on it.
func (t *celTransport) Call(method string, req []byte) ([]byte, error) {
	if err := t.load(method); err != nil {
		return nil, err
	}
	res, err := invokeCEL(method, string(req))
	if err != nil {
		return nil, err // the part is gone (it exited): the next call loads it again
	}
	if e := res.Index(0); e.Type() == js.TypeString {
		return nil, errors.New(e.String())
	}
	out := res.Index(1)
	if out.Type() != js.TypeString {
		return nil, errors.New("cel: kubesandboxCEL answered neither an error nor a response")
	}
	return []byte(out.String()), nil
}

// invokeCEL calls kubesandboxCEL; a JavaScript exception (the part has
// exited, the function is missing) is an error, not a panic.
func invokeCEL(method, req string) (res js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cel: calling cel.wasm failed: %v", r)
		}
	}()
	fn := js.Global().Get("kubesandboxCEL")
	if fn.Type() != js.TypeFunction {
		return js.Undefined(), errors.New("cel: cel.wasm is not running")
	}
	res = fn.Invoke(method, req)
	if res.Type() != js.TypeObject || res.Length() != 2 {
		return js.Undefined(), errors.New("cel: kubesandboxCEL answered no [error, response] pair")
	}
	return res, nil
}

// loaded tells whether method's part runs.
func loaded(method string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f := js.Global().Get("kubesandboxCELLoaded")
	return f.Type() == js.TypeFunction && f.Invoke(method).Truthy()
}

// load makes sure method's part runs: the first caller asks the worker
// and waits; callers arriving meanwhile wait on mu and find it loaded (or
// try again when it failed).
func (t *celTransport) load(method string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if loaded(method) {
		return nil
	}
	loader := js.Global().Get("kubesandboxLoadCEL")
	if loader.Type() != js.TypeFunction {
		return fmt.Errorf("%w: this worker cannot load it", errCELLoad)
	}
	if _, err := awaitJS(callJS(loader, method)); err != nil {
		return fmt.Errorf("%w: %v", errCELLoad, err)
	}
	return nil
}

// callJS calls f(args...); an exception becomes a rejected promise.
func callJS(f js.Value, args ...any) (p js.Value) {
	defer func() {
		if r := recover(); r != nil {
			p = js.Global().Get("Promise").Call("reject", fmt.Sprint(r))
		}
	}()
	return f.Invoke(args...)
}

// awaitJS is await with the rejection's own text (storageError's framing
// is IndexedDB's).
func awaitJS(p js.Value) (js.Value, error) {
	return awaitWith(p, func(e js.Value) error {
		if e.Type() == js.TypeObject && e.Get("message").Type() == js.TypeString {
			return errors.New(e.Get("message").String())
		}
		if e.Type() == js.TypeString {
			return errors.New(e.String())
		}
		return errors.New("rejected")
	})
}

// preloadCEL starts loading the parts of the engine the restored state
// needs, in the background: cel-crd.wasm when a CRD has
// x-kubernetes-validations, cel-policy.wasm when a
// ValidatingAdmissionPolicy exists. The first write that needs the engine
// then finds it loaded. Called after the first answer (or celAfter
// without one), so that it never delays it. A failure is left for that
// write (it tries again).
func preloadCEL(h *apiserver.Server, t *celTransport) {
	if has(h, "/apiextensions.k8s.io/customresourcedefinitions/", func(v []byte) bool { return bytes.Contains(v, []byte("x-kubernetes-validations")) }) {
		_ = t.load("CheckCRD")
	}
	if has(h, "/admissionregistration.k8s.io/validatingadmissionpolicies/", func([]byte) bool { return true }) {
		_ = t.load("Admit")
	}
}

// has tells whether the store holds an object under prefix that filter
// accepts.
func has(h *apiserver.Server, prefix string, filter func([]byte) bool) bool {
	kvs, _, _, err := h.Store().List(prefix, "", 0, func(kv store.KV) bool { return filter(kv.Value) }, 1)
	return err == nil && len(kvs) > 0
}
