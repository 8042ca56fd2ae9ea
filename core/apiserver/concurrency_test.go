package apiserver_test

// Concurrency: run with -race. Optimistic concurrency must never lose an
// update, a name can be created once, two appliers never both own a field,
// and every watcher sees every event, in order, once.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	relWorkers    = 8
	relIncrements = 25 // per worker
)

// relCounter reads and writes one integer inside an object.
type relCounter struct {
	name string
	path string
	get  func(obj map[string]any) int
	set  func(obj map[string]any, v int)
}

var relCounters = []relCounter{
	{"configmap data", relCMs + "/cm1",
		func(o map[string]any) int {
			n, _ := strconv.Atoi(o["data"].(map[string]any)["count"].(string))
			return n
		},
		func(o map[string]any, v int) { o["data"].(map[string]any)["count"] = strconv.Itoa(v) }},
	{"widget spec", relWidgets + "/w1",
		func(o map[string]any) int { return int(o["spec"].(map[string]any)["counter"].(float64)) },
		func(o map[string]any, v int) { o["spec"].(map[string]any)["counter"] = v }},
}

// TestReadModifyWriteLosesNothing: relWorkers goroutines each add 1
// relIncrements times with GET, then PUT carrying the read
// resourceVersion, retrying on 409. The final value is the number of
// increments, every 409 is the real Conflict, and the object's event
// history counts 1, 2, 3 ... without a gap or a repeat.
func TestReadModifyWriteLosesNothing(t *testing.T) {
	for _, c := range relCounters {
		t.Run(c.name, func(t *testing.T) {
			s := relServer(t)
			start := s.Store().Rev()
			var conflicts atomic.Int64
			var wg sync.WaitGroup
			errs := make(chan error, relWorkers)
			for w := 0; w < relWorkers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < relIncrements; i++ {
						for attempt := 0; ; attempt++ {
							if attempt > 1000 {
								errs <- fmt.Errorf("no progress after 1000 attempts")
								return
							}
							r := relDo(s, "GET", c.path, "", "")
							var obj map[string]any
							if r.Code != 200 || json.Unmarshal(r.Body, &obj) != nil {
								errs <- fmt.Errorf("GET: %d %s", r.Code, r.Body)
								return
							}
							c.set(obj, c.get(obj)+1)
							body, _ := json.Marshal(obj)
							r = relDo(s, "PUT", c.path, relJSON, string(body))
							if r.Code == 200 {
								break
							}
							st, err := relParseStatus(r)
							name := c.path[strings.LastIndex(c.path, "/")+1:]
							want := fmt.Sprintf(`Operation cannot be fulfilled on %s "%s": the object has been modified; please apply your changes to the latest version and try again`,
								map[bool]string{true: "configmaps", false: "widgets.rel.example.com"}[strings.Contains(c.path, "configmaps")], name)
							if r.Code != 409 || err != nil || st.Reason != "Conflict" || st.Message != want {
								errs <- fmt.Errorf("PUT: %d %v %s", r.Code, err, r.Body)
								return
							}
							conflicts.Add(1)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			total := relWorkers * relIncrements
			obj := relMust(t, s, 200, "GET", c.path, "", "")
			if got := c.get(obj); got != total {
				t.Fatalf("final value %d, want %d (lost updates)", got, total)
			}
			if got := int64(s.Store().Rev() - start); got != int64(total) {
				t.Errorf("%d revisions for %d successful writes", got, total)
			}
			// the history of the object: 1, 2, ..., total
			w, err := s.Store().Watch("", start)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			next := 1
			for next <= total {
				evs, err := w.Next(ctx)
				if err != nil {
					t.Fatalf("history ends at %d of %d: %v", next-1, total, err)
				}
				for _, ev := range evs {
					var o map[string]any
					if err := json.Unmarshal(ev.KV.Value, &o); err != nil {
						t.Fatal(err)
					}
					if v := c.get(o); v != next {
						t.Fatalf("event at rev %d has value %d, want %d", ev.KV.ModRev, v, next)
					}
					next++
				}
			}
			t.Logf("%d increments, %d conflicts retried", total, conflicts.Load())
		})
	}
}

// TestUnconditionalUpdate: a built-in accepts a PUT without
// resourceVersion (AllowUnconditionalUpdate); a custom resource does not.
func TestUnconditionalUpdate(t *testing.T) {
	s := relServer(t)
	obj := relMust(t, s, 200, "PUT", relCMs+"/cm1", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"count":"5"}}`)
	if obj["data"].(map[string]any)["count"] != "5" {
		t.Errorf("data %v", obj["data"])
	}
	r := relDo(s, "PUT", relWidgets+"/w1", relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"counter":5}}`)
	if st, err := relParseStatus(r); err != nil || r.Code != 422 || st.Message != `widgets.rel.example.com "w1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update` {
		t.Errorf("custom resource PUT without resourceVersion: %d %v %s", r.Code, err, r.Body)
	}
}

// TestConcurrentCreateSameName: of relWorkers simultaneous creates of one
// name exactly one succeeds; the others get AlreadyExists.
func TestConcurrentCreateSameName(t *testing.T) {
	s := relServer(t)
	for round := 0; round < 20; round++ {
		name := fmt.Sprintf("race-%d", round)
		for _, target := range []struct{ path, body, gr string }{
			{relCMs, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}`, "configmaps"},
			{relWidgets, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"` + name + `"}}`, "widgets.rel.example.com"},
		} {
			codes := make([]int, relWorkers)
			bodies := make([]relResp, relWorkers)
			var wg sync.WaitGroup
			gate := make(chan struct{})
			for w := 0; w < relWorkers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-gate
					bodies[w] = relDo(s, "POST", target.path, relJSON, target.body)
					codes[w] = bodies[w].Code
				}()
			}
			close(gate)
			wg.Wait()
			created := 0
			for i, code := range codes {
				switch code {
				case 201:
					created++
				case 409:
					st, err := relParseStatus(bodies[i])
					if want := fmt.Sprintf(`%s "%s" already exists`, target.gr, name); err != nil || st.Reason != "AlreadyExists" || st.Message != want {
						t.Errorf("%s: %v %s", name, err, bodies[i].Body)
					}
				default:
					t.Errorf("%s: %d %s", name, code, bodies[i].Body)
				}
			}
			if created != 1 {
				t.Errorf("%s %s: %d creates succeeded, want 1", target.gr, name, created)
			}
		}
	}
}

// TestConcurrentApply: two managers applying at once. Disjoint fields:
// every apply succeeds and each manager owns its own field. The same
// field with different values and no force: the first applier owns it for
// good and every apply of the other is a conflict naming the owner.
func TestConcurrentApply(t *testing.T) {
	s := relServer(t)
	apply := func(manager, spec string) relResp {
		return relDo(s, "PATCH", relWidgets+"/wa?fieldManager="+manager, relApply,
			`{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"wa"},"spec":{`+spec+`}}`)
	}
	const rounds = 30
	run := func(specs map[string]func(i int) string) map[string][]relResp {
		out := map[string][]relResp{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for m, spec := range specs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					r := apply(m, spec(i))
					mu.Lock()
					out[m] = append(out[m], r)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return out
	}

	t.Run("disjoint fields", func(t *testing.T) {
		res := run(map[string]func(int) string{
			"alice": func(i int) string { return fmt.Sprintf(`"size":"s%d"`, i) },
			"bob":   func(i int) string { return fmt.Sprintf(`"tags":["t%d"]`, i) },
		})
		for m, rs := range res {
			for _, r := range rs {
				if r.Code != 200 && r.Code != 201 {
					t.Fatalf("%s: %d %s", m, r.Code, r.Body)
				}
			}
		}
		obj := relMust(t, s, 200, "GET", relWidgets+"/wa", "", "")
		spec := obj["spec"].(map[string]any)
		if spec["size"] != fmt.Sprintf("s%d", rounds-1) || fmt.Sprint(spec["tags"]) != fmt.Sprintf("[t%d]", rounds-1) {
			t.Errorf("spec %v: a last apply was lost", spec)
		}
		owners := relOwners(t, obj)
		if owners["alice"] != "Apply:f:size" || owners["bob"] != "Apply:f:tags" {
			t.Errorf("managedFields owners %v", owners)
		}
	})

	t.Run("same field without force", func(t *testing.T) {
		res := run(map[string]func(int) string{
			"carol": func(int) string { return `"replicas":7` },
			"dave":  func(int) string { return `"replicas":9` },
		})
		obj := relMust(t, s, 200, "GET", relWidgets+"/wa", "", "")
		replicas := obj["spec"].(map[string]any)["replicas"].(float64)
		winner, loser := "carol", "dave"
		if replicas == 9 {
			winner, loser = loser, winner
		}
		for _, r := range res[winner] {
			if r.Code != 200 {
				t.Errorf("%s (owner): %d %s", winner, r.Code, r.Body)
			}
		}
		want := fmt.Sprintf(`Apply failed with 1 conflict: conflict with "%s": .spec.replicas`, winner)
		for _, r := range res[loser] {
			st, err := relParseStatus(r)
			if r.Code != 409 || err != nil || st.Message != want {
				t.Errorf("%s: %d %v %s", loser, r.Code, err, r.Body)
			}
		}
		if o := relOwners(t, obj); o[winner] != "Apply:f:replicas" || o[loser] != "" {
			t.Errorf("owners %v, want only %s on replicas", o, winner)
		}
	})
}

// relOwners maps each manager of obj to "operation:f:field,..." for the
// fields it owns under spec.
func relOwners(t *testing.T, obj map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	mfs, _ := obj["metadata"].(map[string]any)["managedFields"].([]any)
	for _, e := range mfs {
		m := e.(map[string]any)
		spec, _ := m["fieldsV1"].(map[string]any)["f:spec"].(map[string]any)
		var fields []string
		for k := range spec {
			if k != "." {
				fields = append(fields, k)
			}
		}
		if len(fields) > 0 {
			out[m["manager"].(string)] = m["operation"].(string) + ":" + strings.Join(fields, ",")
		}
	}
	return out
}

// TestWatchersSeeEveryEvent: watchers over HTTP, started from one
// resourceVersion, while writers create, update and delete configmaps:
// every watcher receives exactly the writes of the namespace, in
// resourceVersion order.
func TestWatchersSeeEveryEvent(t *testing.T) {
	s := relServer(t)
	srv := httptest.NewServer(s)
	defer srv.Close()
	from := s.Store().Rev()

	const watchers, writers, writesPer = 4, 4, 30
	type event struct {
		Type   string
		Object struct {
			Metadata struct{ Name, ResourceVersion string }
		}
	}
	results := make([][]event, watchers)
	ready := make(chan error, watchers)
	var wwg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var final atomic.Int64 // the last write's revision, once known
	for i := 0; i < watchers; i++ {
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", fmt.Sprintf("%s%s?watch=1&resourceVersion=%d", srv.URL, relCMs, from), nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				ready <- err
				return
			}
			defer resp.Body.Close()
			ready <- nil
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				var ev event
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					t.Errorf("watch line %q: %v", sc.Bytes(), err)
					return
				}
				results[i] = append(results[i], ev)
				rv, _ := strconv.ParseInt(ev.Object.Metadata.ResourceVersion, 10, 64)
				if f := final.Load(); f != 0 && rv > f {
					return
				}
			}
		}()
	}
	for i := 0; i < watchers; i++ {
		if err := <-ready; err != nil {
			t.Fatal(err)
		}
	}

	var written atomic.Int64 // successful writes in namespace rel
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("wr-%d", w)
			for i := 0; i < writesPer; i++ {
				var r relResp
				switch i % 3 {
				case 0:
					r = relDo(s, "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`+name+`"}}`)
				case 1:
					r = relDo(s, "PATCH", relCMs+"/"+name, relMerge, fmt.Sprintf(`{"data":{"i":"%d"}}`, i))
				case 2:
					r = relDo(s, "DELETE", relCMs+"/"+name, "", "")
				}
				if r.Code/100 != 2 {
					t.Errorf("write %d of %s: %d %s", i, name, r.Code, r.Body)
					return
				}
				written.Add(1)
			}
		}()
	}
	wg.Wait()
	last := int64(s.Store().Rev())
	final.Store(last)
	// a last write releases watchers that have already seen everything
	relMust(t, s, 201, "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"zz-last"}}`)
	wwg.Wait()
	if ctx.Err() != nil {
		t.Fatal("watchers timed out")
	}
	want := writers*writesPer + 1
	if written.Load() != writers*writesPer {
		t.Fatalf("%d writes succeeded", written.Load())
	}
	for i, evs := range results {
		if len(evs) != want {
			t.Errorf("watcher %d saw %d events, want %d", i, len(evs), want)
			continue
		}
		prev := int64(from)
		for _, ev := range evs {
			rv, _ := strconv.ParseInt(ev.Object.Metadata.ResourceVersion, 10, 64)
			if rv <= prev {
				t.Errorf("watcher %d: rv %d after %d", i, rv, prev)
			}
			prev = rv
		}
		if prev <= last {
			t.Errorf("watcher %d stopped at rv %d, before the last write %d", i, prev, last)
		}
	}
	if got := int64(s.Store().Rev()) - int64(from); got != int64(want) {
		t.Errorf("%d revisions for %d writes", got, want)
	}
}
