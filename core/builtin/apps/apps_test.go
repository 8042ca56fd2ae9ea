package apps_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// The wanted errors are kube-apiserver v1.37.2's for the same objects
// (reference/validation checks the two agree on generated corpora).

const tmplOK = `"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"x"}]}}`

func obj(kind, spec string) string {
	return `{"apiVersion":"apps/v1","kind":"` + kind + `","metadata":{"name":"o","namespace":"d"},"spec":` + spec + `}`
}

func TestValidateDeployment(t *testing.T) {
	valid := obj("Deployment", `{"replicas":2,"selector":{"matchLabels":{"app":"a"}},`+tmplOK+`}`)
	vtest.Run(t, "apps", "deployments", []vtest.Case{
		{Name: "valid", Obj: valid},
		{Name: "selector does not match", Obj: obj("Deployment", `{"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"b"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			"spec.template.metadata.labels: Invalid value: {\"app\":\"b\"}: `selector` does not match template `labels`"}},
		{Name: "no selector, bad strategy and restart policy", Obj: obj("Deployment", `{"replicas":-1,"strategy":{"type":"Blue"},"template":{"metadata":{"labels":{"app":"b"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
			"spec.selector: Required value",
			"spec.template.metadata.labels: Invalid value: {\"app\":\"b\"}: `selector` does not match template `labels`",
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`,
			`spec.strategy: Unsupported value: {"Type":"Blue","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`}},
		{Name: "selector operator and rolling update", Obj: obj("Deployment", `{"selector":{"matchExpressions":[{"key":"tier","operator":"Near","values":["a"]}]},"strategy":{"rollingUpdate":{"maxUnavailable":0,"maxSurge":0}},`+tmplOK+`}`), Want: []string{
			`spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`,
			`spec.selector: Invalid value: {"matchExpressions":[{"key":"tier","operator":"Near","values":["a"]}]}: invalid label selector`,
			"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{Name: "selector is immutable", Obj: obj("Deployment", `{"selector":{"matchLabels":{"app":"a","x":"y"}},"template":{"metadata":{"labels":{"app":"a","x":"y"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`), Old: valid, Want: []string{
			`spec.selector: Invalid value: {"matchLabels":{"app":"a","x":"y"}}: field is immutable`}},
		{Name: "template may change", Obj: obj("Deployment", `{"replicas":5,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"y"}]}}}`), Old: valid},
	})
}

func TestValidateReplicaSet(t *testing.T) {
	vtest.Run(t, "apps", "replicasets", []vtest.Case{
		{Name: "valid", Obj: obj("ReplicaSet", `{"selector":{"matchLabels":{"app":"a"}},`+tmplOK+`}`)},
		{Name: "replicas and labels", Obj: obj("ReplicaSet", `{"replicas":-2,"selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			"spec.replicas: Invalid value: -2: must be greater than or equal to 0",
			"spec.template.metadata.labels: Invalid value: {\"app\":\"x\"}: `selector` does not match template `labels`"}},
	})
}

func TestValidateStatefulSet(t *testing.T) {
	vtest.Run(t, "apps", "statefulsets", []vtest.Case{
		{Name: "valid, claim templates are volumes", Obj: obj("StatefulSet", `{"serviceName":"web","selector":{"matchLabels":{"app":"a"}},"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"x","volumeMounts":[{"name":"www","mountPath":"/w"}]}]}},"volumeClaimTemplates":[{"metadata":{"name":"www"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}`)},
		{Name: "policy and service name", Obj: obj("StatefulSet", `{"podManagementPolicy":"Random","serviceName":"Bad_Name","selector":{"matchLabels":{"app":"a"}},`+tmplOK+`}`), Want: []string{
			`spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
			`spec.serviceName: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`}},
	})
}

func TestValidateDaemonSet(t *testing.T) {
	vtest.Run(t, "apps", "daemonsets", []vtest.Case{
		{Name: "valid", Obj: obj("DaemonSet", `{"selector":{"matchLabels":{"app":"a"}},`+tmplOK+`}`)},
		{Name: "empty selector, surge and unavailable", Obj: obj("DaemonSet", `{"selector":{},"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":1}},`+tmplOK+`}`), Want: []string{
			"spec.selector: Invalid value: {}: empty selector is invalid for daemonset",
			"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"}},
	})
}
