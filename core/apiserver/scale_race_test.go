package apiserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A PATCH of the scale subresource carries no resourceVersion, so a write
// to the object between the handler's read and its write (a controller
// updating the Deployment's status) must not make it a 409: kube-apiserver
// applies the patch to the object as stored at each try. The browser's
// cluster tests met this 409 (kubectl scale beside the Deployment
// controller).
func TestScalePatchBesideStatusWrites(t *testing.T) {
	s := New(Options{})
	const d = "/apis/apps/v1/namespaces/default/deployments"
	mustDo(t, s, 201, "POST", d, "application/json", `{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}}`)
	const n = 300
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the "controller": status writes without a resourceVersion
		defer wg.Done()
		for i := 0; i < n; i++ {
			req := httptest.NewRequest("PATCH", d+"/web/status", strings.NewReader(fmt.Sprintf(`{"status":{"observedGeneration":%d}}`, i)))
			req.Header.Set("Content-Type", "application/merge-patch+json")
			s.ServeHTTP(httptest.NewRecorder(), req)
		}
	}()
	for _, ct := range []string{"application/merge-patch+json", "application/json-patch+json"} {
		t.Run(ct, func(t *testing.T) {
			for i := 0; i < n/2; i++ {
				body := fmt.Sprintf(`{"spec":{"replicas":%d}}`, i%5)
				if ct == "application/json-patch+json" {
					body = fmt.Sprintf(`[{"op":"replace","path":"/spec/replicas","value":%d}]`, i%5)
				}
				req := httptest.NewRequest("PATCH", d+"/web/scale", strings.NewReader(body))
				req.Header.Set("Content-Type", ct)
				w := httptest.NewRecorder()
				s.ServeHTTP(w, req)
				if w.Code != 200 {
					t.Fatalf("scale patch %d: %d %s", i, w.Code, w.Body.String())
				}
			}
		})
	}
	wg.Wait()
	// a patch that names a stale resourceVersion still conflicts, as on the real server
	mustDo(t, s, 409, "PATCH", d+"/web/scale", "application/merge-patch+json", `{"metadata":{"resourceVersion":"1"},"spec":{"replicas":2}}`)
}
