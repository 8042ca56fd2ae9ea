package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// The causes are kube-apiserver v1.37.2's, in its order (the transcript
// tests/conformance/transcripts/bi-replicationcontroller.json keeps them
// sorted): the
// declaratively validated fields (metadata.name, spec.replicas,
// spec.minReadySeconds) come last.
func TestValidateReplicationController(t *testing.T) {
	rc := func(name, spec string) string {
		return `{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"` + name + `","namespace":"default","resourceVersion":"1"},"spec":` + spec + `}`
	}
	const tmpl = `"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`
	vtest.Run(t, "", "replicationcontrollers", []vtest.Case{
		{Name: "selector and labels defaulted from the template", Obj: rc("web", `{`+tmpl+`}`)},
		{Name: "no selector, no template", Obj: rc("web", `{"replicas":1}`), Want: []string{
			"spec.selector: Required value", "spec.template: Required value"}},
		{Name: "declarative causes last", Obj: rc("bad_name", `{"replicas":-1,"minReadySeconds":-2,"selector":{"app":"b"},`+tmpl+`}`), Want: []string{
			"spec.template.metadata.labels: Invalid value: {\"app\":\"a\"}: `selector` does not match template `labels`",
			`metadata.name: Invalid value: "bad_name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			"spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0"}},
		{Name: "pods must restart Always and have no deadline", Obj: rc("web", `{"template":{"metadata":{"labels":{"app":"a"}},"spec":{"restartPolicy":"Never","activeDeadlineSeconds":5,"containers":[{"name":"c","image":"nginx"}]}}}`), Want: []string{
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
			"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported"}},
		{Name: "the selector may change", Old: rc("web", `{`+tmpl+`}`), Obj: rc("web", `{"selector":{"app":"a"},"template":{"metadata":{"labels":{"app":"a","v":"2"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}`)},
		{Name: "status counts", Old: rc("web", `{`+tmpl+`}`),
			Obj: rc("web", `{`+tmpl+`},"status":{"replicas":1,"readyReplicas":5,"availableReplicas":6,"observedGeneration":-1}`), Want: []string{
				"status.observedGeneration: Invalid value: -1: must be greater than or equal to 0",
				"status.readyReplicas: Invalid value: 5: cannot be greater than status.replicas",
				"status.availableReplicas: Invalid value: 6: cannot be greater than status.replicas",
				"status.availableReplicas: Invalid value: 6: cannot be greater than readyReplicas"}},
	})
}
