package apiserver

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strconv"
	"testing"
	"time"
)

// The list/watch property test: random creates, updates and deletes of
// ConfigMaps, then, for a sample of retained resourceVersions X:
//
//	(a) the list at X (Exact) plus the watch from X reproduces the list at
//	    the final resourceVersion F — also under a label selector, where
//	    objects entering/leaving the selector arrive as ADDED/DELETED;
//	(b) the watch delivers every write in the namespace after X exactly
//	    once, in strictly increasing resourceVersion order;
//	(c) paging the snapshot at X (limit=k, following continue) gives
//	    exactly the unpaged list, with remainingItemCount counting down;
//
// and resourceVersions older than the window fail with 410 (list) or an
// ERROR event (watch).
func TestPropertyListWatch(t *testing.T) {
	seeds, ops := int64(50), 200
	if testing.Short() {
		seeds = 10
	}
	for seed := int64(1); seed <= seeds; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			t.Parallel()
			runListWatchProperty(t, seed, ops)
		})
	}
}

type propWrite struct {
	rv int64
	ns string
}

func runListWatchProperty(t *testing.T, seed int64, ops int) {
	rng := rand.New(rand.NewSource(seed))
	opts := Options{}
	if seed%3 == 0 {
		opts.HistoryEvents = 60 // smaller than the run: part of it compacts
	}
	c := newTestClient(t, opts)
	store := c.srv.Store()
	start := int64(store.Rev())
	current := map[string]map[string]any{} // namespace/name → object
	var writes []propWrite
	namespaces := []string{"default", "default", "default", "kube-system"}
	teams := []string{"a", "b"}

	for i := 0; i < ops; i++ {
		ns := namespaces[rng.Intn(len(namespaces))]
		name := fmt.Sprintf("n%d", rng.Intn(10))
		base := "/api/v1/namespaces/" + ns + "/configmaps"
		key := ns + "/" + name
		before := int64(store.Rev())
		cur, exists := current[key]
		switch op := rng.Intn(10); {
		case op < 4 || !exists && op < 8: // create (409 if it exists)
			code, obj := c.do("POST", base, configMap(name, map[string]string{"team": teams[rng.Intn(2)]},
				map[string]string{"v": strconv.Itoa(rng.Intn(3))}))
			if code == 201 {
				current[key] = obj
			} else if code != 409 || !exists {
				t.Fatalf("create %s: %d %v", key, code, obj)
			}
		case op < 8: // update: data and/or labels; sometimes identical (no write)
			next := deepCopyMap(cur)
			if rng.Intn(2) == 0 {
				next["data"] = map[string]any{"v": strconv.Itoa(rng.Intn(3))}
			}
			if rng.Intn(2) == 0 {
				next["metadata"].(map[string]any)["labels"] = map[string]any{"team": teams[rng.Intn(2)]}
			}
			current[key] = c.mustDo(200, "PUT", base+"/"+name, next)
		default: // delete (404 if missing)
			code, obj := c.do("DELETE", base+"/"+name, nil)
			if code == 200 {
				delete(current, key)
			} else if code != 404 || exists {
				t.Fatalf("delete %s: %d %v", key, code, obj)
			}
		}
		switch after := int64(store.Rev()); after - before {
		case 0:
		case 1:
			writes = append(writes, propWrite{after, ns})
		default:
			t.Fatalf("one request took %d revisions", after-before)
		}
	}
	// a sentinel every watch (selector team=a included) sees last
	final := rvOf(c.mustDo(201, "POST", cmPath, configMap("zz-sentinel", map[string]string{"team": "a"}, nil)))
	writes = append(writes, propWrite{final, "default"})

	finalAll := c.listAt(final, "")
	finalA := c.listAt(final, "team=a")
	compacted := int64(store.CompactedRev())

	starts := []int64{start, compacted, final - 1}
	for i := 0; i < 6; i++ {
		starts = append(starts, compacted+rng.Int63n(final-compacted+1))
	}
	for _, x := range starts {
		if x < compacted {
			c.checkExpired(x)
			continue
		}
		// (a) + (b), unfiltered
		watchTo := func(q string) []watchEvent {
			if x == final {
				return nil // nothing after it
			}
			return c.watch(q).until(t, final, false)
		}
		events := watchTo(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(x, 10))
		got := applyEvents(t, byName(itemsOf(c.listAt(x, ""))), events, true)
		if !reflect.DeepEqual(got, byName(itemsOf(finalAll))) {
			t.Fatalf("list@%d + watch ≠ list@%d:\n got %v\nwant %v", x, final, names(got), names(byName(itemsOf(finalAll))))
		}
		var want []int64
		for _, w := range writes {
			if w.ns == "default" && w.rv > x {
				want = append(want, w.rv)
			}
		}
		var seen []int64
		for _, ev := range events {
			seen = append(seen, ev.rv())
		}
		if !reflect.DeepEqual(seen, want) {
			t.Fatalf("watch from %d: event rvs %v\nwant %v", x, seen, want)
		}
		// (a) under a label selector
		sel := "labelSelector=team%3Da"
		events = watchTo(cmPath + "?watch=1&" + sel + "&resourceVersion=" + strconv.FormatInt(x, 10))
		got = applyEvents(t, byName(itemsOf(c.listAt(x, "team=a"))), events, true)
		if !reflect.DeepEqual(got, byName(itemsOf(finalA))) {
			t.Fatalf("selector list@%d + watch ≠ list@%d:\n got %v\nwant %v", x, final, names(got), names(byName(itemsOf(finalA))))
		}
		// (c) paging
		c.checkPaging(x, 1+rng.Intn(4), "", rng.Intn(2) == 0)
		c.checkPaging(x, 1+rng.Intn(3), "team=a", true)
	}
}

func deepCopyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if mm, ok := v.(map[string]any); ok {
			v = deepCopyMap(mm)
		}
		out[k] = v
	}
	return out
}

// listAt is the unpaged list at exactly rv.
func (c *tclient) listAt(rv int64, selector string) map[string]any {
	c.t.Helper()
	q := cmPath + "?resourceVersionMatch=Exact&resourceVersion=" + strconv.FormatInt(rv, 10)
	if selector != "" {
		q += "&labelSelector=" + selector
	}
	list := c.mustDo(200, "GET", q, nil)
	if got := rvOf(list); got != rv {
		c.t.Fatalf("list at %d answered at %d", rv, got)
	}
	return list
}

// checkPaging pages the snapshot at rv by k and compares with the unpaged
// list. exact: the first page asks resourceVersionMatch=Exact, else the
// legacy form (limit + resourceVersion, which is exact too).
func (c *tclient) checkPaging(rv int64, k int, selector string, exact bool) {
	c.t.Helper()
	whole := itemsOf(c.listAt(rv, selector))
	q := cmPath + "?limit=" + strconv.Itoa(k)
	if selector != "" {
		q += "&labelSelector=" + selector
	}
	first := q + "&resourceVersion=" + strconv.FormatInt(rv, 10)
	if exact {
		first += "&resourceVersionMatch=Exact"
	}
	paged := []map[string]any{}
	url := first
	for pages := 0; ; pages++ {
		if pages > len(whole)+1 {
			c.t.Fatalf("paging at %d by %d does not end", rv, k)
		}
		list := c.mustDo(200, "GET", url, nil)
		md := listMeta(list)
		if got := rvOf(list); got != rv {
			c.t.Fatalf("page %d at rv %d, want %d", pages, got, rv)
		}
		items := itemsOf(list)
		paged = append(paged, items...)
		cont, _ := md["continue"].(string)
		remaining, hasRemaining := md["remainingItemCount"]
		switch {
		case cont == "":
			if hasRemaining {
				c.t.Fatalf("last page carries remainingItemCount %v", remaining)
			}
		case selector != "":
			if hasRemaining {
				c.t.Fatalf("selector page carries remainingItemCount %v", remaining)
			}
		default:
			if want := int64(len(whole) - len(paged)); remaining != want {
				c.t.Fatalf("page %d: remainingItemCount %v, want %d", pages, remaining, want)
			}
		}
		if len(items) > k || (cont != "" && len(items) != k) {
			c.t.Fatalf("page %d has %d items (limit %d, continue %q)", pages, len(items), k, cont)
		}
		if cont == "" {
			break
		}
		url = q + "&continue=" + cont
	}
	if !reflect.DeepEqual(paged, whole) {
		c.t.Fatalf("paged list at %d by %d (selector %q):\n got %v\nwant %v", rv, k, selector, names(byName(paged)), names(byName(whole)))
	}
}

// checkExpired: a resourceVersion older than the window.
func (c *tclient) checkExpired(rv int64) {
	c.t.Helper()
	code, obj := c.do("GET", cmPath+"?resourceVersionMatch=Exact&resourceVersion="+strconv.FormatInt(rv, 10), nil)
	if code != 410 || obj["reason"] != "Expired" {
		c.t.Fatalf("list at compacted %d: %d %v", rv, code, obj)
	}
	ev, ok := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(rv, 10)).next(5 * time.Second)
	if !ok || ev.Type != "ERROR" || ev.Object["code"] != int64(410) {
		c.t.Fatalf("watch from compacted %d: %v", rv, ev)
	}
}

// byName indexes objects by name without apiVersion/kind (list items of
// built-ins carry none, watch objects do).
func byName(items []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, it := range items {
		out[nameOf(it)] = stripTypeMeta(it)
	}
	return out
}

func stripTypeMeta(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "apiVersion" && k != "kind" {
			out[k] = v
		}
	}
	return out
}

// applyEvents plays watch events onto a state; strict: ADDED must be new,
// MODIFIED and DELETED must exist, and resourceVersions strictly increase.
func applyEvents(t *testing.T, state map[string]map[string]any, events []watchEvent, strict bool) map[string]map[string]any {
	t.Helper()
	var last int64
	for _, ev := range events {
		name := nameOf(ev.Object)
		_, exists := state[name]
		if ev.rv() <= last {
			t.Fatalf("%s %s at rv %d after %d", ev.Type, name, ev.rv(), last)
		}
		last = ev.rv()
		switch ev.Type {
		case "ADDED":
			if strict && exists {
				t.Fatalf("ADDED %s at %d: already present", name, ev.rv())
			}
			state[name] = stripTypeMeta(ev.Object)
		case "MODIFIED":
			if strict && !exists {
				t.Fatalf("MODIFIED %s at %d: not present", name, ev.rv())
			}
			state[name] = stripTypeMeta(ev.Object)
		case "DELETED":
			if strict && !exists {
				t.Fatalf("DELETED %s at %d: not present", name, ev.rv())
			}
			delete(state, name)
		default:
			t.Fatalf("unexpected %s event %v", ev.Type, ev.Object)
		}
	}
	return state
}

func names(m map[string]map[string]any) []string {
	out := make([]string, 0, len(m))
	for n, o := range m {
		out = append(out, n+"@"+strconv.FormatInt(rvOf(o), 10))
	}
	sort.Strings(out)
	return out
}
