package batch_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// The wanted errors are kube-apiserver v1.37.2's for the same objects
// (reference/validation checks the two agree on generated corpora).

func job(spec string) string {
	return `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j","namespace":"d"},"spec":` + spec + `}`
}

func cronJob(spec string) string {
	return `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c","namespace":"d"},"spec":` + spec + `}`
}

func TestValidateJob(t *testing.T) {
	valid := job(`{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`)
	vtest.Run(t, "batch", "jobs", []vtest.Case{
		{Name: "valid: the selector is generated", Obj: valid},
		{Name: "restart policy required", Obj: job(`{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			`spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`}},
		{Name: "negative counts", Obj: job(`{"parallelism":-1,"backoffLimit":-3,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			"spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
			"spec.backoffLimit: Invalid value: -3: must be greater than or equal to 0"}},
		{Name: "generated label overridden", Obj: job(`{"template":{"metadata":{"labels":{"job-name":"other"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`), Want: []string{
			`spec.template.metadata.labels[job-name]: Invalid value: {"batch.kubernetes.io/controller-uid":"0c1f5f1e-8f0b-4c44-9c53-3e7e0e4f2a10","batch.kubernetes.io/job-name":"j","controller-uid":"0c1f5f1e-8f0b-4c44-9c53-3e7e0e4f2a10","job-name":"other"}: must be 'j'`}},
		{Name: "completions are immutable", Obj: job(`{"parallelism":3,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`), Old: valid, Want: []string{
			"spec.completions: Invalid value: null: field is immutable"}},
		{Name: "parallelism may change", Obj: job(`{"parallelism":3,"completions":1,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}`), Old: valid},
	})
}

// TestJobTemplateUpdate: validatePodTemplateUpdate with v1.37's default
// gates; the bad value is the internal Go value as encoding/json prints
// it (core/gotypes; reference/gotypes compares it with the real types).
func TestJobTemplateUpdate(t *testing.T) {
	tmpl := func(image, extra string) string {
		return `{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"` + image + `"` + extra + `}]}}`
	}
	running := job(`{"template":` + tmpl("x", "") + `}`)
	suspended := `{"suspend":true,"template":` + tmpl("x", "") + `}`
	resources := `,"resources":{"limits":{"cpu":"1"}}`
	vtest.Run(t, "batch", "jobs", []vtest.Case{
		{Name: "a running Job's template is immutable", Obj: job(`{"template":` + tmpl("y", "") + `}`), Old: running, Want: []string{
			`spec.template: Invalid value: ` + wantTemplate("y") + `: field is immutable`}},
		{Name: "a suspended Job that never started may change resources and scheduling directives",
			Obj: job(`{"suspend":true,"template":{"metadata":{"labels":{"a":"b"}},"spec":{"restartPolicy":"Never","nodeSelector":{"k":"v"},"containers":[{"name":"c","image":"x"` + resources + `}]}}}`),
			Old: job(suspended), OldStatus: `{}`},
		{Name: "but not its image, judged on the pod spec", Obj: job(`{"suspend":true,"template":` + tmpl("y", "") + `}`), Old: job(suspended), OldStatus: `{}`, Want: []string{
			`spec.template.spec: Invalid value: ` + wantSpec("y") + `: field is immutable`}},
		{Name: "a suspended Job that started is immutable", Obj: job(`{"suspend":true,"template":` + tmpl("x", resources) + `}`),
			Old: job(suspended), OldStatus: `{"startTime":"2026-01-01T00:00:00Z"}`, Want: []string{
				`spec.template: Invalid value: ` + wantTemplate("x", `"Resources":{"Limits":{"cpu":"1"},"Requests":null,"Claims":null}`) + `: field is immutable`}},
		{Name: "unless its Suspended condition is true", Obj: job(`{"suspend":true,"template":` + tmpl("x", resources) + `}`),
			Old: job(suspended), OldStatus: `{"startTime":"2026-01-01T00:00:00Z","conditions":[{"type":"Suspended","status":"True"}]}`},
		{Name: "and it has no active Pods", Obj: job(`{"suspend":true,"template":` + tmpl("x", resources) + `}`),
			Old: job(suspended), OldStatus: `{"active":1,"conditions":[{"type":"Suspended","status":"True"}]}`, Want: []string{
				`spec.template: Invalid value: ` + wantTemplate("x", `"Resources":{"Limits":{"cpu":"1"},"Requests":null,"Claims":null}`) + `: field is immutable`}},
	})
}

func TestValidateCronJob(t *testing.T) {
	vtest.Run(t, "batch", "cronjobs", []vtest.Case{
		{Name: "valid", Obj: cronJob(`{"schedule":"*/5 * * * *","timeZone":"Etc/UTC","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"x"}]}}}}}`)},
		{Name: "schedule, zone, policy", Obj: cronJob(`{"schedule":"61 * * * *","timeZone":"-bad","concurrencyPolicy":"Sometimes","jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}}}`), Want: []string{
			`spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61`,
			`spec.timeZone: Invalid value: "-bad": unknown time zone -bad`,
			`spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`,
			`spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`}},
		{Name: "fields in the wrong place", Obj: cronJob(`{"schedule":"TZ=UTC 0 * * * *","jobTemplate":{"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}}`), Want: []string{
			`spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`,
			"spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated"}},
		{Name: "four fields", Obj: cronJob(`{"schedule":"* * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}}}`), Want: []string{
			`spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]`}},
	})
}

// wantSpec is the internal core.PodSpec of the tests' templates (one
// container c of image, defaulted, labels added by the Job's defaulting)
// as encoding/json prints it; resources replaces the container's empty
// Resources.
func wantSpec(image string, resources ...string) string {
	r := `"Resources":{"Limits":null,"Requests":null,"Claims":null}`
	if len(resources) > 0 {
		r = resources[0]
	}
	return `{"Volumes":null,"InitContainers":null,"Containers":[{"Name":"c","Image":"` + image + `","Command":null,"Args":null,"WorkingDir":"","Ports":null,"EnvFrom":null,"Env":null,` + r +
		`,"ResizePolicy":null,"RestartPolicy":null,"RestartPolicyRules":null,"VolumeMounts":null,"VolumeDevices":null,"LivenessProbe":null,"ReadinessProbe":null,"StartupProbe":null,"Lifecycle":null,"TerminationMessagePath":"/dev/termination-log","TerminationMessagePolicy":"File","ImagePullPolicy":"Always","SecurityContext":null,"Stdin":false,"StdinOnce":false,"TTY":false}],"EphemeralContainers":null,"RestartPolicy":"Never","TerminationGracePeriodSeconds":30,"ActiveDeadlineSeconds":null,"DNSPolicy":"ClusterFirst","NodeSelector":null,"ServiceAccountName":"","DeprecatedServiceAccount":"","AutomountServiceAccountToken":null,"NodeName":"","HostNetwork":false,"HostPID":false,"HostIPC":false,"ShareProcessNamespace":null,"SecurityContext":{"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"SupplementalGroups":null,"SupplementalGroupsPolicy":null,"FSGroup":null,"Sysctls":null,"FSGroupChangePolicy":null,"SeccompProfile":null,"AppArmorProfile":null,"SELinuxChangePolicy":null},"ImagePullSecrets":null,"Hostname":"","Subdomain":"","Affinity":null,"SchedulerName":"default-scheduler","Tolerations":null,"HostAliases":null,"PriorityClassName":"","Priority":null,"DNSConfig":null,"ReadinessGates":null,"RuntimeClassName":null,"EnableServiceLinks":null,"PreemptionPolicy":null,"Overhead":null,"TopologySpreadConstraints":null,"SetHostnameAsFQDN":null,"OS":null,"HostUsers":null,"SchedulingGates":null,"ResourceClaims":null,"Resources":null,"HostnameOverride":null,"SchedulingGroup":null,"EvictionResponders":null}`
}

func wantTemplate(image string, resources ...string) string {
	return `{"labels":{"batch.kubernetes.io/controller-uid":"0c1f5f1e-8f0b-4c44-9c53-3e7e0e4f2a10","batch.kubernetes.io/job-name":"j","controller-uid":"0c1f5f1e-8f0b-4c44-9c53-3e7e0e4f2a10","job-name":"j"},"Spec":` + wantSpec(image, resources...) + `}`
}
