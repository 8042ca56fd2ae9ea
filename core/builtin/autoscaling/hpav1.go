package autoscaling

import (
	"reflect"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// autoscaling/v1 HorizontalPodAutoscalers are a view of the stored
// autoscaling/v2 objects (kube-apiserver stores v2 and converts through
// the internal type: k8s.io/kubernetes pkg/apis/autoscaling/v1
// conversion.go). v1 keeps one CPU utilization target and no status
// metrics or conditions; what it cannot hold travels in annotations.
// Example: the v2 spec.metrics [cpu Utilization 50, memory AverageValue
// 100Mi] reads in v1 as targetCPUUtilizationPercentage 50 and
//
//	autoscaling.alpha.kubernetes.io/metrics: [{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]
const (
	annMetrics       = "autoscaling.alpha.kubernetes.io/metrics"
	annCurrent       = "autoscaling.alpha.kubernetes.io/current-metrics"
	annConditions    = "autoscaling.alpha.kubernetes.io/conditions"
	annBehavior      = "autoscaling.alpha.kubernetes.io/behavior"
	annToleranceUp   = "autoscaling.alpha.kubernetes.io/scale-up-tolerance"
	annToleranceDown = "autoscaling.alpha.kubernetes.io/scale-down-tolerance"
)

var roundTripAnnotations = []string{annMetrics, annBehavior, annToleranceDown, annToleranceUp, annCurrent, annConditions}

// withMeta copies obj's top level and metadata, with annotations copied
// and the round-trip ones dropped (DropRoundTripHorizontalPodAutoscalerAnnotations).
func withMeta(obj map[string]any, apiVersion string) (out, annotations map[string]any) {
	out = make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"] = apiVersion
	md := map[string]any{}
	for k, v := range Obj(obj, "metadata") {
		md[k] = v
	}
	out["metadata"] = md
	annotations = map[string]any{}
	for k, v := range Obj(md, "annotations") {
		annotations[k] = v
	}
	return out, annotations
}

func setAnnotations(out, annotations map[string]any) {
	md := Obj(out, "metadata")
	if len(annotations) == 0 {
		delete(md, "annotations")
		return
	}
	md["annotations"] = annotations
}

// isCPUUtilization: a Resource metric on cpu whose target (or current
// value, with val "current") is a utilization.
func isCPUUtilization(m map[string]any, val string) bool {
	r := Obj(m, "resource")
	return Str(m, "type") == "Resource" && r != nil && Str(r, "name") == "cpu" && Obj(r, val)["averageUtilization"] != nil
}

// HPAToV1 is the View's FromStorage: Convert_autoscaling_HorizontalPodAutoscaler_To_v1.
func HPAToV1(obj map[string]any) map[string]any {
	out, ann := withMeta(obj, "autoscaling/v1")
	for _, k := range roundTripAnnotations {
		delete(ann, k)
	}
	spec, st := Obj(obj, "spec"), Obj(obj, "status")
	s1 := map[string]any{}
	for _, k := range []string{"scaleTargetRef", "minReplicas", "maxReplicas"} {
		if v, ok := spec[k]; ok {
			s1[k] = v
		}
	}
	var others []any
	for _, m := range Objs(spec, "metrics") {
		if isCPUUtilization(m, "target") {
			if _, ok := s1["targetCPUUtilizationPercentage"]; !ok {
				s1["targetCPUUtilizationPercentage"] = Obj(Obj(m, "resource"), "target")["averageUtilization"]
			}
			continue
		}
		others = append(others, metricToV1(m, false))
	}
	out["spec"] = s1
	st1 := map[string]any{"currentReplicas": Int(st, "currentReplicas"), "desiredReplicas": Int(st, "desiredReplicas")}
	for _, k := range []string{"observedGeneration", "lastScaleTime"} {
		if v, ok := st[k]; ok && v != nil {
			st1[k] = v
		}
	}
	var current []any
	for _, m := range Objs(st, "currentMetrics") {
		if isCPUUtilization(m, "current") {
			st1["currentCPUUtilizationPercentage"] = Obj(Obj(m, "resource"), "current")["averageUtilization"]
		}
		current = append(current, metricToV1(m, true))
	}
	out["status"] = st1
	if len(others) > 0 {
		ann[annMetrics] = marshal(others)
	}
	if len(current) > 0 {
		ann[annCurrent] = marshal(current)
	}
	if b, ok := spec["behavior"].(map[string]any); ok {
		ann[annBehavior] = marshal(behaviorInternal(b))
	}
	if conds := Objs(st, "conditions"); len(conds) > 0 {
		l := make([]any, len(conds))
		for i, c := range conds {
			l[i] = conditionV1(c)
		}
		ann[annConditions] = marshal(l)
	}
	setAnnotations(out, ann)
	return out
}

// HPAToV2 is the View's ToStorage: Convert_v1_HorizontalPodAutoscaler_To_autoscaling.
func HPAToV2(obj map[string]any) map[string]any {
	out, ann := withMeta(obj, "autoscaling/v2")
	spec, st := Obj(obj, "spec"), Obj(obj, "status")
	s2 := map[string]any{}
	for _, k := range []string{"scaleTargetRef", "minReplicas", "maxReplicas"} {
		if v, ok := spec[k]; ok {
			s2[k] = v
		}
	}
	var metrics []any
	if others, ok := decodeList(ann[annMetrics]); ok {
		for _, m := range others {
			metrics = append(metrics, metricToV2(m, false))
		}
	}
	if cpu := spec["targetCPUUtilizationPercentage"]; cpu != nil {
		metrics = append(metrics, cpuMetric(cpu))
	}
	if len(metrics) == 0 {
		metrics = []any{cpuMetric(int64(80))} // the v1 implicit default, applied in conversion
	}
	s2["metrics"] = metrics
	if enc, ok := ann[annBehavior].(string); ok {
		if b, err := jsonx.DecodeObject([]byte(enc)); err == nil {
			if v2 := lowerKeys(b).(map[string]any); len(v2) > 0 {
				s2["behavior"] = v2
			}
		}
	}
	out["spec"] = s2
	st2 := map[string]any{"desiredReplicas": Int(st, "desiredReplicas"), "currentMetrics": nil}
	if n := Int(st, "currentReplicas"); n != 0 {
		st2["currentReplicas"] = n
	}
	for _, k := range []string{"observedGeneration", "lastScaleTime"} {
		if v, ok := st[k]; ok && v != nil {
			st2[k] = v
		}
	}
	if cpu := st["currentCPUUtilizationPercentage"]; cpu != nil {
		st2["currentMetrics"] = []any{map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu", "current": map[string]any{"averageUtilization": cpu}}}}
	}
	if cur, ok := decodeList(ann[annCurrent]); ok {
		l := make([]any, len(cur))
		for i, m := range cur {
			l[i] = metricToV2(m, true)
		}
		st2["currentMetrics"] = l
	}
	if cs, ok := decodeList(ann[annConditions]); ok {
		l := make([]any, len(cs))
		for i, c := range cs {
			l[i] = lowerKeys(c) // drops the null lastTransitionTime
		}
		st2["conditions"] = l
	}
	out["status"] = st2
	for _, k := range roundTripAnnotations {
		delete(ann, k)
	}
	setAnnotations(out, ann)
	return out
}

func cpuMetric(utilization any) map[string]any {
	return map[string]any{"type": "Resource", "resource": map[string]any{"name": "cpu",
		"target": map[string]any{"type": "Utilization", "averageUtilization": utilization}}}
}

func marshal(v any) string {
	b, _ := jsonx.Marshal(v)
	return string(b)
}

// lowerKeys turns the internal behavior's JSON (Go field names, nulls)
// into the v2 object: lower-camel keys, nulls left out.
func lowerKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if e != nil {
				out[strings.ToLower(k[:1])+k[1:]] = lowerKeys(e)
			}
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = lowerKeys(e)
		}
	}
	return v
}

// ValidateHPAV1 validates what the v1 object converts to, as kube-apiserver
// validates the internal object (the causes name its fields).
func ValidateHPAV1(obj, old map[string]any) field.ErrorList {
	if old != nil {
		old = HPAToV2(old)
	}
	return ValidateHPA(HPAToV2(obj), old)
}

// DefaultHPAV1 is the v1 SetDefaults_HorizontalPodAutoscaler (minReplicas
// 1), then the object as the server answers it: converted to the stored
// v2 form (which adds the implicit 80% CPU target), defaulted there, and
// back.
func DefaultHPAV1(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		return
	}
	if spec["minReplicas"] == nil {
		spec["minReplicas"] = int64(1)
	}
	v2 := HPAToV2(obj)
	DefaultHPA(v2)
	replace(obj, HPAToV1(v2))
}

// replace makes obj dst's content, keeping obj's metadata map (the server
// holds on to it).
func replace(obj, src map[string]any) {
	md, _ := obj["metadata"].(map[string]any)
	for k := range obj {
		delete(obj, k)
	}
	for k, v := range src {
		obj[k] = v
	}
	if md != nil {
		for k := range md {
			delete(md, k)
		}
		for k, v := range Obj(src, "metadata") {
			md[k] = v
		}
		obj["metadata"] = md
	}
}

// PrepareHPAV1Update is the strategy's PrepareForUpdate seen through v1:
// the status stays the stored one, including what v1 keeps of it in
// annotations (current metrics, conditions), and the generation moves
// when the stored spec changes, though v1's spec may not (a metric held
// in an annotation).
func PrepareHPAV1Update(obj, old map[string]any) {
	ann, oldAnn := Obj(Obj(obj, "metadata"), "annotations"), Obj(Obj(old, "metadata"), "annotations")
	for _, k := range []string{annCurrent, annConditions} {
		v, ok := oldAnn[k]
		switch {
		case ok && ann == nil:
			ann = map[string]any{k: v}
			Obj(obj, "metadata")["annotations"] = ann
		case ok:
			ann[k] = v
		default:
			delete(ann, k)
		}
	}
	if reflect.DeepEqual(obj["spec"], old["spec"]) && !reflect.DeepEqual(HPAToV2(obj)["spec"], HPAToV2(old)["spec"]) {
		md := Obj(obj, "metadata")
		md["generation"] = Int(md, "generation") + 1
	}
}

// PrepareHPAV1Create is PrepareHPACreate as v1 writes the empty status.
func PrepareHPAV1Create(obj map[string]any) {
	obj["status"] = map[string]any{"currentReplicas": int64(0), "desiredReplicas": int64(0)}
}

// HPAV1TableMetadata: a Table row's metadata is the stored object's (the
// real server builds Tables from the internal object), without the
// annotations v1 reads add.
func HPAV1TableMetadata(meta map[string]any) map[string]any {
	if ann := Obj(meta, "annotations"); ann != nil {
		for _, k := range roundTripAnnotations {
			delete(ann, k)
		}
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	return meta
}
