package apiserver

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkNamespaceDelete deletes a namespace holding n ConfigMaps and
// waits until the namespace is gone: the namespace controller's emptying
// pass, and what each deletion it causes sets off. Its cost per object
// should not grow with n (make bench; docs/bench.md).
func BenchmarkNamespaceDelete(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("configmaps=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := New(Options{})
				serve(b, s, "POST", "/api/v1/namespaces", []byte(`{"metadata":{"name":"doomed"}}`), 201)
				for j := 0; j < n; j++ {
					serve(b, s, "POST", "/api/v1/namespaces/doomed/configmaps", benchBody(j), 201)
				}
				b.StartTimer()
				serve(b, s, "DELETE", "/api/v1/namespaces/doomed", nil, 200)
				for deadline := time.Now().Add(time.Minute); ; {
					rec := httptest.NewRecorder()
					s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/namespaces/doomed", nil))
					if rec.Code == 404 {
						break
					}
					if time.Now().After(deadline) {
						b.Fatalf("namespace still there after a minute: %d %s", rec.Code, rec.Body.String())
					}
					time.Sleep(time.Millisecond)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/object")
		})
	}
}
