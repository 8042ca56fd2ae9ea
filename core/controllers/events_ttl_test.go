package controllers_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

func coreEvent(name string) m {
	return m{"apiVersion": "v1", "kind": "Event", "metadata": m{"name": name},
		"involvedObject": m{"kind": "Pod", "name": "p", "namespace": "default"},
		"reason":         "Test", "message": "hello", "type": "Normal", "count": 1}
}

func newEvent(name string, at time.Time) m {
	return m{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": m{"name": name},
		"eventTime": at.UTC().Format("2006-01-02T15:04:05.000000Z"), "reportingController": "test.io/c", "reportingInstance": "i",
		"action": "Act", "reason": "Test", "type": "Normal", "regarding": m{"kind": "Pod", "name": "p", "namespace": "default"}}
}

// eventNames lists the Events in default (the test's own only): the
// names both APIs list, one stored Event each (an events.k8s.io/v1 Event
// is a core/v1 Event).
func (e *env) eventNames() string {
	e.t.Helper()
	lists := map[string]string{}
	for api, p := range map[string]string{"core": "/api/v1/namespaces/default/events", "new": "/apis/events.k8s.io/v1/namespaces/default/events"} {
		var out []string
		for _, ev := range e.items(p) {
			if n := gets(ev, "metadata", "name"); strings.HasPrefix(n, "ev-") {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		lists[api] = strings.Join(out, ",")
	}
	if lists["core"] != lists["new"] {
		e.t.Errorf("core/v1 lists %q, events.k8s.io/v1 %q", lists["core"], lists["new"])
	}
	return lists["core"]
}

func TestEventsExpire(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	t.Run("an hour after the last write", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0})
		const coreEvents = "/api/v1/namespaces/default/events"
		e.must(201, "POST", coreEvents, "application/json", coreEvent("ev-once"))
		e.must(201, "POST", coreEvents, "application/json", coreEvent("ev-again"))
		e.idle()
		clk.set(t0.Add(10 * time.Minute))
		e.must(201, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json", newEvent("ev-new", clk.Now()))
		e.idle()
		clk.set(t0.Add(30 * time.Minute))
		e.must(200, "PATCH", coreEvents+"/ev-again", "application/merge-patch+json", m{"count": 2})
		e.idle()
		for _, step := range []struct {
			at   time.Duration
			want string
		}{
			{59 * time.Minute, "ev-again,ev-new,ev-once"},
			{60 * time.Minute, "ev-again,ev-new"},
			{70 * time.Minute, "ev-again"},
			{89 * time.Minute, "ev-again"},
			{90 * time.Minute, ""},
		} {
			e.advance(clk, t0.Add(step.at))
			if got := e.eventNames(); got != step.want {
				t.Errorf("at +%v: events %q, want %q", step.at, got, step.want)
			}
		}
	})
	t.Run("Events stored before the start keep their write time", func(t *testing.T) {
		clk := &fakeClock{now: t0}
		srv := apiserver.New(apiserver.Options{Now: clk.Now})
		e := &env{t: t, srv: srv}
		e.must(201, "POST", "/api/v1/namespaces/default/events", "application/json", coreEvent("ev-old"))
		clk.set(t0.Add(30 * time.Minute))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		e.mgr = controllers.Start(ctx, srv, srv.Store(), controllers.Options{Now: clk.Now, Logf: t.Logf})
		e.idle()
		e.advance(clk, t0.Add(59*time.Minute))
		if got := e.eventNames(); got != "ev-old" {
			t.Errorf("at +59m: %q", got)
		}
		e.advance(clk, t0.Add(60*time.Minute))
		if got := e.eventNames(); got != "" {
			t.Errorf("at +60m: %q (an hour after its creation)", got)
		}
	})
	t.Run("EventTTL configures it", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0, EventTTL: 5 * time.Minute})
		e.must(201, "POST", "/api/v1/namespaces/default/events", "application/json", coreEvent("ev-short"))
		e.idle()
		e.advance(clk, t0.Add(4*time.Minute))
		if got := e.eventNames(); got != "ev-short" {
			t.Errorf("at +4m: %q", got)
		}
		e.advance(clk, t0.Add(5*time.Minute))
		if got := e.eventNames(); got != "" {
			t.Errorf("at +5m: %q", got)
		}
	})
	t.Run("a negative EventTTL keeps them", func(t *testing.T) {
		e, clk := startAt(t, t0, controllers.Options{Nodes: 0, EventTTL: -1})
		e.must(201, "POST", "/api/v1/namespaces/default/events", "application/json", coreEvent("ev-kept"))
		e.idle()
		e.advance(clk, t0.Add(48*time.Hour))
		if got := e.eventNames(); got != "ev-kept" {
			t.Errorf("after 48h: %q", got)
		}
	})
}
