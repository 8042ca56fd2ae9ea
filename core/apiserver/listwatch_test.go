package apiserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// ---- test client -------------------------------------------------------

const cmPath = "/api/v1/namespaces/default/configmaps"

type tclient struct {
	t   testing.TB
	url string
	srv *Server
}

func newTestClient(t testing.TB, opts Options) *tclient {
	t.Helper()
	srv := New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &tclient{t: t, url: ts.URL, srv: srv}
}

// at returns the client reporting to t (for subtests).
func (c *tclient) at(t testing.TB) *tclient {
	d := *c
	d.t = t
	return &d
}

// do sends body (JSON-encoded unless nil) and decodes a JSON object answer
// (nil if the answer is not one).
func (c *tclient) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	obj, _ := jsonx.DecodeObject(b)
	return resp.StatusCode, obj
}

// mustDo is do that fails the test unless the status is want.
func (c *tclient) mustDo(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	code, obj := c.do(method, path, body)
	if code != want {
		c.t.Fatalf("%s %s: %d %v, want %d", method, path, code, obj, want)
	}
	return obj
}

func configMap(name string, labels map[string]string, data map[string]string) map[string]any {
	md := map[string]any{"name": name}
	if labels != nil {
		md["labels"] = labels
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md, "data": data}
}

// watchEvent is one decoded event of a watch stream.
type watchEvent struct {
	Type   string
	Object map[string]any
}

func (e watchEvent) rv() int64 { return rvOf(e.Object) }

// stream is an open watch; events arrive on ch, closed when the server
// ends the stream.
type stream struct {
	ch     chan watchEvent
	status int
	cancel context.CancelFunc
}

func (c *tclient) watch(path string) *stream {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.url+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		c.t.Fatal(err)
	}
	s := &stream{ch: make(chan watchEvent, 1024), status: resp.StatusCode, cancel: cancel}
	c.t.Cleanup(cancel)
	go func() {
		defer close(s.ch)
		defer resp.Body.Close()
		dec := json.NewDecoder(resp.Body)
		for {
			var raw struct {
				Type   string          `json:"type"`
				Object json.RawMessage `json:"object"`
			}
			if dec.Decode(&raw) != nil {
				return
			}
			obj, _ := jsonx.DecodeObject(raw.Object)
			s.ch <- watchEvent{raw.Type, obj}
		}
	}()
	return s
}

// next returns the next event; ok=false when the stream ended or nothing
// arrived within d.
func (s *stream) next(d time.Duration) (ev watchEvent, ok bool) {
	select {
	case ev, ok = <-s.ch:
		return ev, ok
	case <-time.After(d):
		return watchEvent{}, false
	}
}

// until collects events up to and including the one at rv (bookmarks
// skipped unless keepBookmarks).
func (s *stream) until(t testing.TB, rv int64, keepBookmarks bool) []watchEvent {
	t.Helper()
	var out []watchEvent
	for {
		ev, ok := s.next(10 * time.Second)
		if !ok {
			t.Fatalf("stream ended or stalled before rv %d; got %d events", rv, len(out))
		}
		if ev.Type == "BOOKMARK" && !keepBookmarks {
			continue
		}
		out = append(out, ev)
		if ev.Type != "BOOKMARK" && ev.rv() >= rv {
			return out
		}
	}
}

func rvOf(obj map[string]any) int64 {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md["resourceVersion"].(string)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func nameOf(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md["name"].(string)
	return s
}

func itemsOf(list map[string]any) []map[string]any {
	raw, _ := list["items"].([]any)
	out := make([]map[string]any, 0, len(raw))
	for _, it := range raw {
		m, _ := it.(map[string]any)
		out = append(out, m)
	}
	return out
}

func listMeta(list map[string]any) map[string]any {
	md, _ := list["metadata"].(map[string]any)
	return md
}

// status checks a Status body: code, reason, message.
func checkStatus(t *testing.T, obj map[string]any, code int, reason, message string) {
	t.Helper()
	if obj["kind"] != "Status" || obj["code"] != int64(code) || obj["reason"] != reason || obj["message"] != message {
		t.Errorf("Status = %v\nwant code %d reason %s message %q", obj, code, reason, message)
	}
}

func createN(c *tclient, n int, prefix string) int64 {
	var rv int64
	for i := 0; i < n; i++ {
		obj := c.mustDo(201, "POST", cmPath, configMap(fmt.Sprintf("%s%03d", prefix, i), map[string]string{"i": strconv.Itoa(i % 2)}, map[string]string{"k": "v"}))
		rv = rvOf(obj)
	}
	return rv
}

// ---- list ----------------------------------------------------------------

func TestListResourceVersionErrors(t *testing.T) {
	c := newTestClient(t, Options{HistoryEvents: 5})
	createN(c, 12, "cm")
	cur := int64(c.srv.Store().Rev())
	compacted := int64(c.srv.Store().CompactedRev())
	if compacted <= 2 {
		t.Fatalf("window did not move: compacted %d", compacted)
	}
	tests := []struct {
		name, query string
		code        int
		reason, msg string
	}{
		{"exact, compacted", fmt.Sprintf("resourceVersion=%d&resourceVersionMatch=Exact", compacted-1),
			410, "Expired", "The resourceVersion for the provided list is too old."},
		{"legacy exact (limit), compacted", fmt.Sprintf("resourceVersion=%d&limit=2", compacted-1),
			410, "Expired", "The resourceVersion for the provided list is too old."},
		{"not older than, compacted: served at the latest", fmt.Sprintf("resourceVersion=%d&resourceVersionMatch=NotOlderThan", compacted-1),
			200, "", ""},
		{"legacy not older than, compacted: served", fmt.Sprintf("resourceVersion=%d", compacted-1), 200, "", ""},
		{"exact at the window's edge", fmt.Sprintf("resourceVersion=%d&resourceVersionMatch=Exact", compacted), 200, "", ""},
		{"malformed resourceVersion", "resourceVersion=abc", 400, "BadRequest", `invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, obj := c.at(t).do("GET", cmPath+"?"+tt.query, nil)
			if code != tt.code {
				t.Fatalf("code %d %v, want %d", code, obj, tt.code)
			}
			if tt.code != 200 {
				checkStatus(t, obj, tt.code, tt.reason, tt.msg)
				return
			}
			if got := rvOf(obj); got != cur && !strings.Contains(tt.query, "Exact") {
				t.Errorf("list rv %d, want the latest %d", got, cur)
			}
		})
	}
}

func TestListFutureResourceVersion(t *testing.T) {
	c := newTestClient(t, Options{})
	rv := createN(c, 1, "cm")
	future := rv + 100
	msg := fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", future, rv)
	for _, tt := range []struct{ name, path string }{
		{"get", cmPath + "/cm000?resourceVersion=" + strconv.FormatInt(future, 10)},
		{"list", cmPath + "?resourceVersion=" + strconv.FormatInt(future, 10)},
		{"list not older than", cmPath + "?resourceVersionMatch=NotOlderThan&resourceVersion=" + strconv.FormatInt(future, 10)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			code, obj := c.at(t).do("GET", tt.path, nil)
			checkStatus(t, obj, 504, "Timeout", msg)
			if code != 504 {
				t.Errorf("code %d", code)
			}
			det, _ := obj["details"].(map[string]any)
			causes, _ := det["causes"].([]any)
			if det["retryAfterSeconds"] != int64(1) || len(causes) != 1 {
				t.Errorf("details = %v", det)
			}
			if time.Since(start) < 2*time.Second {
				t.Errorf("answered after %v; the server waits for the store to catch up first", time.Since(start))
			}
		})
	}
	t.Run("a write during the wait unblocks", func(t *testing.T) {
		t.Parallel()
		c := newTestClient(t, Options{})
		rv := int64(c.srv.Store().Rev())
		done := make(chan int)
		go func() {
			code, _ := c.do("GET", cmPath+"?resourceVersion="+strconv.FormatInt(rv+1, 10), nil)
			done <- code
		}()
		time.Sleep(100 * time.Millisecond)
		c.mustDo(201, "POST", cmPath, configMap("late", nil, nil))
		if code := <-done; code != 200 {
			t.Errorf("code %d", code)
		}
	})
}

func TestListLegacyExactWithLimit(t *testing.T) {
	// resourceVersionMatch unset + limit + resourceVersion≠0 is Exact (the
	// API concepts table), not "not older than".
	c := newTestClient(t, Options{})
	rv := createN(c, 3, "a")
	createN(c, 2, "b")
	list := c.mustDo(200, "GET", cmPath+"?limit=10&resourceVersion="+strconv.FormatInt(rv, 10), nil)
	if got := rvOf(list); got != rv {
		t.Errorf("list rv = %d, want %d", got, rv)
	}
	if n := len(itemsOf(list)); n != 3 {
		t.Errorf("%d items, want the 3 that existed at rv %d", n, rv)
	}
}

func encodeToken(v string, rv int64, start string) string {
	b, _ := json.Marshal(map[string]any{"v": v, "rv": rv, "start": start})
	return base64.RawURLEncoding.EncodeToString(b)
}

func TestContinueTokens(t *testing.T) {
	c := newTestClient(t, Options{HistoryEvents: 8})
	createN(c, 6, "cm")
	page := c.mustDo(200, "GET", cmPath+"?limit=2", nil)
	tok, _ := listMeta(page)["continue"].(string)
	if tok == "" {
		t.Fatal("no continue token")
	}
	bad := []struct{ name, token, msg string }{
		{"not base64", "!!", "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"},
		{"padded base64", base64.URLEncoding.EncodeToString([]byte(`{"v":"meta.k8s.io/v1","rv":5,"start":"a"}`)),
			"invalid continue token: continue key is not valid: illegal base64 data at input byte 55"},
		{"not JSON", base64.RawURLEncoding.EncodeToString([]byte("xyz")),
			"invalid continue token: continue key is not valid: invalid character 'x' looking for beginning of value"},
		{"unknown version", encodeToken("v1", 5, "a"),
			"invalid continue token: continue key is not valid: server does not recognize this encoded version v1"},
		{"zero rv", encodeToken("meta.k8s.io/v1", 0, "a"),
			"invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"},
		{"empty start", encodeToken("meta.k8s.io/v1", 5, ""),
			"invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"},
		{"path traversal", encodeToken("meta.k8s.io/v1", 5, "../secrets/x"),
			"invalid continue token: continue key is not valid: ../secrets/x"},
		{"dot segment", encodeToken("meta.k8s.io/v1", 5, "a/./b"),
			"invalid continue token: continue key is not valid: a/./b"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			code, obj := c.at(t).do("GET", cmPath+"?limit=2&continue="+tt.token, nil)
			if code != 400 {
				t.Fatalf("code %d %v", code, obj)
			}
			checkStatus(t, obj, 400, "BadRequest", tt.msg)
		})
	}
	t.Run("malformed token with resourceVersion: the token is checked first", func(t *testing.T) {
		_, obj := c.at(t).do("GET", cmPath+"?limit=2&resourceVersion=3&continue=!!", nil)
		checkStatus(t, obj, 400, "BadRequest", "invalid continue token: continue key is not valid: illegal base64 data at input byte 0")
	})
	t.Run("rv -1 continues at the latest revision", func(t *testing.T) {
		list := c.at(t).mustDo(200, "GET", cmPath+"?limit=2&continue="+encodeToken("meta.k8s.io/v1", -1, "cm003\x00"), nil)
		items := itemsOf(list)
		if len(items) != 2 || nameOf(items[0]) != "cm004" || rvOf(list) != int64(c.srv.Store().Rev()) {
			t.Errorf("got %v", list)
		}
	})
	t.Run("snapshot compacted", func(t *testing.T) {
		c := c.at(t)
		createN(c, 10, "more") // moves the window past the token's revision
		code, obj := c.do("GET", cmPath+"?limit=2&continue="+tok, nil)
		if code != 410 {
			t.Fatalf("code %d %v", code, obj)
		}
		checkStatus(t, obj, 410, "Expired", "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
	})
}

func TestListAllNamespaces(t *testing.T) {
	c := newTestClient(t, Options{})
	c.mustDo(201, "POST", cmPath, configMap("a", nil, nil))
	c.mustDo(201, "POST", "/api/v1/namespaces/kube-system/configmaps", configMap("a", nil, nil))
	c.mustDo(201, "POST", "/api/v1/namespaces/kube-public/configmaps", configMap("b", nil, nil))
	var got []string
	cont := ""
	for {
		q := "/api/v1/configmaps?limit=1"
		if cont != "" {
			q += "&continue=" + cont
		}
		list := c.mustDo(200, "GET", q, nil)
		for _, it := range itemsOf(list) {
			md := it["metadata"].(map[string]any)
			got = append(got, md["namespace"].(string)+"/"+md["name"].(string))
		}
		cont, _ = listMeta(list)["continue"].(string)
		if cont == "" {
			break
		}
	}
	if want := "default/a kube-public/b kube-system/a"; strings.Join(got, " ") != want {
		t.Errorf("paged all-namespaces list = %v, want %s", got, want)
	}
}

// ---- watch ---------------------------------------------------------------

func TestWatchTimeoutEndsCleanly(t *testing.T) {
	c := newTestClient(t, Options{})
	start := time.Now()
	s := c.watch(cmPath + "?watch=1&timeoutSeconds=1")
	if s.status != 200 {
		t.Fatalf("status %d", s.status)
	}
	for {
		_, ok := s.next(5 * time.Second)
		if !ok {
			break
		}
	}
	if d := time.Since(start); d < 900*time.Millisecond || d > 3*time.Second {
		t.Errorf("stream ended after %v, want about 1s", d)
	}
}

func TestWatchBookmarks(t *testing.T) {
	old := bookmarkInterval
	bookmarkInterval = 20 * time.Millisecond
	defer func() { bookmarkInterval = old }()
	c := newTestClient(t, Options{})
	rv := createN(c, 1, "cm")
	t.Run("with allowWatchBookmarks", func(t *testing.T) {
		c := c.at(t)
		s := c.watch(cmPath + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + strconv.FormatInt(rv, 10))
		ev, ok := s.next(2 * time.Second)
		if !ok || ev.Type != "BOOKMARK" || ev.rv() != rv || ev.Object["kind"] != "ConfigMap" || ev.Object["apiVersion"] != "v1" {
			t.Fatalf("first event %v %v", ev, ok)
		}
		// a write moves the bookmarks forward; the event comes first
		obj := c.mustDo(201, "POST", cmPath, configMap("next", nil, nil))
		evs := s.until(t, rvOf(obj), true)
		last := evs[len(evs)-1]
		if last.Type != "ADDED" {
			t.Fatalf("events %v", evs)
		}
		for {
			ev, ok := s.next(2 * time.Second)
			if !ok {
				t.Fatal("no bookmark after the write")
			}
			if ev.Type == "BOOKMARK" && ev.rv() == rvOf(obj) {
				break
			}
			if ev.Type != "BOOKMARK" || ev.rv() < rv {
				t.Fatalf("unexpected %v", ev)
			}
		}
	})
	t.Run("without allowWatchBookmarks", func(t *testing.T) {
		c := c.at(t)
		s := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(int64(c.srv.Store().Rev()), 10))
		if ev, ok := s.next(200 * time.Millisecond); ok {
			t.Errorf("got %v", ev)
		}
	})
}

// TestWatchBookmarkNeverOvertakesEvents: a bookmark promises every event up
// to its resourceVersion has been sent. Under a stream of writes a bookmark
// must never carry a resourceVersion ahead of an event still to come.
func TestWatchBookmarkNeverOvertakesEvents(t *testing.T) {
	old := bookmarkInterval
	bookmarkInterval = time.Millisecond
	defer func() { bookmarkInterval = old }()
	c := newTestClient(t, Options{})
	rv := int64(c.srv.Store().Rev())
	s := c.watch(cmPath + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + strconv.FormatInt(rv, 10))
	var last int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 300; i++ {
			c.do("POST", cmPath, configMap(fmt.Sprintf("cm%03d", i), nil, nil))
		}
	}()
	<-done
	final := int64(c.srv.Store().Rev())
	for _, ev := range s.until(t, final, true) {
		r := ev.rv()
		if r < last || (r == last && ev.Type != "BOOKMARK") {
			t.Fatalf("%s at rv %d after rv %d", ev.Type, r, last)
		}
		last = r
	}
}

func TestWatchFromCompactedRV(t *testing.T) {
	c := newTestClient(t, Options{HistoryEvents: 5})
	createN(c, 12, "cm")
	compacted := c.srv.Store().CompactedRev()
	old := int64(compacted) - 1
	s := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(old, 10))
	if s.status != 200 {
		t.Fatalf("status %d", s.status)
	}
	ev, ok := s.next(2 * time.Second)
	if !ok || ev.Type != "ERROR" {
		t.Fatalf("got %v %v, want an ERROR event", ev, ok)
	}
	if ev.Object["kind"] != "Status" || ev.Object["code"] != int64(410) || ev.Object["reason"] != "Expired" ||
		ev.Object["message"] != fmt.Sprintf("too old resource version: %d (%d)", old, compacted) {
		t.Errorf("ERROR object = %v", ev.Object)
	}
	if _, ok := s.next(2 * time.Second); ok {
		t.Error("stream continues after the ERROR event")
	}
	t.Run("at the window's edge it works", func(t *testing.T) {
		c := c.at(t)
		s := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(int64(compacted), 10))
		ev, ok := s.next(2 * time.Second)
		if !ok || ev.Type != "MODIFIED" && ev.Type != "ADDED" {
			t.Errorf("got %v", ev)
		}
	})
}

func TestWatchFallsBehindGetsExpired(t *testing.T) {
	// A watcher whose client never reads is dropped with a 410 ERROR event
	// (or the stream simply ends) once it leaves the window — never a gap.
	c := newTestClient(t, Options{HistoryEvents: 20})
	rv := int64(c.srv.Store().Rev())
	s := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(rv, 10))
	// fill the server's socket buffers: large objects, client not reading
	big := strings.Repeat("x", 64<<10)
	for i := 0; i < 200; i++ {
		c.mustDo(201, "POST", cmPath, configMap(fmt.Sprintf("cm%03d", i), nil, map[string]string{"k": big}))
	}
	next := rv + 1
	for {
		ev, ok := s.next(5 * time.Second)
		if !ok {
			break
		}
		if ev.Type == "ERROR" {
			if ev.Object["code"] != int64(410) {
				t.Errorf("ERROR %v", ev.Object)
			}
			continue
		}
		if ev.rv() != next {
			t.Fatalf("event at rv %d, want %d: a gap", ev.rv(), next)
		}
		next++
		if next > int64(c.srv.Store().Rev()) {
			break // the watcher kept up: fine too
		}
	}
}

func TestWatchFieldSelectorOneObject(t *testing.T) {
	c := newTestClient(t, Options{})
	rv := int64(c.srv.Store().Rev())
	s := c.watch(cmPath + "?watch=1&fieldSelector=metadata.name%3Dx&resourceVersion=" + strconv.FormatInt(rv, 10))
	c.mustDo(201, "POST", cmPath, configMap("y", nil, nil))
	x := c.mustDo(201, "POST", cmPath, configMap("x", nil, map[string]string{"a": "1"}))
	x["data"] = map[string]any{"a": "2"}
	c.mustDo(200, "PUT", cmPath+"/x", x)
	c.mustDo(200, "DELETE", cmPath+"/y", nil)
	c.mustDo(200, "DELETE", cmPath+"/x", nil)
	final := int64(c.srv.Store().Rev())
	var got []string
	for _, ev := range s.until(t, final, false) {
		got = append(got, ev.Type+":"+nameOf(ev.Object))
	}
	if want := "ADDED:x MODIFIED:x DELETED:x"; strings.Join(got, " ") != want {
		t.Errorf("events %v, want %s", got, want)
	}
	t.Run("/watch/ path of one object", func(t *testing.T) {
		c := c.at(t)
		s := c.watch("/api/v1/watch/namespaces/default/configmaps/z?resourceVersion=" + strconv.FormatInt(final, 10))
		c.mustDo(201, "POST", cmPath, configMap("zz", nil, nil))
		z := c.mustDo(201, "POST", cmPath, configMap("z", nil, nil))
		evs := s.until(t, rvOf(z), false)
		if len(evs) != 1 || evs[0].Type != "ADDED" || nameOf(evs[0].Object) != "z" {
			t.Errorf("events %v", evs)
		}
	})
}

func TestWatchAllNamespaces(t *testing.T) {
	c := newTestClient(t, Options{})
	rv := int64(c.srv.Store().Rev())
	s := c.watch("/api/v1/configmaps?watch=1&resourceVersion=" + strconv.FormatInt(rv, 10))
	c.mustDo(201, "POST", cmPath, configMap("a", nil, nil))
	c.mustDo(201, "POST", "/api/v1/namespaces/kube-system/configmaps", configMap("b", nil, nil))
	c.mustDo(200, "DELETE", cmPath+"/a", nil)
	var got []string
	for _, ev := range s.until(t, int64(c.srv.Store().Rev()), false) {
		md := ev.Object["metadata"].(map[string]any)
		got = append(got, fmt.Sprintf("%s:%s/%s", ev.Type, md["namespace"], md["name"]))
	}
	if want := "ADDED:default/a ADDED:kube-system/b DELETED:default/a"; strings.Join(got, " ") != want {
		t.Errorf("events %v, want %s", got, want)
	}
}

func TestDeleteCollectionWatched(t *testing.T) {
	c := newTestClient(t, Options{})
	for i, team := range []string{"a", "b", "a", "a"} {
		c.mustDo(201, "POST", cmPath, configMap(fmt.Sprintf("cm%d", i), map[string]string{"team": team}, nil))
	}
	rv := int64(c.srv.Store().Rev())
	s := c.watch(cmPath + "?watch=1&resourceVersion=" + strconv.FormatInt(rv, 10))
	out := c.mustDo(200, "DELETE", cmPath+"?labelSelector=team%3Da", nil)
	if out["kind"] != "ConfigMapList" || len(itemsOf(out)) != 3 {
		t.Fatalf("deletecollection answer %v", out)
	}
	final := int64(c.srv.Store().Rev())
	if final != rv+3 {
		t.Fatalf("rev %d, want %d (one write per object)", final, rv+3)
	}
	var got []string
	for _, ev := range s.until(t, final, false) {
		got = append(got, fmt.Sprintf("%s:%s@%d", ev.Type, nameOf(ev.Object), ev.rv()-rv))
	}
	if want := "DELETED:cm0@1 DELETED:cm2@2 DELETED:cm3@3"; strings.Join(got, " ") != want {
		t.Errorf("events %v, want %s", got, want)
	}
	left := c.mustDo(200, "GET", cmPath, nil)
	if items := itemsOf(left); len(items) != 1 || nameOf(items[0]) != "cm1" {
		t.Errorf("left %v", items)
	}
}

func TestWatchSendInitialEvents(t *testing.T) {
	c := newTestClient(t, Options{})
	createN(c, 3, "cm")
	rv := int64(c.srv.Store().Rev())
	s := c.watch(cmPath + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=")
	var got []string
	for i := 0; i < 4; i++ {
		ev, ok := s.next(2 * time.Second)
		if !ok {
			t.Fatalf("after %v: stream ended", got)
		}
		got = append(got, ev.Type+":"+nameOf(ev.Object))
		if ev.Type == "BOOKMARK" {
			md := ev.Object["metadata"].(map[string]any)
			ann, _ := md["annotations"].(map[string]any)
			if ev.rv() != rv || ann["k8s.io/initial-events-end"] != "true" {
				t.Errorf("bookmark %v", ev.Object)
			}
		}
	}
	if want := "ADDED:cm000 ADDED:cm001 ADDED:cm002 BOOKMARK:"; strings.Join(got, " ") != want {
		t.Errorf("events %v, want %s", got, want)
	}
}
