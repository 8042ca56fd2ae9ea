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
