package crd_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
)

// BenchmarkCreateWithRules creates custom resources through the handler of
// two servers in turn, one whose CRD has the CEL rules and one whose CRD is
// the same without them, and reports the time of each create and their
// ratio (rules/none): what evaluating the rules costs a create. The
// creates alternate so that the machine's load weighs on both alike; the
// engine compiles once per CRD version (cached), so the ratio is the
// evaluation.
func BenchmarkCreateWithRules(b *testing.B) {
	servers := map[bool]http.Handler{}
	for _, rules := range []bool{false, true} {
		api := apiserver.New(apiserver.Options{CEL: engine.New()})
		defer api.Close()
		if code := post(api, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD(rules)); code != 201 {
			b.Fatalf("CRD create: %d", code)
		}
		servers[rules] = api
	}
	var spent [2]time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w%d"},"spec":{"replicas":1,"maxReplicas":3,"id":"x"}}`, i)
		for k, rules := range []bool{false, true} {
			start := time.Now()
			if code := post(servers[rules], widgets, body); code != 201 {
				b.Fatalf("create: %d", code)
			}
			spent[k] += time.Since(start)
		}
	}
	none, rules := float64(spent[0].Nanoseconds())/float64(b.N), float64(spent[1].Nanoseconds())/float64(b.N)
	b.ReportMetric(none, "ns/create-none")
	b.ReportMetric(rules, "ns/create-rules")
	b.ReportMetric(rules/none, "rules/none")
}

func post(h http.Handler, path, body string) int {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}
