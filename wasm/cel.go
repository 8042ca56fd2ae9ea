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
// engine is a wasm of its own (cel.wasm, cel/cmd/wasm), which the worker
// loads into this same SharedWorker with a second Go instance the first
// time a call needs it. web/worker.js offers
//
//	kubesandboxLoadCEL() → Promise   loads cel.wasm once (again after a failure)
//
// and cel.wasm, once running, installs the synchronous
//
//	kubesandboxCEL(method, request) → [error, response]
//
// The first Call waits for the load on its own goroutine (JavaScript's
// event loop goes on: the download, other requests); every call after
// that is a plain synchronous call into the other instance. The core
// calls the engine only when a rule or a policy exists, so a sandbox
// without any never downloads cel.wasm. A failed load fails the call (the
// core answers it as an InternalError) and the next call tries again.
//
// E.g. the first custom resource written after a CRD with
// x-kubernetes-validations:  Call("ValidateCustomResource", {...})
// → kubesandboxLoadCEL() (fetch + compile + Go init of cel.wasm) →
// kubesandboxCEL("ValidateCustomResource", "{...}") → `[{"type": ...}]`.
type celTransport struct {
	mu     sync.Mutex // one load at a time; held across it
	loaded bool
}

// errCELLoad wraps a failed load of cel.wasm.
var errCELLoad = errors.New("the CEL engine (cel.wasm) could not be loaded")

// Call loads cel.wasm if needed and calls method on it.
func (t *celTransport) Call(method string, req []byte) ([]byte, error) {
	if err := t.load(); err != nil {
		return nil, err
	}
	res, err := invokeCEL(method, string(req))
	if err != nil {
		// cel.wasm is gone (it exited): load it again next time.
		t.mu.Lock()
		t.loaded = false
		t.mu.Unlock()
		return nil, err
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

// invokeCEL calls kubesandboxCEL; a JavaScript exception (cel.wasm has
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

// load makes sure cel.wasm runs: the first caller asks the worker and
// waits; callers arriving meanwhile wait on mu and find it loaded (or try
// again when it failed).
func (t *celTransport) load() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.loaded && js.Global().Get("kubesandboxCEL").Type() == js.TypeFunction {
		return nil
	}
	t.loaded = false
	loader := js.Global().Get("kubesandboxLoadCEL")
	if loader.Type() != js.TypeFunction {
		return fmt.Errorf("%w: this worker cannot load it", errCELLoad)
	}
	if _, err := awaitJS(callJS(loader)); err != nil {
		return fmt.Errorf("%w: %v", errCELLoad, err)
	}
	t.loaded = true
	return nil
}

// callJS calls f(); an exception becomes a rejected promise.
func callJS(f js.Value) (p js.Value) {
	defer func() {
		if r := recover(); r != nil {
			p = js.Global().Get("Promise").Call("reject", fmt.Sprint(r))
		}
	}()
	return f.Invoke()
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

// preloadCEL starts loading cel.wasm in the background when the restored
// state has rules or policies (a CRD with x-kubernetes-validations, a
// ValidatingAdmissionPolicy): the first write that needs the engine then
// finds it loaded. Called after the first answer (or celAfter without
// one), so that it never delays it. A failure is left for that write (it
// tries again).
func preloadCEL(h *apiserver.Server, t *celTransport) {
	if !hasCEL(h) {
		return
	}
	_ = t.load()
}

// hasCEL tells whether the store holds an object the engine will be asked
// about.
func hasCEL(h *apiserver.Server) bool {
	rules := []byte("x-kubernetes-validations")
	any := func(prefix string, filter func([]byte) bool) bool {
		kvs, _, _, err := h.Store().List(prefix, "", 0, func(kv store.KV) bool { return filter(kv.Value) }, 1)
		return err == nil && len(kvs) > 0
	}
	return any("/apiextensions.k8s.io/customresourcedefinitions/", func(v []byte) bool { return bytes.Contains(v, rules) }) ||
		any("/admissionregistration.k8s.io/validatingadmissionpolicies/", func([]byte) bool { return true })
}
