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
//	kubesandboxControl(op, arg, done)
//	    whole-sandbox operations for the worker (never reachable by URL):
//	      "export"   done(null, yamlText)   every user object as a YAML List
//	      "import"   done(error|null)       arg: YAML/JSON text, applied
//	      "shutdown" done(null), then the program exits (for a reset: the
//	                 worker clears IndexedDB and starts a fresh instance)
//
// and calls kubesandboxReady() once they are installed, or
// kubesandboxReady(message) when the saved state cannot be restored (the
// program then exits; a reset recovers).
//
// State is durable when the worker offers self.kubesandboxDB (IndexedDB,
// see idb.go): every write is committed there before it is acknowledged. The bridge is
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
	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/wasm/bridge"
)

var (
	uint8Array = js.Global().Get("Uint8Array")
	array      = js.Global().Get("Array")

	mu      sync.Mutex
	cancels = map[int]context.CancelFunc{}
)

// options: browsers cap event lifetimes, so watches end after a
// randomised 4–4.5 minutes and sandbox.watch resumes them; the in-process
// in-process controllers stay off here (pure API; see README).
var options = apiserver.Options{MinWatchSeconds: 240, MaxWatchSeconds: 270, Controllers: false}

func main() {
	var handler *apiserver.Server
	var log *persist.Log
	if db := newIDB(); db != nil {
		log = persist.New(db, persistOptions())
		srv, err := apiserver.NewDurable(options, log)
		if err != nil {
			ready(err.Error())
			return
		}
		handler = srv
	} else {
		handler = apiserver.New(options)
	}
	quit := make(chan struct{})
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
	control := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 || args[0].Type() != js.TypeString || args[2].Type() != js.TypeFunction {
			return "kubesandboxControl(op, arg, done): bad arguments"
		}
		op, arg, done := args[0].String(), str(args[1]), args[2]
		go runControl(handler, log, op, arg, done, quit)
		return js.Null()
	})
	defer serve.Release()
	defer cancel.Release()
	defer control.Release()
	js.Global().Set("kubesandboxServe", serve)
	js.Global().Set("kubesandboxCancel", cancel)
	js.Global().Set("kubesandboxControl", control)
	ready("")
	<-quit // serve until the worker shuts this instance down
}

// persistOptions reads self.kubesandboxOptions {snapshotEvery, keepEvents}
// (0: the defaults).
func persistOptions() persist.Options {
	o := js.Global().Get("kubesandboxOptions")
	num := func(k string) int {
		if o.Type() != js.TypeObject {
			return 0
		}
		if v := o.Get(k); v.Type() == js.TypeNumber && v.Float() >= 0 && v.Float() < 1e9 {
			return v.Int()
		}
		return 0
	}
	return persist.Options{SnapshotEvery: num("snapshotEvery"), KeepEvents: num("keepEvents")}
}

func ready(failure string) {
	if f := js.Global().Get("kubesandboxReady"); f.Type() == js.TypeFunction {
		if failure == "" {
			f.Invoke()
		} else {
			f.Invoke(failure)
		}
	}
}

var shutdownOnce sync.Once

// runControl runs one kubesandboxControl operation on its own goroutine
// (export and import wait for storage) and reports through done.
func runControl(h *apiserver.Server, log *persist.Log, op, arg string, done js.Value, quit chan struct{}) {
	var result any = js.Null()
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("kubesandbox %s: %v", op, p)
			}
		}()
		switch op {
		case "export":
			var y []byte
			if y, err = h.Export(); err == nil {
				result = string(y)
			}
		case "import":
			err = h.Import([]byte(arg))
		case "shutdown":
			if log != nil {
				log.Close() // waits for a commit in progress; later writes fail
			}
		default:
			err = fmt.Errorf("kubesandboxControl: unknown operation %q", op)
		}
	}()
	if err != nil {
		done.Invoke(err.Error(), js.Null())
	} else {
		done.Invoke(js.Null(), result)
	}
	if op == "shutdown" {
		shutdownOnce.Do(func() { close(quit) })
	}
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
