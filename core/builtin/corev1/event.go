package corev1

import (
	"encoding/json"
	"fmt"
	"time"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateEvent is ValidateEventCreate / ValidateEventUpdate for a core/v1
// Event: legacyValidateEvent only (the v1 API keeps the old rules; the
// strict ones are events.k8s.io/v1's, ValidateEventsV1). An Event without
// eventTime must be in its involved object's namespace (or "default" when
// that is empty); one with eventTime needs reportingComponent,
// reportingInstance, action and reason within their lengths.
func ValidateEvent(obj, _ map[string]any) field.ErrorList {
	return legacyValidateEvent(obj, "reportingComponent")
}

// ValidateEventsV1 is ValidateEventCreate / ValidateEventUpdate for an
// events.k8s.io/v1 Event. The real code validates the internal (core)
// Event, so the paths are core/v1's (message, involvedObject.namespace,
// firstTimestamp...) but for reportingController. On create: the legacy
// rules, the metadata, series, eventTime, type, and no deprecated field;
// on update: every field but series and metadata is immutable. Example,
// {"regarding":{...},"reason":"Pulled","type":"Normal"} → eventTime:
// Required value.
func ValidateEventsV1(obj, old map[string]any) field.ErrorList {
	ev := EventToCore(obj)
	errs := legacyValidateEvent(ev, "reportingController")
	meta := field.NewPath("metadata")
	if old == nil {
		errs = append(errs, validation.ValidateObjectMeta(Obj(ev, "metadata"), true, validation.NameIsDNSSubdomain, meta)...)
		errs = append(errs, validateEventSeries(ev)...)
		if Str(ev, "eventTime") == "" {
			errs = append(errs, field.Required(field.NewPath("eventTime"), ""))
		}
		if t := Str(ev, "type"); t != "Normal" && t != "Warning" {
			errs = append(errs, field.Invalid(field.NewPath("type"), "", "has invalid value: "+t))
		}
		for _, k := range []string{"firstTimestamp", "lastTimestamp"} {
			if Str(ev, k) != "" {
				errs = append(errs, field.Invalid(field.NewPath(k), "", "needs to be unset"))
			}
		}
		if Int(ev, "count") != 0 {
			errs = append(errs, field.Invalid(field.NewPath("count"), "", "needs to be unset"))
		}
		if src := Obj(ev, "source"); Str(src, "component") != "" || Str(src, "host") != "" {
			errs = append(errs, field.Invalid(field.NewPath("source"), "", "needs to be unset"))
		}
		return errs
	}
	prev := EventToCore(old)
	errs = append(errs, validation.ValidateObjectMetaUpdate(Obj(ev, "metadata"), Obj(prev, "metadata"), meta)...)
	if !SemanticEqual(ev["series"], prev["series"]) {
		errs = append(errs, validateEventSeries(ev)...)
	}
	immutable := func(k string, v, was json.RawMessage) {
		if string(v) != string(was) {
			errs = append(errs, field.Invalid(field.NewPath(k), v, FieldImmutableErrorMsg))
		}
	}
	str := func(k string, path ...string) {
		if Str(ev, k) != Str(prev, k) {
			errs = append(errs, field.Invalid(field.NewPath(append(path, k)[0]), Str(ev, k), FieldImmutableErrorMsg))
		}
	}
	immutable("involvedObject", goObjectRef(Obj(ev, "involvedObject")), goObjectRef(Obj(prev, "involvedObject")))
	str("reason")
	str("message")
	src, psrc := Obj(ev, "source"), Obj(prev, "source")
	immutable("source", goJSON("Component", Str(src, "component"), "Host", Str(src, "host")), goJSON("Component", Str(psrc, "component"), "Host", Str(psrc, "host")))
	immutable("firstTimestamp", eventTime(ev, "firstTimestamp", time.Second), eventTime(prev, "firstTimestamp", time.Second))
	immutable("lastTimestamp", eventTime(ev, "lastTimestamp", time.Second), eventTime(prev, "lastTimestamp", time.Second))
	if Int(ev, "count") != Int(prev, "count") {
		errs = append(errs, field.Invalid(field.NewPath("count"), Int(ev, "count"), FieldImmutableErrorMsg))
	}
	str("reason")
	str("type")
	immutable("eventTime", eventTime(ev, "eventTime", time.Microsecond), eventTime(prev, "eventTime", time.Microsecond))
	str("action")
	immutable("related", goObjectRefPtr(ev["related"]), goObjectRefPtr(prev["related"]))
	str("reportingComponent", "reportingController")
	str("reportingInstance")
	return errs
}

// legacyValidateEvent is the real legacyValidateEvent on a core/v1-shaped
// Event; rc names the reporting controller's field in the request's API.
func legacyValidateEvent(obj map[string]any, rc string) field.ErrorList {
	var errs field.ErrorList
	ns := Str(Obj(obj, "metadata"), "namespace")
	ionsPath := field.NewPath("involvedObject", "namespace")
	ions := Str(Obj(obj, "involvedObject"), "namespace")
	if Str(obj, "eventTime") == "" {
		if ions == "" {
			if ns != "" && ns != "default" {
				errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
			}
		} else if ns != ions {
			errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
		}
		return errs
	}
	if ions == "" && ns != "default" && ns != "kube-system" {
		errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
	}
	rcv := Str(obj, "reportingComponent")
	rcPath := field.NewPath(rc)
	if rcv == "" {
		errs = append(errs, field.Required(rcPath, ""))
	}
	for _, m := range validation.IsQualifiedName(rcv) {
		errs = append(errs, field.Invalid(rcPath, rcv, m))
	}
	limit := func(name string, n int, required bool) {
		v := Str(obj, name)
		if required && v == "" {
			errs = append(errs, field.Required(field.NewPath(name), ""))
		}
		if len(v) > n {
			errs = append(errs, field.Invalid(field.NewPath(name), "", fmt.Sprintf("can have at most %d characters", n)))
		}
	}
	limit("reportingInstance", 128, true)
	limit("action", 128, true)
	limit("reason", 128, true)
	limit("message", 1024, false)
	return errs
}

func validateEventSeries(ev map[string]any) field.ErrorList {
	s, ok := ev["series"].(map[string]any)
	if !ok {
		return nil
	}
	var errs field.ErrorList
	if Int(s, "count") < 2 {
		errs = append(errs, field.Invalid(field.NewPath("series.count"), "", "should be at least 2"))
	}
	if Str(s, "lastObservedTime") == "" {
		errs = append(errs, field.Required(field.NewPath("series.lastObservedTime"), ""))
	}
	return errs
}

// goJSON renders an internal struct of string fields as the real field
// errors print it (Go field names, every field): goJSON("Component", "kubelet",
// "Host", "") is {"Component":"kubelet","Host":""}.
func goJSON(kv ...string) json.RawMessage {
	b := []byte{'{'}
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%q:%s", kv[i], field.FormatValue(kv[i+1]))
	}
	return append(b, '}')
}

func goObjectRef(r map[string]any) json.RawMessage {
	return goJSON("Kind", Str(r, "kind"), "Namespace", Str(r, "namespace"), "Name", Str(r, "name"), "UID", Str(r, "uid"),
		"APIVersion", Str(r, "apiVersion"), "ResourceVersion", Str(r, "resourceVersion"), "FieldPath", Str(r, "fieldPath"))
}

func goObjectRefPtr(v any) json.RawMessage {
	if r, ok := v.(map[string]any); ok {
		return goObjectRef(r)
	}
	return json.RawMessage("null")
}

// eventTime renders a timestamp as metav1.Time (precision time.Second) or
// MicroTime (time.Microsecond) encode it: null when unset, else UTC.
func eventTime(obj map[string]any, k string, precision time.Duration) json.RawMessage {
	s := Str(obj, k)
	if s == "" {
		return json.RawMessage("null")
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return json.RawMessage(field.FormatValue(s))
	}
	layout := time.RFC3339
	if precision == time.Microsecond {
		layout = "2006-01-02T15:04:05.000000Z07:00"
	}
	return json.RawMessage(field.FormatValue(t.UTC().Truncate(precision).Format(layout)))
}

// eventRenames are the fields events.k8s.io/v1 names differently from
// core/v1 (Convert_v1_Event_To_core_Event).
var eventRenames = [...][2]string{
	{"regarding", "involvedObject"}, {"note", "message"}, {"deprecatedSource", "source"},
	{"deprecatedFirstTimestamp", "firstTimestamp"}, {"deprecatedLastTimestamp", "lastTimestamp"},
	{"deprecatedCount", "count"}, {"reportingController", "reportingComponent"},
}

// EventToCore is an events.k8s.io/v1 Event as core/v1 stores it (and
// serves it): regarding → involvedObject, note → message, deprecated* →
// source, firstTimestamp, lastTimestamp, count, reportingController →
// reportingComponent; with the fields core/v1's encoding always writes.
func EventToCore(obj map[string]any) map[string]any {
	out := convertEvent(obj, "v1", 0, 1)
	for _, k := range []string{"firstTimestamp", "lastTimestamp", "eventTime"} {
		setIfMissing(out, k, nil)
	}
	setIfMissing(out, "involvedObject", map[string]any{})
	setIfMissing(out, "source", map[string]any{})
	setIfMissing(out, "reportingComponent", "")
	setIfMissing(out, "reportingInstance", "")
	return out
}

// EventFromCore is a stored core/v1 Event as events.k8s.io/v1 serves it.
func EventFromCore(obj map[string]any) map[string]any {
	out := convertEvent(obj, "events.k8s.io/v1", 1, 0)
	for _, k := range []string{"deprecatedFirstTimestamp", "deprecatedLastTimestamp", "eventTime"} {
		setIfMissing(out, k, nil)
	}
	setIfMissing(out, "regarding", map[string]any{})
	setIfMissing(out, "deprecatedSource", map[string]any{})
	for _, k := range []string{"reportingController", "reportingInstance"} {
		if Str(out, k) == "" {
			delete(out, k)
		}
	}
	return out
}

func convertEvent(in map[string]any, apiVersion string, from, to int) map[string]any {
	out := make(map[string]any, len(in)+2)
	for k, v := range in {
		out[k] = v
	}
	for _, r := range eventRenames {
		delete(out, r[to])
		if v, ok := in[r[from]]; ok {
			delete(out, r[from])
			out[r[to]] = v
		}
	}
	out["apiVersion"], out["kind"] = apiVersion, "Event"
	for _, k := range []string{"count", "deprecatedCount"} { // omitempty int32
		if n, ok := AsInt(out[k]); ok && n == 0 {
			delete(out, k)
		}
	}
	return out
}

func setIfMissing(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}
