package corev1

import (
	"encoding/json"
	"slices"
	"testing"
)

// The wanted texts are kube-apiserver v1.37.2's Warning headers for the
// same objects (tests/conformance/transcripts/bi-docs-manifests.json, and
// the oracle for the cases it does not hold).
func TestPodWarnings(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  string
		want []string
	}{
		{"no warnings", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"app","image":"nginx"}]}}`, nil},
		{"annotations, node label, env, fractional memory",
			`{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/app":"localhost/deny-write","seccomp.security.alpha.kubernetes.io/pod":"runtime/default"}},
			  "spec":{"nodeSelector":{"beta.kubernetes.io/os":"linux"},"containers":[{"name":"app","image":"busybox",
			  "securityContext":{"appArmorProfile":{"type":"Localhost","localhostProfile":"deny-write"}},
			  "env":[{"name":"A","value":"1"},{"name":"A","value":"2"},{"name":"B","value":"x"},{"name":"B","value":"$(B)y"}],
			  "resources":{"requests":{"memory":"100m"}}}]}}`,
			[]string{
				`metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead`,
				`spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
				`metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead`,
				`spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer`,
				`spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply`,
			}},
		{"a seccomp annotation beside the field is silent",
			`{"metadata":{"annotations":{"seccomp.security.alpha.kubernetes.io/pod":"runtime/default"}},"spec":{"securityContext":{"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"name":"app","image":"x"}]}}`, nil},
		{"gitRepo volume, null topology selector, duplicate host alias",
			`{"spec":{"containers":[{"name":"app","image":"x"}],"volumes":[{"name":"g","gitRepo":{"repository":"r"}}],
			  "topologySpreadConstraints":[{"topologyKey":"failure-domain.beta.kubernetes.io/zone","maxSkew":1,"whenUnsatisfiable":"DoNotSchedule"}],
			  "hostAliases":[{"ip":"10.0.0.1"},{"ip":"10.0.0.1"}]}}`,
			[]string{
				`spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
				`spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod`,
				`spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+`,
				`spec.hostAliases[1].ip: duplicate ip "10.0.0.1"`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pod map[string]any
			if err := json.Unmarshal([]byte(tc.pod), &pod); err != nil {
				t.Fatal(err)
			}
			if got := PodWarnings(pod, nil); !slices.Equal(got, tc.want) {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestWorkloadWarnings(t *testing.T) {
	const dep = `{"metadata":{"name":"web.v1","generation":1},"spec":{"template":{
		"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/app":"runtime/default"}},
		"spec":{"terminationGracePeriodSeconds":-1,"containers":[
		  {"name":"app","image":"nginx","ports":[{"containerPort":80,"name":"http","protocol":"TCP"}]},
		  {"name":"side","image":"nginx","ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":8080,"name":"http","protocol":"TCP"}]}]}}}}`
	want := []string{
		"metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
		`spec.template.metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead`,
		"spec.template.spec.containers[1].ports[0]: duplicate port definition with spec.template.spec.containers[0].ports[0]",
		`spec.template.spec.containers[1].ports[1]: duplicate port name "http" with spec.template.spec.containers[0].ports[0], services and probes that select ports by name will use spec.template.spec.containers[0].ports[0]`,
		"spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1",
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(dep), &obj); err != nil {
		t.Fatal(err)
	}
	warn := WorkloadWarnings(true, false, "spec", "template")
	for _, tc := range []struct {
		name string
		old  map[string]any
		want []string
	}{
		{"create", nil, want},
		{"update, same generation", obj, nil},
		{"update, new generation", map[string]any{"metadata": map[string]any{"generation": int64(0)}}, want[1:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := warn(obj, tc.old); !slices.Equal(got, tc.want) {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
