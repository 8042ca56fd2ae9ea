package apiserver

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
)

// Lists of 2,000 ~1 KiB ConfigMaps in JSON and in protobuf, as
// tests/loadcmp's "list 2000" paths ask for them (docs/bench.md "Native:
// throughput and server CPU per request"): the per-object cost of a list
// answered from the stored bytes and the kept protobuf messages.

var (
	list2000Once   sync.Once
	list2000Server *Server
)

func list2000(b *testing.B) *Server {
	list2000Once.Do(func() {
		s := New(Options{})
		for i := 0; i < 2000; i++ {
			serve(b, s, "POST", cmPath, benchBody(i), 201)
		}
		list2000Server = s
	})
	return list2000Server
}

func benchList2000(b *testing.B, accept string) {
	s := list2000(b)
	get := func() *discardWriter {
		req := httptest.NewRequest("GET", cmPath, nil)
		req.Header.Set("Accept", accept)
		w := &discardWriter{h: http.Header{}}
		s.ServeHTTP(w, req)
		if w.code != 200 {
			b.Fatalf("list: %d", w.code)
		}
		return w
	}
	get() // the kept encodings are made
	b.ReportAllocs()
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.SetBytes(int64(get().n))
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// processCPU is the process's user+system CPU time in ns (the garbage
// collector's included): on a loaded machine, wall time per op is not
// the server's cost.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkList2000JSON(b *testing.B)     { benchList2000(b, mediaJSON) }
func BenchmarkList2000Protobuf(b *testing.B) { benchList2000(b, mediaProtobuf) }

// discardWriter counts a response's bytes and keeps none (a recorder's
// growing buffer would be most of a big list's cost here).
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(200)
	w.n += len(p)
	return len(p), nil
}

// BenchmarkCreateCPU: BenchmarkCreate's creates with the process's CPU
// per create (cpu-ns/op) and allocations, for before/after comparisons
// on a loaded machine.
func BenchmarkCreateCPU(b *testing.B) {
	s := New(Options{})
	bodies := make([][]byte, b.N)
	for i := range bodies {
		bodies[i] = benchBody(i)
	}
	b.ReportAllocs()
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		serve(b, s, "POST", cmPath, bodies[i], 201)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}
