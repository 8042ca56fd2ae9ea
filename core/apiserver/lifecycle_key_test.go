package apiserver

import "testing"

func TestKeyNamespace(t *testing.T) {
	for key, want := range map[string]string{
		"/core/configmaps/demo/conf":      "demo",
		"/apps/deployments/kube-system/x": "kube-system",
		"/core/namespaces/demo":           "",
		"/core/nodes/worker":              "",
	} {
		t.Run(key, func(t *testing.T) {
			if got := keyNamespace(key); got != want {
				t.Errorf("keyNamespace(%q) = %q, want %q", key, got, want)
			}
		})
	}
}
