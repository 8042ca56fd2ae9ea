//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// sandboxHeader names the sandbox a request is for. web/worker.js sets it
// from the request port the request came on (a port serves one sandbox),
// replacing any a client sent; the host removes it before the sandbox's
// core sees the request, so no client can address another sandbox.
const sandboxHeader = "Kubesandbox-Sandbox"

// host is one Go instance serving several sandboxes (issue #16: a docs page
// of 5 examples pays one compile and one package init, not 5). Each
// sandbox is a core of its own — its own apiserver.Server, store,
// persist.Log over its own IndexedDB database, controllers and CEL
// preload — and they share only what is immutable or stateless: the
// compiled program, the built-in catalogue, the CEL engine's instances.
//
// E.g. worker.js opens "ex1" and "ex2" (kubesandboxControl("open",
// '{"sandbox":"ex1"}')); a GET with Kubesandbox-Sandbox: ex2 reads ex2's
// store alone; a "reset" of ex1 stops its controllers, empties its saved
// state and drops its core (the worker opens it again at the returned
// revision), ex2 serving on meanwhile.
type host struct {
	mu    sync.Mutex
	cores map[string]*core
	celT  *celTransport
}

// core is one sandbox of the host.
type core struct {
	h        *apiserver.Server
	log      *persist.Log // nil: memory only
	stop     context.CancelFunc
	answered chan struct{} // closed when its first request has been answered
	once     sync.Once
}

func (x *host) get(name string) *core {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.cores[name]
}

// ServeHTTP hands the request to its sandbox's core.
func (x *host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.Header.Get(sandboxHeader)
	r.Header.Del(sandboxHeader)
	c := x.get(name)
	if c == nil {
		st := apierr.ToStatus(fmt.Errorf("the sandbox %q is not running", name))
		b, _ := jsonx.Marshal(st)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(st.Code)
		w.Write(b)
		return
	}
	c.h.ServeHTTP(w, r)
	c.once.Do(func() { close(c.answered) })
}

// open starts sandbox name's core (restoring its saved state), once; rev
// > 1: a memory-only core after a reset starts there.
func (x *host) open(name string, rev store.Revision) error {
	if x.get(name) != nil {
		return nil
	}
	var db persist.Backend
	if idb := newIDB(name); idb != nil {
		db = idb
	} else if rev > 1 {
		db = persist.NewMem()
		if err := persist.New(db, persist.Options{}).Reset(rev); err != nil {
			return err
		}
	}
	c := &core{answered: make(chan struct{})}
	if db != nil {
		c.log = persist.New(db, persistOptions())
		srv, err := apiserver.NewDurable(options, c.log)
		if err != nil {
			return err
		}
		c.h = srv
	} else {
		c.h = apiserver.New(options)
	}
	ctx, stop := context.WithCancel(context.Background())
	c.stop = stop
	x.mu.Lock()
	x.cores[name] = c
	x.mu.Unlock()
	go func() {
		if c.after(ctx, celAfter) {
			preloadCEL(c.h, x.celT)
		}
	}()
	if controllersOn() {
		go func() {
			if c.after(ctx, controllersAfter) {
				startControllers(ctx, c.h)
			}
		}()
	}
	return nil
}

// after waits for the core's first answer, or d without one: false when
// ctx ended first.
func (c *core) after(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.answered:
	case <-t.C:
	case <-ctx.Done():
		return false
	}
	return true
}

// close stops the core's controllers and closes its log (a commit in
// progress ends, every later one fails); with drop, the host forgets it.
func (x *host) close(name string, drop bool) *core {
	x.mu.Lock()
	c := x.cores[name]
	if drop {
		delete(x.cores, name)
	}
	x.mu.Unlock()
	if c != nil {
		c.stop()
		if c.log != nil {
			c.log.Close()
		}
	}
	return c
}
