//go:build js && wasm

// Package jsglue is the JavaScript side of the worker protocol, shared by
// the kubesandbox program (wasm/) and the start-up baseline
// (wasm/cmd/baseline): it installs
//
//	kubesandboxServe(id, method, url, headers, body, sink)
//	kubesandboxCancel(id)
//	kubesandboxControl(op, arg, done)
//
// on the global object for an http.Handler and a control function, and
// says kubesandboxReady. web/worker.js is the other end; wasm/main.go
// documents the calls.
package jsglue

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/wasm/bridge"
)

var (
	uint8Array = js.Global().Get("Uint8Array")
	array      = js.Global().Get("Array")

	mu      sync.Mutex
	cancels = map[int]context.CancelFunc{}
)

// Control runs one kubesandboxControl operation; it is called on its own
// goroutine and returns the result for done (a string or nil).
type Control func(op, arg string) (result any, err error)

// Install sets the three globals for h and control; release removes them.
// After the "shutdown" operation has succeeded and its done was called,
// Install calls shutdown (which typically ends the program).
func Install(h http.Handler, control Control, shutdown func()) (release func()) {
	serve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if err := startRequest(h, args); err != nil {
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
	ctl := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 || args[0].Type() != js.TypeString || args[2].Type() != js.TypeFunction {
			return "kubesandboxControl(op, arg, done): bad arguments"
		}
		op, arg, done := args[0].String(), str(args[1]), args[2]
		go func() {
			if runControl(control, op, arg, done) && op == "shutdown" && shutdown != nil {
				shutdown()
			}
		}()
		return js.Null()
	})
	js.Global().Set("kubesandboxServe", serve)
	js.Global().Set("kubesandboxCancel", cancel)
	js.Global().Set("kubesandboxControl", ctl)
	return func() {
		serve.Release()
		cancel.Release()
		ctl.Release()
	}
}

// performance.now() when main began: package initialisation is over by
// then (Go runs every package's init before main).
var mainAt = js.Global().Get("performance").Call("now").Float()

// Now is performance.now() in milliseconds.
func Now() float64 { return js.Global().Get("performance").Call("now").Float() }

// MarkMain records the start of main; call it first thing in main (the
// package variable above is set during init, before it).
func MarkMain() { mainAt = Now() }

// Ready calls kubesandboxReady(), or kubesandboxReady(failure). Before it
// sets self.kubesandboxTimings = {main, serving} (performance.now() at
// main's start, and now), from which web/worker.js reports Go's package
// init (each sandbox's New/restore it times itself: wasm/host.go).
func Ready(failure string) {
	t := js.Global().Get("Object").New()
	t.Set("main", mainAt)
	t.Set("serving", Now())
	js.Global().Set("kubesandboxTimings", t)
	if f := js.Global().Get("kubesandboxReady"); f.Type() == js.TypeFunction {
		if failure == "" {
			f.Invoke()
		} else {
			f.Invoke(failure)
		}
	}
}

// runControl reports control's outcome through done; a panic becomes an
// error. It tells whether the operation succeeded.
func runControl(control Control, op, arg string, done js.Value) bool {
	var result any
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("kubesandbox %s: %v", op, p)
			}
		}()
		result, err = control(op, arg)
	}()
	switch {
	case err != nil:
		done.Invoke(err.Error(), js.Null())
	case result == nil:
		done.Invoke(js.Null(), js.Null())
	default:
		done.Invoke(js.Null(), result)
	}
	return err == nil
}

// Uint8Array and Array are the JS constructors.
var Uint8Array, Array = uint8Array, array

// Bytes copies p into a fresh Uint8Array (JS owns it).
func Bytes(p []byte) js.Value { return bytesToJS(p) }

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
	switch hs := args[3]; hs.Type() {
	case js.TypeString:
		req.Header = SplitHeaders(hs.String())
	case js.TypeObject: // [[name, value], …]: each pair costs Go three js.Values
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
	goServe(func() {
		defer func() {
			mu.Lock()
			delete(cancels, id)
			mu.Unlock()
		}()
		bridge.ServeCancel(ctx, cancel, h, req, s)
	})
	return nil
}

func str(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// The sink's first argument, made once: every js.Value of a string or an
// object Go makes carries a finalizer (runtime.SetFinalizer, whose cost
// grows with the finalizers not yet run), so a request makes as few as it can.
var kindHead, kindChunk, kindEnd = js.ValueOf("head"), js.ValueOf("chunk"), js.ValueOf("end")

// jsSink forwards to the JavaScript sink function, copying every byte
// slice into a fresh Uint8Array (JS owns it; Go keeps no reference).
// Headers go as one string (JoinHeaders): one js.Value, not three a pair.
type jsSink struct {
	fn  js.Value
	ctx context.Context
}

func (s *jsSink) Head(status int, h http.Header, body []byte, streaming bool) {
	if s.ctx.Err() != nil {
		return
	}
	b := js.Null()
	if !streaming {
		b = bytesToJS(body)
	}
	s.fn.Invoke(kindHead, status, JoinHeaders(h), b, streaming)
}

func (s *jsSink) Chunk(p []byte) {
	if s.ctx.Err() != nil {
		return // cancelled: never touch the stream again
	}
	s.fn.Invoke(kindChunk, bytesToJS(p))
}

func (s *jsSink) End(err error) {
	if s.ctx.Err() != nil {
		return
	}
	if err != nil {
		s.fn.Invoke(kindEnd, err.Error())
		return
	}
	s.fn.Invoke(kindEnd, js.Null())
}

func bytesToJS(p []byte) js.Value {
	u := uint8Array.New(len(p))
	if len(p) > 0 {
		js.CopyBytesToJS(u, p)
	}
	return u
}
