package controllers_test

import (
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

// fakeClock is the clock of the API server and the controllers in tests
// that move time by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// startAt runs the server and the controllers on a clock that starts at
// t0; opts.Now and Logf are set here, and Instant: the kubelets' pacing
// runs on real timers, which a clock standing still would never reach.
func startAt(t *testing.T, t0 time.Time, opts controllers.Options) (*env, *fakeClock) {
	t.Helper()
	clk := &fakeClock{now: t0}
	opts.Now = clk.Now
	return startWith(t, apiserver.Options{Now: clk.Now}, opts), clk
}

// advance moves the clock to t, fires the timers due by then and waits
// until the controllers are idle.
func (e *env) advance(clk *fakeClock, t time.Time) {
	e.t.Helper()
	clk.set(t)
	e.mgr.FireDue()
	e.idle()
}

func (e *env) idle() {
	e.t.Helper()
	e.eventually("controllers idle", func() (bool, string) { return e.mgr.Idle(), "" })
}

// eventsFor lists the reasons and messages of the core/v1 Events about
// the object named name in ns, oldest first.
func (e *env) eventsFor(ns, name string) []string {
	e.t.Helper()
	var out []string
	for _, ev := range e.items("/api/v1/namespaces/" + ns + "/events") {
		if gets(ev, "involvedObject", "name") == name {
			out = append(out, gets(ev, "reason")+": "+gets(ev, "message"))
		}
	}
	return out
}
