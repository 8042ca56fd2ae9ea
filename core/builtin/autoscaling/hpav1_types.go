package autoscaling

import (
	"bytes"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The texts of autoscaling/v1's round-trip annotations are json.Marshal of
// k8s.io/api/autoscaling/v1 types (and of the internal
// HorizontalPodAutoscalerBehavior, whose fields have no json tags), so
// their fields come in struct order with the structs' omitempty rules.
// They are written here from the v2 maps as ordered objects (cheaper in
// the browser build than Go struct shapes), and read back into v2 maps.

type kv struct {
	k string
	v any
}

// ordered is a JSON object whose fields keep their order.
type ordered []kv

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := jsonx.Marshal(f.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := jsonx.Marshal(f.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// opt appends k when v is set (omitempty of a pointer or string).
func (o ordered) opt(k string, v any) ordered {
	if v == nil || v == "" {
		return o
	}
	return append(o, kv{k, v})
}

// qty is a resource.Quantity Go always writes ("0" when unset).
func qty(v any) any {
	if v == nil {
		return "0"
	}
	return v
}

func refV1(r map[string]any) ordered {
	return ordered{{"kind", Str(r, "kind")}, {"name", Str(r, "name")}}.opt("apiVersion", Str(r, "apiVersion"))
}

// selectorV1 is a metav1.LabelSelector (nil when absent).
func selectorV1(m map[string]any, k string) any {
	s, ok := m[k].(map[string]any)
	if !ok {
		return nil
	}
	out := ordered{}
	if ml := Obj(s, "matchLabels"); len(ml) > 0 {
		out = append(out, kv{"matchLabels", ml})
	}
	if me := Objs(s, "matchExpressions"); len(me) > 0 {
		l := make([]any, len(me))
		for i, e := range me {
			r := ordered{{"key", Str(e, "key")}, {"operator", Str(e, "operator")}}
			if v := List(e, "values"); len(v) > 0 {
				r = append(r, kv{"values", v})
			}
			l[i] = r
		}
		out = append(out, kv{"matchExpressions", l})
	}
	return out
}

// metricToV1 is Convert_autoscaling_MetricSpec_To_v1_MetricSpec (status
// false) or ..._MetricStatus_To_v1_MetricStatus (status true).
func metricToV1(m map[string]any, status bool) ordered {
	out := ordered{{"type", Str(m, "type")}}
	val := "target"
	if status {
		val = "current"
	}
	pre := func(name string) string { // targetValue / currentValue
		return val + string(name[0]-'a'+'A') + name[1:]
	}
	if s, ok := m["object"].(map[string]any); ok {
		t, id := Obj(s, val), Obj(s, "metric")
		o := ordered{{"target", refV1(Obj(s, "describedObject"))}, {"metricName", Str(id, "name")}, {pre("value"), qty(t["value"])}}
		out = append(out, kv{"object", o.opt("selector", selectorV1(id, "selector")).opt("averageValue", t["averageValue"])})
	}
	if s, ok := m["pods"].(map[string]any); ok {
		t, id := Obj(s, val), Obj(s, "metric")
		o := ordered{{"metricName", Str(id, "name")}, {pre("averageValue"), qty(t["averageValue"])}}
		out = append(out, kv{"pods", o.opt("selector", selectorV1(id, "selector"))})
	}
	for _, k := range []string{"resource", "containerResource"} {
		s, ok := m[k].(map[string]any)
		if !ok {
			continue
		}
		t := Obj(s, val)
		o := ordered{{"name", Str(s, "name")}}.opt(pre("averageUtilization"), t["averageUtilization"])
		if status {
			o = append(o, kv{pre("averageValue"), qty(t["averageValue"])})
		} else {
			o = o.opt(pre("averageValue"), t["averageValue"])
		}
		if k == "containerResource" {
			o = append(o, kv{"container", Str(s, "container")})
		}
		out = append(out, kv{k, o})
	}
	if s, ok := m["external"].(map[string]any); ok {
		t, id := Obj(s, val), Obj(s, "metric")
		o := ordered{{"metricName", Str(id, "name")}}.opt("metricSelector", selectorV1(id, "selector"))
		if status {
			o = append(o, kv{"currentValue", qty(t["value"])})
		} else {
			o = o.opt("targetValue", t["value"])
		}
		out = append(out, kv{"external", o.opt(pre("averageValue"), t["averageValue"])})
	}
	return out
}

// metricToV2 is Convert_v1_MetricSpec_To_autoscaling_MetricSpec (status
// false) or ..._MetricStatus_To_autoscaling_MetricStatus (status true),
// from a decoded annotation element.
func metricToV2(m map[string]any, status bool) map[string]any {
	out := map[string]any{"type": Str(m, "type")}
	set := func(o map[string]any, k string, v any) {
		if v != nil {
			o[k] = v
		}
	}
	ident := func(s map[string]any, sel string) map[string]any {
		id := map[string]any{"name": Str(s, "metricName")}
		set(id, "selector", s[sel])
		return id
	}
	if s, ok := m["object"].(map[string]any); ok {
		o := map[string]any{"describedObject": Obj(s, "target"), "metric": ident(s, "selector")}
		if status {
			t := map[string]any{"value": qty(s["currentValue"])}
			set(t, "averageValue", s["averageValue"])
			o["current"] = t
		} else {
			t := map[string]any{"type": "Value", "value": qty(s["targetValue"])}
			if av := s["averageValue"]; av != nil {
				t["type"], t["averageValue"] = "AverageValue", av
				if qty(s["targetValue"]) == "0" { // only a non-zero value is kept beside averageValue
					delete(t, "value")
				}
			}
			o["target"] = t
		}
		out["object"] = o
	}
	if s, ok := m["pods"].(map[string]any); ok {
		o := map[string]any{"metric": ident(s, "selector")}
		if status {
			o["current"] = map[string]any{"averageValue": qty(s["currentAverageValue"])}
		} else {
			o["target"] = map[string]any{"type": "AverageValue", "averageValue": qty(s["targetAverageValue"])}
		}
		out["pods"] = o
	}
	for _, k := range []string{"resource", "containerResource"} {
		s, ok := m[k].(map[string]any)
		if !ok {
			continue
		}
		o := map[string]any{"name": Str(s, "name")}
		if k == "containerResource" {
			o["container"] = Str(s, "container")
		}
		if status {
			t := map[string]any{"averageValue": qty(s["currentAverageValue"])}
			set(t, "averageUtilization", s["currentAverageUtilization"])
			o["current"] = t
		} else {
			t := map[string]any{"type": "AverageValue"}
			if u := s["targetAverageUtilization"]; u != nil {
				t["type"], t["averageUtilization"] = "Utilization", u
			}
			set(t, "averageValue", s["targetAverageValue"])
			o["target"] = t
		}
		out[k] = o
	}
	if s, ok := m["external"].(map[string]any); ok {
		o := map[string]any{"metric": ident(s, "metricSelector")}
		if status {
			t := map[string]any{"value": qty(s["currentValue"])}
			set(t, "averageValue", s["currentAverageValue"])
			o["current"] = t
		} else {
			t := map[string]any{"type": "AverageValue"}
			if v := s["targetValue"]; v != nil {
				t["type"], t["value"] = "Value", v
			}
			set(t, "averageValue", s["targetAverageValue"])
			o["target"] = t
		}
		out["external"] = o
	}
	return out
}

// behaviorInternal is json.Marshal of the internal behavior: Go field
// names, nil pointers as null.
func behaviorInternal(b map[string]any) ordered {
	rules := func(k string) any {
		r, ok := b[k].(map[string]any)
		if !ok {
			return nil
		}
		var pols any
		if ps, ok := r["policies"].([]any); ok {
			l := make([]any, len(ps))
			for i, p := range ps {
				pm, _ := p.(map[string]any)
				l[i] = ordered{{"Type", Str(pm, "type")}, {"Value", Int(pm, "value")}, {"PeriodSeconds", Int(pm, "periodSeconds")}}
			}
			pols = l
		}
		return ordered{{"StabilizationWindowSeconds", r["stabilizationWindowSeconds"]}, {"SelectPolicy", r["selectPolicy"]},
			{"Policies", pols}, {"Tolerance", r["tolerance"]}}
	}
	return ordered{{"ScaleUp", rules("scaleUp")}, {"ScaleDown", rules("scaleDown")}}
}

// conditionV1 is a v1 HorizontalPodAutoscalerCondition.
func conditionV1(c map[string]any) ordered {
	return ordered{{"type", Str(c, "type")}, {"status", Str(c, "status")}, {"lastTransitionTime", c["lastTransitionTime"]}}.
		opt("reason", Str(c, "reason")).opt("message", Str(c, "message")).opt("observedGeneration", c["observedGeneration"])
}

// decodeList reads an annotation holding a JSON array of objects; ok is
// false when it does not decode (the conversion then ignores it).
func decodeList(enc any) ([]map[string]any, bool) {
	s, ok := enc.(string)
	if !ok {
		return nil, false
	}
	v, err := jsonx.Decode([]byte(s))
	l, isList := v.([]any)
	if err != nil || (!isList && v != nil) {
		return nil, false
	}
	out := make([]map[string]any, 0, len(l))
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}
