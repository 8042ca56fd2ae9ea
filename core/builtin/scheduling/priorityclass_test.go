package scheduling_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidatePriorityClass(t *testing.T) {
	pc := func(name, rest string) string {
		return `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"` + name + `"},` + rest + `}`
	}
	vtest.Run(t, "scheduling.k8s.io", "priorityclasses", []vtest.Case{
		{Name: "user class", Obj: pc("high", `"value":1000`)},
		{Name: "too high", Obj: pc("high", `"value":1000000001`), Want: []string{
			"value: Forbidden: maximum allowed value of a user defined priority is 1000000000"}},
		{Name: "reserved prefix", Obj: pc("system-mine", `"value":1`), Want: []string{
			"metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"}},
		{Name: "value is immutable", Old: pc("high", `"value":1000`), Obj: pc("high", `"value":2000,"preemptionPolicy":"Never"`), Want: []string{
			"value: Forbidden: may not be changed in an update.",
			`preemptionPolicy: Invalid value: "Never": field is immutable`}},
	})
}
