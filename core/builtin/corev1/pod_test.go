package corev1_test

import (
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// The wanted errors are kube-apiserver v1.37.2's for the same objects
// (reference/validation checks the two agree on generated corpora).

const dns1123LabelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

func pod(spec string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"d"},"spec":` + spec + `}`
}

func TestValidatePodCreate(t *testing.T) {
	vtest.Run(t, "", "pods", []vtest.Case{
		{Name: "valid", Obj: pod(`{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80,"name":"http"}],` +
			`"env":[{"name":"A","value":"1"},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],` +
			`"volumeMounts":[{"name":"data","mountPath":"/data"}],"resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1024Mi"}},` +
			`"livenessProbe":{"httpGet":{"path":"/","port":"http"}}}],"volumes":[{"name":"data","emptyDir":{}}]}`)},
		{Name: "no containers", Obj: pod(`{"containers":[]}`), Want: []string{"spec.containers: Required value"}},
		{Name: "containers absent", Obj: pod(`{}`), Want: []string{"spec.containers: Required value"}},
		{Name: "no image", Obj: pod(`{"containers":[{"name":"c"}]}`), Want: []string{"spec.containers[0].image: Required value"}},
		{Name: "no name and no image", Obj: pod(`{"containers":[{}]}`), Want: []string{
			"spec.containers[0].name: Required value", "spec.containers[0].image: Required value"}},
		{Name: "names, ports, duplicates, whitespace", Obj: pod(`{"containers":[{"name":"App_1","image":" x ","ports":[{"containerPort":70000,"hostPort":-1,"name":"HTTP"}]},{"name":"App_1","image":"y"}]}`), Want: []string{
			`spec.containers[0].name: Invalid value: "App_1": ` + dns1123LabelMsg,
			`spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
			`spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain at least one letter (a-z)`,
			`spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
			`spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive`,
			`spec.containers[1].name: Invalid value: "App_1": ` + dns1123LabelMsg,
			`spec.containers[1].name: Duplicate value: "App_1"`,
			`spec.containers[0].image: Invalid value: " x ": must not have leading or trailing whitespace`}},
		{Name: "enums, env, mounts", Obj: pod(`{"restartPolicy":"Sometimes","dnsPolicy":"Google","containers":[{"name":"c","image":"x","imagePullPolicy":"Sometimes","env":[{"name":""},{"name":"A=B"}],"volumeMounts":[{"name":"nope","mountPath":"/a"}]}]}`), Want: []string{
			"spec.containers[0].env[0].name: Required value",
			`spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].volumeMounts[0].name: Not found: "nope"`,
			`spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
			`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			`spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`}},
		{Name: "requests above limits", Obj: pod(`{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":"500m","memory":"1Gi"},"requests":{"cpu":"1","memory":"2Gi"}}}]}`), Want: []string{
			`spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m`,
			`spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`}},
		{Name: "quantities compared by value", Obj: pod(`{"containers":[{"name":"c","image":"x","resources":{"limits":{"memory":"1.5Gi"},"requests":{"memory":"2000Mi"}}}]}`), Want: []string{
			`spec.containers[0].resources.requests: Invalid value: "2000Mi": must be less than or equal to memory limit of 1536Mi`}},
		{Name: "resource names", Obj: pod(`{"containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"-1","gpu":"1","example.com/dongle":"500m"}}}]}`), Want: []string{
			`spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.containers[0].resources.requests[example.com/dongle]: Invalid value: "500m": must be an integer`,
			`spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`,
			`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
			`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`}},
		{Name: "volume sources (none defaults to emptyDir) and probe handlers", Obj: pod(`{"volumes":[{"name":"v"},{"name":"w","emptyDir":{},"hostPath":{"path":"/x"}}],"containers":[{"name":"c","image":"x","livenessProbe":{"httpGet":{"port":0},"exec":{"command":["true"]},"successThreshold":2}}]}`), Want: []string{
			"spec.volumes[1].hostPath: Forbidden: may not specify more than 1 volume type",
			"spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type",
			"spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"}},
		{Name: "init container probes and names", Obj: pod(`{"containers":[{"name":"c","image":"x"}],"initContainers":[{"name":"c","image":"y","livenessProbe":{"exec":{"command":["x"]}}}]}`), Want: []string{
			`spec.initContainers[0].name: Duplicate value: "c"`,
			"spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"}},
		{Name: "os name", Obj: pod(`{"os":{"name":"plan9"},"containers":[{"name":"c","image":"x"}]}`), Want: []string{
			`spec.os: Unsupported value: "plan9": supported values: "linux", "windows"`}},
		{Name: "negative grace period defaults to 1", Obj: pod(`{"terminationGracePeriodSeconds":-1,"containers":[{"name":"c","image":"x"}]}`)},
		{Name: "ephemeral containers on create", Obj: pod(`{"containers":[{"name":"c","image":"x"}],"ephemeralContainers":[{"name":"e","image":"x"}]}`), Want: []string{
			"spec.ephemeralContainers: Forbidden: cannot be set on create"}},
	})
}

func TestValidatePodUpdate(t *testing.T) {
	old := pod(`{"containers":[{"name":"c","image":"nginx:1"}],"activeDeadlineSeconds":100}`)
	vtest.Run(t, "", "pods", []vtest.Case{
		{Name: "unchanged", Obj: old, Old: old},
		{Name: "image may change", Obj: pod(`{"containers":[{"name":"c","image":"nginx:2"}],"activeDeadlineSeconds":100}`), Old: old},
		{Name: "deadline may shrink", Obj: pod(`{"containers":[{"name":"c","image":"nginx:1"}],"activeDeadlineSeconds":50}`), Old: old},
		{Name: "deadline may not grow", Obj: pod(`{"containers":[{"name":"c","image":"nginx:1"}],"activeDeadlineSeconds":200}`), Old: old, Want: []string{
			"spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value"}},
		{Name: "no container may be added", Obj: pod(`{"containers":[{"name":"c","image":"nginx:1"},{"name":"d","image":"x"}],"activeDeadlineSeconds":100}`), Old: old, Want: []string{
			"spec.containers: Forbidden: pod updates may not add or remove containers"}},
	})
	// any other change is forbidden, with a diff of the specs after it
	obj := vtest.Prepared(t, "", "pods", pod(`{"containers":[{"name":"c","image":"nginx:1"}],"activeDeadlineSeconds":100,"restartPolicy":"Never"}`))
	errs := corev1.ValidatePod(obj, vtest.Prepared(t, "", "pods", old))
	if len(errs) != 1 || errs[0].Field != "spec" || !strings.HasPrefix(errs[0].Detail, "pod updates may not change fields other than `spec.containers[*].image`,") ||
		!strings.Contains(errs[0].Detail, "\n@@ ") || !strings.Contains(errs[0].Detail, `+ "restartPolicy": "Never",`) {
		t.Errorf("got %v", errs)
	}
}
