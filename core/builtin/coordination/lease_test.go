package coordination_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateLease(t *testing.T) {
	lease := func(spec string) string {
		return `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"l","namespace":"default"},"spec":` + spec + `}`
	}
	vtest.Run(t, "coordination.k8s.io", "leases", []vtest.Case{
		{Name: "held", Obj: lease(`{"holderIdentity":"a","leaseDurationSeconds":15}`)},
		{Name: "bad numbers", Obj: lease(`{"leaseDurationSeconds":0,"leaseTransitions":-1}`), Want: []string{
			"spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
			"spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"}},
		{Name: "strategy dropped (coordinated leader election is off)", Obj: lease(`{"strategy":"Newest","preferredHolder":"b"}`)},
	})
}
