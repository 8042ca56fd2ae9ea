//go:build js && wasm

// Command wasm is the kubesandbox core compiled to WebAssembly. It runs in
// a SharedWorker (web/worker.js) and exposes two functions to JavaScript:
//
//	kubesandboxServe(id, method, url, headers, body, sink)
//	    headers: [[name, value], …]; body: Uint8Array or null
//	    sink(kind, …) is called as
//	      sink("head", status, headers, body, false)    whole body (Uint8Array)
//	      sink("head", status, headers, null, true)     then sink("chunk", Uint8Array)… sink("end", null | "error")
//	      sink("end", "error")                          failed before a head: a network error
//	kubesandboxCancel(id)
//	    cancels request id's context (the page cancelled its stream); writes
//	    fail from then on and no further sink calls are made for it.
//
// and calls kubesandboxReady() once both are installed. The bridge is
// written directly on syscall/js rather than github.com/syumai/workers: its
// public API only offers the Cloudflare-shaped Serve (needs a global
// `context.binding` and a `workers.ready` import, returns a JS Response that
// cannot cross a MessagePort, turns bodies into leaking ReadableStreams and
// never cancels the request context). Here, the only js.Funcs are the two
// globals above; no per-request js.Func exists, so none can leak.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/wasm/bridge"
)

var (
	uint8Array = js.Global().Get("Uint8Array")
	array      = js.Global().Get("Array")

	mu      sync.Mutex
	cancels = map[int]context.CancelFunc{}
)

func main() {
	handler := apiserver.New(apiserver.Options{})
	serve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if err := startRequest(handler, args); err != nil {
			return err.Error()
		}
		return js.Null()
	})
	cancel := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			mu.Lock()
			c := cancels[args[0].Int()]
			mu.Unlock()
			if c != nil {
				c()
			}
		}
		return js.Undefined()
	})
	defer serve.Release()
	defer cancel.Release()
	js.Global().Set("kubesandboxServe", serve)
	js.Global().Set("kubesandboxCancel", cancel)
	if ready := js.Global().Get("kubesandboxReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve until the worker goes away
}

// startRequest decodes the arguments and serves on a new goroutine: a
// js.Func must return without blocking. A decoding error is returned to
// JavaScript as a string, synchronously.
func startRequest(h http.Handler, args []js.Value) (err error) {
	defer func() {
		if p := recover(); p != nil { // a js.Value of an unexpected type
			err = fmt.Errorf("kubesandboxServe: bad arguments: %v", p)
		}
	}()
	if len(args) != 6 || args[0].Type() != js.TypeNumber || args[5].Type() != js.TypeFunction {
		return errors.New("kubesandboxServe(id, method, url, headers, body, sink): bad arguments")
	}
	id := args[0].Int()
	req := bridge.Request{Method: str(args[1]), URL: str(args[2])}
	if hs := args[3]; hs.Type() == js.TypeObject {
		for i, n := 0, hs.Length(); i < n; i++ {
			kv := hs.Index(i)
			if kv.Type() != js.TypeObject || kv.Length() != 2 {
				return fmt.Errorf("kubesandboxServe: header %d is not a [name, value] pair", i)
			}
			req.Header = append(req.Header, [2]string{str(kv.Index(0)), str(kv.Index(1))})
		}
	}
	if b := args[4]; b.Type() == js.TypeObject && b.InstanceOf(uint8Array) {
		req.Body = make([]byte, b.Length())
		js.CopyBytesToGo(req.Body, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	mu.Lock()
	if _, dup := cancels[id]; dup {
		mu.Unlock()
		cancel()
		return fmt.Errorf("kubesandboxServe: request id %d is in use", id)
	}
	cancels[id] = cancel
	mu.Unlock()
	s := &jsSink{fn: args[5], ctx: ctx}
	go func() {
		defer func() {
			mu.Lock()
			delete(cancels, id)
			mu.Unlock()
			cancel()
		}()
		bridge.Serve(ctx, h, req, s)
	}()
	return nil
}

func str(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// jsSink forwards to the JavaScript sink function, copying every byte
// slice into a fresh Uint8Array (JS owns it; Go keeps no reference).
type jsSink struct {
	fn  js.Value
	ctx context.Context
}

func (s *jsSink) Head(status int, h http.Header, body []byte, streaming bool) {
	if s.ctx.Err() != nil {
		return
	}
	pairs := array.New()
	for name, vs := range h {
		for _, v := range vs {
			pairs.Call("push", array.New(name, v))
		}
	}
	b := js.Null()
	if !streaming {
		b = bytesToJS(body)
	}
	s.fn.Invoke("head", status, pairs, b, streaming)
}

func (s *jsSink) Chunk(p []byte) {
	if s.ctx.Err() != nil {
		return // cancelled: never touch the stream again
	}
	s.fn.Invoke("chunk", bytesToJS(p))
}

func (s *jsSink) End(err error) {
	if s.ctx.Err() != nil {
		return
	}
	if err != nil {
		s.fn.Invoke("end", err.Error())
		return
	}
	s.fn.Invoke("end", js.Null())
}

func bytesToJS(p []byte) js.Value {
	u := uint8Array.New(len(p))
	if len(p) > 0 {
		js.CopyBytesToJS(u, p)
	}
	return u
}
