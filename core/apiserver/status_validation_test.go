package apiserver

import (
	"strings"
	"testing"
)

// Status writes answer the status strategies' checks
// (ValidateIngressStatusUpdate, ValidateHorizontalPodAutoscalerStatusUpdate,
// ValidatePodDisruptionBudgetStatusUpdate,
// ValidatePersistentVolumeClaimStatusUpdate) with kube-apiserver's causes,
// and store nothing; a valid status is stored.
func TestStatusWriteValidation(t *testing.T) {
	const reasonMsg = `a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`
	for _, c := range []struct {
		name, path, obj, good, bad string
		want                       []string
	}{
		{"ingress", "/apis/networking.k8s.io/v1/namespaces/default/ingresses",
			`{"metadata":{"name":"x"},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}`,
			`{"status":{"loadBalancer":{"ingress":[{"ip":"10.0.0.1","hostname":"lb.example.com"}]}}}`,
			`{"status":{"loadBalancer":{"ingress":[{"ip":"010.0.0.1"},{"hostname":"10.0.0.2"}]}}}`,
			[]string{`status.loadBalancer.ingress[0].ip: Invalid value: "010.0.0.1": must not have leading 0s`,
				`status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.2": must be a DNS name, not an IP address`}},
		{"hpa", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
			`{"metadata":{"name":"x"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":3}}`,
			`{"status":{"currentReplicas":1,"desiredReplicas":2}}`,
			`{"status":{"currentReplicas":-1,"desiredReplicas":-2}}`,
			[]string{`status.currentReplicas: Invalid value: -1: must be greater than or equal to 0`,
				`status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0`}},
		{"pdb", "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
			`{"metadata":{"name":"x"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`,
			`{"status":{"disruptionsAllowed":1,"currentHealthy":2,"desiredHealthy":1,"expectedPods":2,"conditions":[{"type":"DisruptionAllowed","status":"True","reason":"SufficientPods","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}`,
			`{"status":{"disruptionsAllowed":-1,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0,"conditions":[{"type":"DisruptionAllowed","status":"Maybe","reason":"bad reason!"}]}}`,
			[]string{`status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"`,
				`status.conditions[0].lastTransitionTime: Required value`,
				`status.conditions[0].reason: Invalid value: "bad reason!": ` + reasonMsg,
				`status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0`}},
		{"pvc", "/api/v1/namespaces/default/persistentvolumeclaims",
			`{"metadata":{"name":"x"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`,
			`{"status":{"phase":"Bound","capacity":{"storage":"1Gi"},"allocatedResources":{"storage":"1Gi"}}}`,
			`{"status":{"capacity":{"storage":"-1Gi"},"allocatedResources":{"cpu":"1"},"allocatedResourceStatuses":{"storage":"Stuck"}}}`,
			[]string{`status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity`,
				`status.allocatedResourceStatuses: Unsupported value: "storage": supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"`,
				`status.allocatedResources: Unsupported value: "cpu": supported values: "storage"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			mustDo(t, s, 201, "POST", c.path, "application/json", c.obj)
			const mp = "application/merge-patch+json"
			code, out := do(t, s, "PATCH", c.path+"/x/status", mp, c.bad)
			if code != 422 {
				t.Fatalf("bad status: %d %v", code, out)
			}
			var got []string
			for _, cause := range out["details"].(map[string]any)["causes"].([]any) {
				m := cause.(map[string]any)
				got = append(got, m["field"].(string)+": "+m["message"].(string))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("causes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			mustDo(t, s, 200, "PATCH", c.path+"/x/status", mp, c.good)
		})
	}
}
