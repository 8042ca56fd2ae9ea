//go:build js && wasm

// Command wasm is the kubesandbox core compiled to WebAssembly. It runs in
// a SharedWorker (web/worker.js) — one Go instance hosting every sandbox
// of the pages connected to it, each a core of its own (host.go) — and
// exposes three functions to JavaScript, installed by wasm/jsglue:
//
//	kubesandboxServe(id, method, url, headers, body, sink)
//	    headers: "name\nvalue\nname\nvalue\n…" (jsglue/headers.go; one
//	    string costs Go one js.Value) or [[name, value], …], one of them
//	    Kubesandbox-Sandbox: the sandbox (host.go); body: Uint8Array or null
//	    sink(kind, …) is called as (headers: the same string form)
//	      sink("head", status, headers, body, false)    whole body (Uint8Array)
//	      sink("head", status, headers, null, true)     then sink("chunk", Uint8Array)… sink("end", null | "error")
//	      sink("end", "error")                          failed before a head: a network error
//
//	kubesandboxCancel(id)
//	    cancels request id's context (the page cancelled its stream); writes
//	    fail from then on and no further sink calls are made for it.
//
//	kubesandboxControl(op, arg, done)
//	    operations for the worker (never reachable by URL); arg is JSON
//	    {"sandbox": name, "arg": text, "rev": n} except for "shutdown":
//	      "open"     done(error|null)       start the sandbox's core, restoring
//	                 its saved state (self.kubesandboxDBFor(name)); rev > 1:
//	                 a memory-only core starts at that revision
//	      "close"    done(null)             stop the sandbox's core (its saved
//	                 state stays; the worker opens it again when asked)
//	      "export"   done(null, yamlText)   every user object as a YAML List
//	      "import"   done(error|null)       arg: YAML/JSON text, applied
//	      "reset"    done(null, "rev")      the saved state becomes empty at
//	                 the last revision rev (later writes fail) and the core
//	                 is dropped; the worker opens it again at rev
//	      "shutdown" done(null), then the program exits
//	      "cel"      done(error|null, responseJSON)  arg: {"method", "request"},
//	                 one call to the CEL engine as the core makes it (tests;
//	                 cel.go: the first one loads cel.wasm)
//
// self.kubesandboxOptions.nodes (a number, default controllers.DefaultNodes: 3) is the simulated
// Nodes of the in-process controllers, which start after the first answer
// (startControllers); 0: no kubelet, Pods stay Pending.
//
// Once they are installed it calls kubesandboxReady(); a sandbox whose
// saved state cannot be restored fails its "open" (a reset recovers it),
// the others serve on.
//
// State is durable when the worker offers self.kubesandboxDBFor(name)
// (IndexedDB, see idb.go): every write is committed there before it is acknowledged. The bridge is
// written directly on syscall/js rather than github.com/syumai/workers: its
// public API only offers the Cloudflare-shaped Serve (needs a global
// `context.binding` and a `workers.ready` import, returns a JS Response that
// cannot cross a MessagePort, turns bodies into leaking ReadableStreams and
// never cancels the request context). Here, the only long-lived js.Funcs
// are the three globals above; no per-request js.Func exists, so none can
// leak (idb.go's promise callbacks are released once they have fired).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"syscall/js"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/controllers"
	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/core/store"
	"github.com/kubesandbox/kubesandbox/wasm/jsglue"
)

// options: browsers cap event lifetimes, so watches end after a
// randomised 4–4.5 minutes and sandbox.watch resumes them. The in-process
// controllers are not started by New (Controllers: nil) but by
// startControllers, once the first answer has gone out.
var options = apiserver.Options{MinWatchSeconds: 240, MaxWatchSeconds: 270}

// controllersAfter is how long startControllers waits for a first request
// before it starts the controllers anyway (a worker nobody asks yet).
const controllersAfter = time.Second

// celAfter is how long a restored sandbox with rules waits for a first
// request before it loads cel.wasm anyway (preloadCEL).
const celAfter = 2 * time.Second

func main() {
	jsglue.MarkMain()
	installDocs()
	x := &host{cores: map[string]*core{}, celT: &celTransport{}}
	options.CEL = cel.Remote(x.celT)
	// The built-in catalogue (schemas) is not loaded here: a restored
	// sandbox answers reads without it, and the first request that needs a
	// schema (a write, SSA, OpenAPI) decodes it (resource.LoadSchema).
	// Sandboxes are opened by the worker ("open"), each restoring its own state.
	quit := make(chan struct{})
	var once sync.Once
	release := jsglue.Install(x, control(x), func() { once.Do(func() { close(quit) }) })
	defer release()
	jsglue.Ready("")
	<-quit // serve until the worker shuts this instance down
}

// startControllers runs the in-process controllers (core/controllers, the
// same as `make serve`: garbage collector, Deployments, ReplicaSets,
// StatefulSets, DaemonSets, Jobs, ServiceAccounts, the simulated kubelet)
// of one sandbox until ctx ends. The host starts them after the sandbox's
// first answer (or controllersAfter without one), so that their resync of
// a restored state never delays it: that resync is how they pick up after
// a worker restart or an IndexedDB restore — they read what is stored
// (the Pods a ReplicaSet already has count), so a scale-up or rollout in
// progress goes on without duplicates.
func startControllers(ctx context.Context, h *apiserver.Server) {
	controllers.Start(ctx, h, h.Store(), controllers.Options{
		Nodes: nodes(),
		Logf:  func(f string, a ...any) { fmt.Printf(f+"\n", a...) }, // the worker's console
	})
}

// controllersOn reads self.kubesandboxOptions.controllers: false runs the
// API server alone, as `kubesandbox -controllers=false` does natively (a
// pure API for tests comparing both, or docs examples about the API
// machinery itself); unset or anything else: on.
func controllersOn() bool {
	o := js.Global().Get("kubesandboxOptions")
	return o.Type() != js.TypeObject || o.Get("controllers").Type() != js.TypeBoolean || o.Get("controllers").Bool()
}

// nodes reads self.kubesandboxOptions.nodes: the simulated Nodes (0: no
// kubelet, Pods stay Pending); unset: controllers.DefaultNodes, as
// `make serve`.
func nodes() int {
	o := js.Global().Get("kubesandboxOptions")
	if o.Type() == js.TypeObject {
		if v := o.Get("nodes"); v.Type() == js.TypeNumber && v.Float() >= 0 && v.Float() <= 1000 {
			return v.Int()
		}
	}
	return controllers.DefaultNodes
}

// persistOptions reads self.kubesandboxOptions {snapshotEvery, keepEvents}
// (0: the defaults).
func persistOptions() persist.Options {
	return persist.Options{SnapshotEvery: int(option("snapshotEvery", 1e9)), KeepEvents: int(option("keepEvents", 1e9))}
}

// option reads a number in [0, max) from self.kubesandboxOptions (0: unset).
func option(k string, max float64) float64 {
	o := js.Global().Get("kubesandboxOptions")
	if o.Type() != js.TypeObject {
		return 0
	}
	if v := o.Get(k); v.Type() == js.TypeNumber && v.Float() >= 0 && v.Float() < max {
		return float64(int64(v.Float()))
	}
	return 0
}

// control is kubesandboxControl. Every operation but "shutdown" names
// its sandbox: arg is JSON {"sandbox": name, "arg": text, "rev": n}.
// export and import wait for storage; reset stops the sandbox's
// controllers and closes its log (waiting for a commit in progress; later
// writes fail), empties its saved state at its last revision and drops
// its core; shutdown does that to every sandbox, then jsglue ends the
// program through main's quit.
func control(x *host) jsglue.Control {
	return func(op, arg string) (any, error) {
		if op == "shutdown" {
			x.mu.Lock()
			names := make([]string, 0, len(x.cores))
			for n := range x.cores {
				names = append(names, n)
			}
			x.mu.Unlock()
			for _, n := range names {
				x.close(n, true)
			}
			return nil, nil
		}
		var a struct {
			Sandbox string `json:"sandbox"`
			Arg     string `json:"arg"`
			Rev     int64  `json:"rev"`
		}
		if err := json.Unmarshal([]byte(arg), &a); err != nil {
			return nil, fmt.Errorf("kubesandboxControl %s: %v", op, err)
		}
		switch op {
		case "open":
			return nil, x.open(a.Sandbox, store.Revision(a.Rev))
		case "close": // no page uses it any more: its state stays saved
			x.close(a.Sandbox, true)
			return nil, nil
		}
		if op == "reset" {
			// Before the worker opens it again: the next core starts empty
			// after the last revision (resourceVersions never go back).
			// Close first: a commit in progress ends, every later one
			// fails, so no write lands above rev.
			c := x.close(a.Sandbox, true)
			if c == nil {
				return nil, fmt.Errorf("the sandbox %q is not running", a.Sandbox)
			}
			rev := c.h.Store().HeadRev()
			if c.log != nil {
				if err := c.log.Reset(rev); err != nil {
					return nil, err
				}
			}
			return strconv.FormatInt(int64(rev), 10), nil
		}
		c := x.get(a.Sandbox)
		if c == nil {
			return nil, fmt.Errorf("the sandbox %q is not running", a.Sandbox)
		}
		switch op {
		case "cel":
			// a call to the CEL engine as the core makes it (tests):
			// arg {"method": …, "request": {…}}, the answer's JSON text
			var m struct {
				Method  string          `json:"method"`
				Request json.RawMessage `json:"request"`
			}
			if err := json.Unmarshal([]byte(a.Arg), &m); err != nil {
				return nil, err
			}
			out, err := x.celT.Call(m.Method, m.Request)
			return string(out), err
		case "export":
			y, err := c.h.Export()
			if err != nil {
				return nil, err
			}
			return string(y), nil
		case "import":
			return nil, c.h.Import([]byte(a.Arg))
		}
		return nil, fmt.Errorf("kubesandboxControl: unknown operation %q", op)
	}
}
