package corev1_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
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

// events.k8s.io/v1 Events: the strict rules of ValidateEventCreate /
// ValidateEventUpdate, with the internal (core/v1) field paths the real
// server reports (bi-events step 6 and the reference's texts).
func TestValidateEventsV1(t *testing.T) {
	const qn = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	const ok = `"eventTime":"2026-01-01T00:00:05.000000Z","reportingController":"example.com/c","reportingInstance":"c-1","action":"Pull","reason":"Pulled","type":"Normal","regarding":{"kind":"Pod","name":"web","namespace":"team"}`
	ev := func(rest string) string {
		return `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e","namespace":"team","resourceVersion":"1"},` + rest + `}`
	}
	vtest.Run(t, "events.k8s.io", "events", []vtest.Case{
		{Name: "valid", Obj: ev(ok)},
		{Name: "no eventTime", Obj: ev(`"regarding":{"kind":"Pod","name":"web","namespace":"team"},"reason":"Pulled","type":"Normal"`), Want: []string{
			"eventTime: Required value"}},
		{Name: "legacy rules under the events.k8s.io names", Obj: ev(`"eventTime":"2026-01-01T00:00:05.000000Z","type":"Fine","note":"` + strings.Repeat("x", 1025) + `"`), Want: []string{
			`involvedObject.namespace: Invalid value: "": does not match event.namespace`,
			"reportingController: Required value",
			`reportingController: Invalid value: "": name part must be non-empty`,
			`reportingController: Invalid value: "": ` + qn,
			"reportingInstance: Required value",
			"action: Required value",
			"reason: Required value",
			`message: Invalid value: "": can have at most 1024 characters`,
			`type: Invalid value: "": has invalid value: Fine`}},
		{Name: "deprecated fields set, a short series", Obj: ev(ok + `,"deprecatedCount":2,"deprecatedSource":{"host":"h"},"deprecatedFirstTimestamp":"2026-01-01T00:00:00Z","series":{"count":1}`), Want: []string{
			`series.count: Invalid value: "": should be at least 2`,
			"series.lastObservedTime: Required value",
			`firstTimestamp: Invalid value: "": needs to be unset`,
			`count: Invalid value: "": needs to be unset`,
			`source: Invalid value: "": needs to be unset`}},
		{Name: "update: what may not change", Old: ev(ok + `,"note":"a"`), Obj: ev(strings.NewReplacer("Pull\"", "Push\"", "c-1", "c-2", `"name":"web"`, `"name":"db"`).Replace(ok) + `,"note":"b","series":{"count":2,"lastObservedTime":"2026-01-01T00:00:06.000000Z"}`), Want: []string{
			`involvedObject: Invalid value: {"Kind":"Pod","Namespace":"team","Name":"db","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}: field is immutable`,
			`message: Invalid value: "b": field is immutable`,
			`action: Invalid value: "Push": field is immutable`,
			`reportingInstance: Invalid value: "c-2": field is immutable`}},
		{Name: "update: eventTime within the microsecond", Old: ev(ok), Obj: ev(strings.Replace(ok, "05.000000Z", "05.0000001Z", 1))},
	})
}

// The field mapping of the one stored Event (Convert_v1_Event_To_core_Event
// and back): a round trip gives the object back, with what each encoding
// always writes.
func TestEventConversion(t *testing.T) {
	v1 := map[string]any{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": map[string]any{"name": "e"},
		"regarding": map[string]any{"name": "web"}, "note": "n", "deprecatedCount": int64(2), "reportingController": "c",
		"deprecatedSource": map[string]any{"host": "h"}, "deprecatedFirstTimestamp": "t1", "deprecatedLastTimestamp": nil, "eventTime": nil}
	core := corev1.EventToCore(v1)
	want := `{"apiVersion":"v1","count":2,"eventTime":null,"firstTimestamp":"t1","involvedObject":{"name":"web"},"kind":"Event","lastTimestamp":null,"message":"n","metadata":{"name":"e"},"reportingComponent":"c","reportingInstance":"","source":{"host":"h"}}`
	if b, _ := json.Marshal(core); string(b) != want {
		t.Errorf("to core:\n got %s\nwant %s", b, want)
	}
	back, _ := json.Marshal(corev1.EventFromCore(core))
	if orig, _ := json.Marshal(v1); string(back) != string(orig) {
		t.Errorf("round trip:\n got %s\nwant %s", back, orig)
	}
}
