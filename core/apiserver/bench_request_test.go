package apiserver

import (
	"fmt"
	"testing"
)

// BenchmarkRequest: one request of each common shape, straight into
// ServeHTTP — the Go part of the browser's page → service worker →
// SharedWorker → Go → page path. It exists to compare builds of the same
// code against each other (issue #16: inlining off for a smaller wasm), run
// natively and as js/wasm under Node:
//
//	go test -run '^$' -bench Request ./core/apiserver
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" \
//	    -run '^$' -bench Request ./core/apiserver
//
// Each sub-benchmark's figure is read against the same sub-benchmark in
// the other build, in the same run (docs/bench.md, "wasm size").
func BenchmarkRequest(b *testing.B) {
	const ns = "/api/v1/namespaces/default"
	const deploys = "/apis/apps/v1/namespaces/default/deployments"
	pod := func(name string) []byte {
		return []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `","labels":{"app":"web"}},` +
			`"spec":{"containers":[{"name":"app","image":"nginx:1.27","ports":[{"containerPort":80}],` +
			`"env":[{"name":"A","value":"1"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}`)
	}
	deploy := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":%d,` +
		`"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},` +
		`"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}`

	s := New(Options{})
	serve(b, s, "POST", cmPath, benchBody(0), 201)
	for i := 0; i < 10; i++ {
		serve(b, s, "POST", ns+"/pods", pod(fmt.Sprintf("p%d", i)), 201)
	}
	serve(b, s, "PATCH", deploys+"/web?fieldManager=bench", []byte(fmt.Sprintf(deploy, 1)), 201, "application/apply-patch+yaml")

	b.Run("get-configmap", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			serve(b, s, "GET", cmPath+"/cm-00000", nil, 200)
		}
	})
	b.Run("list-10-pods", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			serve(b, s, "GET", ns+"/pods", nil, 200)
		}
	})
	created := 0 // b.Run calls each function more than once: names go on
	b.Run("create-pod", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			created++
			serve(b, s, "POST", ns+"/pods", pod(fmt.Sprintf("c%d", created)), 201)
		}
	})
	b.Run("merge-patch-configmap", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			serve(b, s, "PATCH", cmPath+"/cm-00000", []byte(fmt.Sprintf(`{"data":{"n":"%d"}}`, i)), 200, "application/merge-patch+json")
		}
	})
	b.Run("apply-deployment", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			serve(b, s, "PATCH", deploys+"/web?fieldManager=bench", []byte(fmt.Sprintf(deploy, i%5+1)), 200, "application/apply-patch+yaml")
		}
	})
	b.Run("new-server", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			New(Options{})
		}
	})
}
