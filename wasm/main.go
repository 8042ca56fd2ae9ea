//go:build js && wasm

// Command wasm is the kubesandbox core compiled to WebAssembly. It runs in
// a SharedWorker (web/worker.js) and exposes three functions to
// JavaScript, installed by wasm/jsglue:
//
//	kubesandboxServe(id, method, url, headers, body, sink)
//	    headers: [[name, value], …]; body: Uint8Array or null
//	    sink(kind, …) is called as
//	      sink("head", status, headers, body, false)    whole body (Uint8Array)
//	      sink("head", status, headers, null, true)     then sink("chunk", Uint8Array)… sink("end", null | "error")
//	      sink("end", "error")                          failed before a head: a network error
//
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
// Once they are installed it calls kubesandboxReady(), or
// kubesandboxReady(message) when the saved state cannot be restored (the
// program then exits; a reset recovers).
//
// State is durable when the worker offers self.kubesandboxDB (IndexedDB,
// see idb.go): every write is committed there before it is acknowledged. The bridge is
// written directly on syscall/js rather than github.com/syumai/workers: its
// public API only offers the Cloudflare-shaped Serve (needs a global
// `context.binding` and a `workers.ready` import, returns a JS Response that
// cannot cross a MessagePort, turns bodies into leaking ReadableStreams and
// never cancels the request context). Here, the only long-lived js.Funcs
// are the three globals above; no per-request js.Func exists, so none can
// leak (idb.go's promise callbacks are released once they have fired).
package main

import (
	"fmt"
	"sync"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/wasm/jsglue"
)

// options: browsers cap event lifetimes, so watches end after a
// randomised 4–4.5 minutes and sandbox.watch resumes them; the in-process
// controllers stay off here (pure API; see README).
var options = apiserver.Options{MinWatchSeconds: 240, MaxWatchSeconds: 270} // Controllers: nil — not linked here

func main() {
	jsglue.MarkMain()
	// The built-in catalogue (schemas) first, timed apart from the restore.
	builtin.Definitions()
	jsglue.Mark("catalogue")
	var handler *apiserver.Server
	var log *persist.Log
	if db := newIDB(); db != nil {
		log = persist.New(db, persistOptions())
		srv, err := apiserver.NewDurable(options, log)
		if err != nil {
			jsglue.Ready(err.Error())
			return
		}
		handler = srv
	} else {
		handler = apiserver.New(options)
	}
	quit := make(chan struct{})
	var once sync.Once
	release := jsglue.Install(handler, control(handler, log), func() { once.Do(func() { close(quit) }) })
	defer release()
	jsglue.Ready("")
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

// control is kubesandboxControl: export and import wait for storage;
// shutdown closes the log (waiting for a commit in progress; later writes
// fail); then jsglue ends the program through main's quit.
func control(h *apiserver.Server, log *persist.Log) jsglue.Control {
	return func(op, arg string) (any, error) {
		switch op {
		case "export":
			y, err := h.Export()
			if err != nil {
				return nil, err
			}
			return string(y), nil
		case "import":
			return nil, h.Import([]byte(arg))
		case "shutdown":
			if log != nil {
				log.Close()
			}
			return nil, nil
		}
		return nil, fmt.Errorf("kubesandboxControl: unknown operation %q", op)
	}
}
