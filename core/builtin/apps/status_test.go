package apps_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// Status updates as the real control plane answers them
// (tests/conformance bi-deployment, bi-replicaset-statefulset, bi-daemonset).
func TestValidateStatus(t *testing.T) {
	withStatus := func(kind, spec, status string) string {
		return `{"apiVersion":"apps/v1","kind":"` + kind + `","metadata":{"name":"o","namespace":"d"},"spec":` + spec + `,"status":` + status + `}`
	}
	rs := `{"replicas":2,"selector":{"matchLabels":{"app":"a"}},` + tmplOK + `}`
	sts := `{"replicas":1,"serviceName":"s","selector":{"matchLabels":{"app":"a"}},` + tmplOK + `}`
	ds := `{"selector":{"matchLabels":{"app":"a"}},` + tmplOK + `}`
	for _, k := range []struct {
		plural string
		cases  []vtest.Case
	}{
		{"deployments", []vtest.Case{
			{Name: "counts within replicas", Obj: withStatus("Deployment", rs, `{"replicas":2,"readyReplicas":2,"availableReplicas":1}`), Old: withStatus("Deployment", rs, `{}`)},
			{Name: "negative replicas below the other counts", Obj: withStatus("Deployment", rs, `{"replicas":-1,"updatedReplicas":1}`), Old: withStatus("Deployment", rs, `{}`), Want: []string{
				"status.replicas: Invalid value: -1: must be greater than or equal to 0",
				"status.updatedReplicas: Invalid value: 1: cannot be greater than status.replicas",
				"status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas",
				"status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas"}},
		}},
		{"replicasets", []vtest.Case{
			{Name: "more ready than existing", Obj: withStatus("ReplicaSet", rs, `{"availableReplicas":6,"readyReplicas":5}`), Old: withStatus("ReplicaSet", rs, `{}`), Want: []string{
				"status.readyReplicas: Invalid value: 5: cannot be greater than status.replicas",
				"status.availableReplicas: Invalid value: 6: cannot be greater than status.replicas",
				"status.availableReplicas: Invalid value: 6: cannot be greater than readyReplicas"}},
		}},
		{"statefulsets", []vtest.Case{
			{Name: "available above ready", Obj: withStatus("StatefulSet", sts, `{"replicas":2,"readyReplicas":1,"availableReplicas":2}`), Old: withStatus("StatefulSet", sts, `{}`), Want: []string{
				"status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas"}},
		}},
		{"daemonsets", []vtest.Case{
			{Name: "negative count", Obj: withStatus("DaemonSet", ds, `{"numberReady":-1}`), Old: withStatus("DaemonSet", ds, `{}`), Want: []string{
				"status.numberReady: Invalid value: -1: must be greater than or equal to 0"}},
			{Name: "a create does not check status", Obj: withStatus("DaemonSet", ds, `{"numberReady":-1}`)},
		}},
	} {
		t.Run(k.plural, func(t *testing.T) { vtest.Run(t, "apps", k.plural, k.cases) })
	}
}
