package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// core/v1 Events as the real control plane answers them (bi-events and
// curl against it).
func TestValidateEvent(t *testing.T) {
	ev := func(ns, rest string) string {
		return `{"apiVersion":"v1","kind":"Event","metadata":{"name":"e","namespace":"` + ns + `"},` + rest + `}`
	}
	const qn = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	vtest.Run(t, "", "events", []vtest.Case{
		{Name: "about a pod of its namespace", Obj: ev("team", `"involvedObject":{"kind":"Pod","name":"web","namespace":"team"},"reason":"Started","type":"Fancy"`)},
		{Name: "about a pod elsewhere", Obj: ev("team", `"involvedObject":{"kind":"Pod","name":"web","namespace":"elsewhere"},"reason":"Started"`), Want: []string{
			`involvedObject.namespace: Invalid value: "elsewhere": does not match event.namespace`}},
		{Name: "about a Node, in default", Obj: ev("default", `"involvedObject":{"kind":"Node","name":"n"}`)},
		{Name: "about a Node, in team", Obj: ev("team", `"involvedObject":{"kind":"Node","name":"n"}`), Want: []string{
			`involvedObject.namespace: Invalid value: "": does not match event.namespace`}},
		{Name: "with eventTime, little else", Obj: ev("kube-public", `"eventTime":"2026-01-01T00:00:00.000000Z","involvedObject":{"kind":"Node","name":"n"},"reportingComponent":"Bad Name"`), Want: []string{
			`involvedObject.namespace: Invalid value: "": does not match event.namespace`,
			`reportingComponent: Invalid value: "Bad Name": ` + qn,
			"reportingInstance: Required value",
			"action: Required value",
			"reason: Required value"}},
	})
}
