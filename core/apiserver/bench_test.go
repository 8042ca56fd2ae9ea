package apiserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Benchmarks over 10,000 ConfigMaps of about 1 KiB each (make bench; the
// numbers are in docs/bench.md). Requests go straight to ServeHTTP so the
// figures are the server's, not the loopback network's — except the watch
// fan-out, which needs real streams.

const benchObjects = 10000

// benchBody is a ~1 KiB ConfigMap.
func benchBody(i int) []byte {
	data := map[string]any{}
	for k := 0; k < 8; k++ {
		data[fmt.Sprintf("key-%d", k)] = strings.Repeat(string(rune('a'+k)), 100)
	}
	b, _ := json.Marshal(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": fmt.Sprintf("cm-%05d", i), "labels": map[string]any{"app": "bench", "shard": strconv.Itoa(i % 10)}},
		"data":     data,
	})
	return b
}

// serve sends one request; a body is JSON unless ct names its content type.
func serve(b *testing.B, s *Server, method, target string, body []byte, want int, ct ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if len(ct) > 0 {
		req.Header.Set("Content-Type", ct[0])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s: %d %s", method, target, rec.Code, rec.Body.String())
	}
	return rec
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkCreate: create rate and retained heap per object (objects,
// their history versions and the event window). Run with -benchtime=10000x.
func BenchmarkCreate(b *testing.B) {
	s := New(Options{})
	before := heapAlloc() // the request bodies below are dropped before "after"
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = benchBody(i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		serve(b, s, "POST", cmPath, bodies[i], 201)
	}
	b.StopTimer()
	bodies = nil
	after := heapAlloc()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(float64(int64(after)-int64(before))/float64(b.N), "heapB/object")
	runtime.KeepAlive(s)
}

var (
	benchSeq    int
	benchOnce   sync.Once
	benchServer *Server
	benchItems  []any // the list's items, decoded: the marshal baseline
)

// populated returns a server holding benchObjects ConfigMaps.
func populated(b *testing.B) *Server {
	benchOnce.Do(func() {
		s := New(Options{})
		for i := 0; i < benchObjects; i++ {
			serve(b, s, "POST", cmPath, benchBody(i), 201)
		}
		rec := serve(b, s, "GET", cmPath, nil, 200)
		list, _ := jsonx.DecodeObject(rec.Body.Bytes())
		benchItems, _ = list["items"].([]any)
		if len(benchItems) != benchObjects {
			b.Fatalf("populated %d items", len(benchItems))
		}
		benchServer = s
	})
	return benchServer
}

// marshalBaseline is the time of one json.Marshal of the same items: what
// a list costs at the least.
func marshalBaseline(b *testing.B) time.Duration {
	const n = 3
	start := time.Now()
	for i := 0; i < n; i++ {
		if _, err := json.Marshal(map[string]any{"items": benchItems}); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / n
}

func reportList(b *testing.B, items int, m0 uint64, baseline time.Duration) {
	perOp := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(perOp.Nanoseconds())/float64(items), "ns/item")
	b.ReportMetric(float64(mallocs()-m0)/float64(b.N*items), "allocs/item")
	b.ReportMetric(float64(perOp)/float64(baseline), "x-marshal")
}

// BenchmarkListFull: one unpaged list of all objects.
func BenchmarkListFull(b *testing.B) {
	s := populated(b)
	baseline := marshalBaseline(b)
	b.ReportAllocs()
	m0 := mallocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec := serve(b, s, "GET", cmPath, nil, 200)
		b.SetBytes(int64(rec.Body.Len()))
	}
	b.StopTimer()
	reportList(b, benchObjects, m0, baseline)
}

// BenchmarkListPaged500: the whole collection in pages of 500 (20
// requests per op, following continue).
func BenchmarkListPaged500(b *testing.B) {
	s := populated(b)
	baseline := marshalBaseline(b)
	b.ReportAllocs()
	m0 := mallocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		target, n := cmPath+"?limit=500", 0
		for {
			rec := serve(b, s, "GET", target, nil, 200)
			var page struct {
				Metadata struct {
					Continue string `json:"continue"`
				} `json:"metadata"`
				Items []json.RawMessage `json:"items"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
				b.Fatal(err)
			}
			n += len(page.Items)
			if page.Metadata.Continue == "" {
				break
			}
			target = cmPath + "?limit=500&continue=" + page.Metadata.Continue
		}
		if n != benchObjects {
			b.Fatalf("paged %d items", n)
		}
	}
	b.StopTimer()
	reportList(b, benchObjects, m0, baseline)
}

// BenchmarkListBaselineMarshal: json.Marshal of the same decoded items.
func BenchmarkListBaselineMarshal(b *testing.B) {
	populated(b)
	b.ReportAllocs()
	m0 := mallocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := json.Marshal(map[string]any{"items": benchItems})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
	}
	b.StopTimer()
	perOp := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(perOp.Nanoseconds())/benchObjects, "ns/item")
	b.ReportMetric(float64(mallocs()-m0)/float64(b.N*benchObjects), "allocs/item")
}

// BenchmarkWatchFanout100: one update, 100 HTTP watchers; an op ends when
// every watcher has decoded the event (write → all received).
func BenchmarkWatchFanout100(b *testing.B) {
	const watchers = 100
	s := populated(b)
	ts := httptest.NewServer(s)
	defer ts.Close()
	tr := &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: watchers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	rv := strconv.FormatInt(int64(s.Store().Rev()), 10)
	got := make(chan struct{}, watchers*4)
	var bodies []interface{ Close() error }
	for w := 0; w < watchers; w++ {
		resp, err := client.Get(ts.URL + cmPath + "?watch=1&fieldSelector=metadata.name%3Dcm-00042&resourceVersion=" + rv)
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, resp.Body)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				var ev struct{ Type string }
				if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "MODIFIED" {
					got <- struct{}{}
				}
			}
		}()
	}
	defer func() {
		for _, c := range bodies {
			c.Close()
		}
	}()
	rec := serve(b, s, "GET", cmPath+"/cm-00042", nil, 200)
	obj, _ := jsonx.DecodeObject(rec.Body.Bytes())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchSeq++ // a new value each time: an identical PUT writes nothing
		obj["data"].(map[string]any)["key-0"] = "v" + strconv.Itoa(benchSeq)
		body, _ := jsonx.Marshal(obj)
		rec := serve(b, s, "PUT", cmPath+"/cm-00042", body, 200)
		for w := 0; w < watchers; w++ {
			<-got
		}
		b.StopTimer()
		obj, _ = jsonx.DecodeObject(rec.Body.Bytes())
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/write-to-all")
}

// BenchmarkWatchFanout100Baseline: the same update with nobody watching.
func BenchmarkWatchFanout100Baseline(b *testing.B) {
	s := populated(b)
	rec := serve(b, s, "GET", cmPath+"/cm-00043", nil, 200)
	obj, _ := jsonx.DecodeObject(rec.Body.Bytes())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchSeq++ // a new value each time: an identical PUT writes nothing
		obj["data"].(map[string]any)["key-0"] = "v" + strconv.Itoa(benchSeq)
		body, _ := jsonx.Marshal(obj)
		rec := serve(b, s, "PUT", cmPath+"/cm-00043", body, 200)
		b.StopTimer()
		obj, _ = jsonx.DecodeObject(rec.Body.Bytes())
		b.StartTimer()
	}
}
