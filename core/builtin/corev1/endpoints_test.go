package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateEndpoints(t *testing.T) {
	ep := func(subsets string) string {
		return `{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"e","namespace":"default","resourceVersion":"1"},"subsets":` + subsets + `}`
	}
	vtest.Run(t, "", "endpoints", []vtest.Case{
		{Name: "a pod address, port defaulted to TCP", Obj: ep(`[{"addresses":[{"ip":"10.244.0.5"}],"ports":[{"port":80}]}]`)},
		{Name: "loopback, unnamed ports", Obj: ep(`[{"addresses":[{"ip":"127.0.0.1"}],"ports":[{"port":80},{"port":81}]}]`), Want: []string{
			`subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
			"subsets[0].ports[0].name: Required value",
			"subsets[0].ports[1].name: Required value"}},
		{Name: "stored bad subsets may stay", Old: ep(`[{"addresses":[{"ip":"127.0.0.1"}]}]`), Obj: ep(`[{"addresses":[{"ip":"127.0.0.1"}]}]`)},
	})
}
