// Package kubectl holds what the browser build (cmd/wasm) and the native
// comparison (native_test.go) share: the kubeconfig kubectl is given.
// Upstream kubectl is used as it is (see overlay/ for the four js/wasm
// stand-ins).
package kubectl

import "fmt"

// Kubeconfig is a kubeconfig for the kubesandbox API at server, namespace
// default, no credentials, e.g. Kubeconfig("http://localhost:8080/sandbox/ex1").
func Kubeconfig(server string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kubesandbox
  cluster:
    server: %q
contexts:
- name: kubesandbox
  context:
    cluster: kubesandbox
    namespace: default
    user: kubesandbox
current-context: kubesandbox
users:
- name: kubesandbox
  user: {}
`, server)
}
