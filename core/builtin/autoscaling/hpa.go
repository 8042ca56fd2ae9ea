// Package autoscaling validates and defaults autoscaling/v2
// HorizontalPodAutoscalers as kube-apiserver v1.37.2 does
// (k8s.io/kubernetes pkg/apis/autoscaling/{v2,validation} and
// pkg/registry/autoscaling/horizontalpodautoscaler), over decoded JSON.
// Feature gates are at their v1.37 defaults: HPAScaleToZero off,
// HPAConfigurableTolerance on (GA), HPAGeneration on.
package autoscaling

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

const (
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

// PrepareHPACreate is the strategy's PrepareForCreate: an empty status,
// which autoscaling/v2 writes with the fields its Go type never omits
// (currentMetrics null, desiredReplicas 0).
func PrepareHPACreate(obj map[string]any) {
	obj["status"] = map[string]any{"currentMetrics": nil, "desiredReplicas": int64(0)}
}

// DefaultHPA is SetDefaults_HorizontalPodAutoscaler: minReplicas 1, a CPU
// utilization target of 80% when no metric is given, and behavior rules
// filled from the defaults rule by rule.
func DefaultHPA(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	if spec["minReplicas"] == nil {
		spec["minReplicas"] = int64(1)
	}
	if len(List(spec, "metrics")) == 0 {
		spec["metrics"] = []any{map[string]any{"type": "Resource", "resource": map[string]any{
			"name": "cpu", "target": map[string]any{"type": "Utilization", "averageUtilization": int64(80)}}}}
	}
	b := Obj(spec, "behavior")
	if b == nil {
		return
	}
	up := map[string]any{"stabilizationWindowSeconds": int64(0), "selectPolicy": "Max", "policies": []any{
		map[string]any{"type": "Pods", "value": int64(4), "periodSeconds": int64(15)},
		map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)}}}
	down := map[string]any{"selectPolicy": "Max", "policies": []any{
		map[string]any{"type": "Percent", "value": int64(100), "periodSeconds": int64(15)}}}
	b["scaleUp"] = mergeRules(Obj(b, "scaleUp"), up)
	b["scaleDown"] = mergeRules(Obj(b, "scaleDown"), down)
}

// mergeRules is copyHPAScalingRules: what from sets wins.
func mergeRules(from, to map[string]any) map[string]any {
	for _, k := range []string{"selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"} {
		if from != nil && from[k] != nil {
			to[k] = from[k]
		}
	}
	return to
}

type refOpts struct{ allowEmptyGroup, allowInvalidVersion bool }

// ValidateHPA is ValidateHorizontalPodAutoscaler(Update) with the
// strategy's validationOptionsForHorizontalPodAutoscaler.
func ValidateHPA(obj, old map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	target, metrics := refOpts{}, refOpts{allowEmptyGroup: true}
	ref := Obj(spec, "scaleTargetRef")
	if old != nil {
		os := Obj(old, "spec")
		oref := Obj(os, "scaleTargetRef")
		for _, m := range Objs(os, "metrics") {
			if Str(m, "type") == "Object" && Has(m, "object") {
				if apiVersionErr(Obj(Obj(m, "object"), "describedObject"), metrics) != "" {
					metrics.allowInvalidVersion = true
					break
				}
			}
		}
		if Str(oref, "apiVersion") == Str(ref, "apiVersion") && Str(oref, "kind") == Str(ref, "kind") {
			target.allowInvalidVersion = true
		} else if Str(ref, "kind") == "ReplicationController" {
			target.allowEmptyGroup = true
		}
	} else if Str(ref, "kind") == "ReplicationController" {
		target.allowEmptyGroup = true
	}
	p := field.NewPath("spec")
	var errs field.ErrorList
	minR, hasMin := IntOK(spec, "minReplicas")
	hasMin = hasMin && Has(spec, "minReplicas")
	maxR := Int(spec, "maxReplicas")
	// the handwritten minReplicas and maxReplicas bounds are covered by
	// the declarative validation: its causes come last (declarative below)
	if hasMin && maxR < minR {
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), maxR, "must be greater than or equal to `minReplicas`"))
	}
	errs = append(errs, validateRef(ref, p.Child("scaleTargetRef"), target)...)
	errs = append(errs, validateMetrics(spec, p.Child("metrics"), metrics)...)
	if b := Obj(spec, "behavior"); Has(spec, "behavior") {
		for _, k := range []string{"scaleUp", "scaleDown"} {
			if Has(b, k) {
				errs = append(errs, validateRules(Obj(b, k), p.Child("behavior", k))...)
			}
		}
	}
	if old != nil {
		errs = append(errs, validateHPAStatus(Obj(obj, "status"))...)
	}
	return append(dedup(errs), declarative(spec, Obj(old, "spec"), old != nil)...)
}

// declarative is the strategy's declarative validation of the spec
// (v1.37: HPAScaleToZero on, beta rules enforced): minReplicas at least 0,
// maxReplicas required and at least 1, each left alone by an update that
// keeps its value. rest.ValidateDeclarativelyWithMigrationChecks appends
// these after the handwritten causes it did not replace.
func declarative(spec, old map[string]any, update bool) field.ErrorList {
	p := field.NewPath("spec")
	var errs field.ErrorList
	if v, ok := IntOK(spec, "minReplicas"); ok && Has(spec, "minReplicas") && v < 0 {
		if ov, ook := IntOK(old, "minReplicas"); !update || !ook || !Has(old, "minReplicas") || ov != v {
			errs = append(errs, field.Invalid(p.Child("minReplicas"), v, "must be greater than or equal to 0"))
		}
	}
	if v := Int(spec, "maxReplicas"); v < 1 && (!update || Int(old, "maxReplicas") != v) {
		if v == 0 {
			errs = append(errs, field.Required(p.Child("maxReplicas"), ""))
		} else {
			errs = append(errs, field.Invalid(p.Child("maxReplicas"), v, "must be greater than or equal to 1"))
		}
	}
	return errs
}

// dedup drops repeated causes: the declarative merge filters the list
// through an aggregate, which keeps one of each message.
func dedup(errs field.ErrorList) field.ErrorList {
	seen := map[string]bool{}
	var out field.ErrorList
	for _, e := range errs {
		if k := e.Error(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// validateHPAStatus is ValidateHorizontalPodAutoscalerStatusUpdate beyond
// metadata, on every update (a write of the main resource keeps the stored
// status).
func validateHPAStatus(st map[string]any) field.ErrorList {
	var errs field.ErrorList
	sp := field.NewPath("status")
	for i, c := range Objs(st, "conditions") {
		if g, ok := IntOK(c, "observedGeneration"); ok {
			errs = append(errs, NonNegative(g, sp.Child("conditions").Index(i).Child("observedGeneration"))...)
		}
	}
	errs = append(errs, NonNegative(Int(st, "currentReplicas"), sp.Child("currentReplicas"))...)
	return append(errs, NonNegative(Int(st, "desiredReplicas"), sp.Child("desiredReplicas"))...)
}

// apiVersionErr is ValidateAPIVersion's error text ("" when valid).
func apiVersionErr(ref map[string]any, o refOpts) string {
	if o.allowInvalidVersion {
		return ""
	}
	v := Str(ref, "apiVersion")
	group := ""
	if v != "" && v != "/" {
		switch strings.Count(v, "/") {
		case 0:
		case 1:
			group = v[:strings.Index(v, "/")]
		default:
			return "unexpected GroupVersion string: " + v
		}
	}
	if !o.allowEmptyGroup && group == "" {
		return "apiVersion must specify API group"
	}
	return ""
}

// validateRef is ValidateCrossVersionObjectReference.
func validateRef(ref map[string]any, p *field.Path, o refOpts) field.ErrorList {
	var errs field.ErrorList
	for _, k := range []string{"kind", "name"} {
		v := Str(ref, k)
		if v == "" {
			errs = append(errs, field.Required(p.Child(k), ""))
			continue
		}
		for _, m := range validation.IsPathSegmentName(v) {
			errs = append(errs, field.Invalid(p.Child(k), v, m))
		}
	}
	if e := apiVersionErr(ref, o); e != "" {
		errs = append(errs, field.Invalid(p.Child("apiVersion"), Str(ref, "apiVersion"), e))
	}
	return errs
}

var sourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

func validateMetrics(spec map[string]any, p *field.Path, o refOpts) field.ErrorList {
	var errs field.ErrorList
	hasObjOrExt := false
	for i, m := range Objs(spec, "metrics") {
		errs = append(errs, validateMetricSpec(m, p.Index(i), o)...)
		if t := Str(m, "type"); t == "Object" || t == "External" {
			hasObjOrExt = true
		}
	}
	if v, ok := IntOK(spec, "minReplicas"); ok && Has(spec, "minReplicas") && v == 0 && !hasObjOrExt {
		errs = append(errs, field.Forbidden(p, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

// metricKeys are the metric source fields in the order validateMetricSpec
// looks at them.
var metricKeys = []string{"object", "external", "pods", "resource", "containerResource"}

func validateMetricSpec(m map[string]any, p *field.Path, o refOpts) field.ErrorList {
	var errs field.ErrorList
	t := Str(m, "type")
	if t == "" {
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric source type"))
	}
	known := false
	for _, s := range sourceTypes {
		known = known || s == t
	}
	if !known {
		errs = append(errs, field.NotSupported(p.Child("type"), t, sourceTypes))
	}
	var present []string
	for _, k := range metricKeys {
		if !Has(m, k) {
			continue
		}
		present = append(present, k)
		if len(present) > 1 {
			continue
		}
		src, sp := Obj(m, k), p.Child(k)
		switch k {
		case "object":
			errs = append(errs, validateObject(src, sp, o)...)
		case "external":
			errs = append(errs, validateExternal(src, sp)...)
		case "pods":
			errs = append(errs, validatePods(src, sp)...)
		case "resource":
			errs = append(errs, validateResource(src, sp, false)...)
		case "containerResource":
			errs = append(errs, validateResource(src, sp, true)...)
		}
	}
	expected := ""
	if known {
		expected = strings.ToLower(t[:1]) + t[1:]
		if !Has(m, expected) {
			errs = append(errs, field.Required(p.Child(expected), "must populate information for the given metric source"))
		}
	} else {
		errs = append(errs, field.NotSupported(p.Child("type"), t, sourceTypes))
	}
	if len(present) != 1 {
		// the real server ranges over a set (random order); sorted here
		for _, k := range sortedStrings(present) {
			if k != expected {
				errs = append(errs, field.Forbidden(p.Child(k), "must populate the given metric source only"))
			}
		}
	}
	return errs
}

func sortedStrings(l []string) []string {
	m := map[string]bool{}
	for _, s := range l {
		m[s] = true
	}
	return Keys(m)
}

func validateObject(src map[string]any, p *field.Path, o refOpts) field.ErrorList {
	errs := validateRef(Obj(src, "describedObject"), p.Child("describedObject"), o)
	errs = append(errs, validateIdentifier(Obj(src, "metric"), p.Child("metric"))...)
	tgt := Obj(src, "target")
	errs = append(errs, validateTarget(tgt, p.Child("target"))...)
	if !Has(tgt, "value") && !Has(tgt, "averageValue") {
		errs = append(errs, field.Required(p.Child("target", "averageValue"), "must set either a target value or averageValue"))
	}
	return errs
}

func validateExternal(src map[string]any, p *field.Path) field.ErrorList {
	errs := validateIdentifier(Obj(src, "metric"), p.Child("metric"))
	tgt := Obj(src, "target")
	errs = append(errs, validateTarget(tgt, p.Child("target"))...)
	if !Has(tgt, "value") && !Has(tgt, "averageValue") {
		errs = append(errs, field.Required(p.Child("target", "averageValue"), "must set either a target value for metric or a per-pod target"))
	}
	if Has(tgt, "value") && Has(tgt, "averageValue") {
		errs = append(errs, field.Forbidden(p.Child("target", "value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func validatePods(src map[string]any, p *field.Path) field.ErrorList {
	errs := validateIdentifier(Obj(src, "metric"), p.Child("metric"))
	tgt := Obj(src, "target")
	errs = append(errs, validateTarget(tgt, p.Child("target"))...)
	if !Has(tgt, "averageValue") {
		errs = append(errs, field.Required(p.Child("target", "averageValue"), "must specify a positive target averageValue"))
	}
	return errs
}

func validateResource(src map[string]any, p *field.Path, container bool) field.ErrorList {
	var errs field.ErrorList
	if n := Str(src, "name"); n == "" {
		errs = append(errs, field.Required(p.Child("name"), "must specify a resource name"))
	} else if container {
		errs = append(errs, corev1.ValidateContainerResourceName(n, p.Child("name"))...)
	}
	if container {
		if c := Str(src, "container"); c == "" {
			errs = append(errs, field.Required(p.Child("container"), "must specify a container"))
		} else {
			for _, m := range validation.IsDNS1123Label(c) {
				errs = append(errs, field.Invalid(p.Child("container"), c, m))
			}
		}
	}
	tgt := Obj(src, "target")
	errs = append(errs, validateTarget(tgt, p.Child("target"))...)
	if !Has(tgt, "averageUtilization") && !Has(tgt, "averageValue") {
		errs = append(errs, field.Required(p.Child("target", "averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if Has(tgt, "averageUtilization") && Has(tgt, "averageValue") {
		errs = append(errs, field.Forbidden(p.Child("target", "averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateTarget(t map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	typ := Str(t, "type")
	if typ == "" {
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric target type"))
	}
	if typ != "Utilization" && typ != "Value" && typ != "AverageValue" {
		errs = append(errs, field.Invalid(p.Child("type"), typ, "must be either Utilization, Value, or AverageValue"))
	}
	for _, k := range []string{"value", "averageValue"} {
		if Has(t, k) {
			if q, ok := ParseQuantity(t[k]); ok && q.Sign() != 1 {
				errs = append(errs, field.Invalid(p.Child(k), q.String(), "must be positive"))
			}
		}
	}
	if v, ok := IntOK(t, "averageUtilization"); ok && Has(t, "averageUtilization") && v < 1 {
		errs = append(errs, field.Invalid(p.Child("averageUtilization"), v, "must be greater than 0"))
	}
	return errs
}

func validateIdentifier(id map[string]any, p *field.Path) field.ErrorList {
	n := Str(id, "name")
	if n == "" {
		return field.ErrorList{field.Required(p.Child("name"), "must specify a metric name")}
	}
	var errs field.ErrorList
	for _, m := range validation.IsPathSegmentName(n) {
		errs = append(errs, field.Invalid(p.Child("name"), n, m))
	}
	return errs
}

func validateRules(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v, ok := IntOK(r, "stabilizationWindowSeconds"); ok && Has(r, "stabilizationWindowSeconds") {
		if v < 0 {
			errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), v, "must be greater than or equal to zero"))
		}
		if v > maxStabilizationWindowSeconds {
			errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), v, "must be less than or equal to 3600"))
		}
	}
	if Has(r, "selectPolicy") {
		if sp := Str(r, "selectPolicy"); sp != "Max" && sp != "Min" && sp != "Disabled" {
			errs = append(errs, field.NotSupported(p.Child("selectPolicy"), sp, []string{"Disabled", "Max", "Min"}))
		}
	}
	pols := Objs(r, "policies")
	if len(pols) == 0 {
		errs = append(errs, field.Required(p.Child("policies"), "must specify at least one Policy"))
	}
	for i, pol := range pols {
		pp := p.Child("policies").Index(i)
		if t := Str(pol, "type"); t != "Pods" && t != "Percent" {
			errs = append(errs, field.NotSupported(pp.Child("type"), t, []string{"Percent", "Pods"}))
		}
		if v := Int(pol, "value"); v <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), v, "must be greater than zero"))
		}
		ps := Int(pol, "periodSeconds")
		if ps <= 0 {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), ps, "must be greater than zero"))
		}
		if ps > maxPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), ps, "must be less than or equal to 1800"))
		}
	}
	if Has(r, "tolerance") {
		if q, ok := ParseQuantity(r["tolerance"]); ok && q.Sign() < 0 {
			errs = append(errs, field.Invalid(p.Child("tolerance"), q.String(), IsNegativeErrorMsg))
		}
	}
	return errs
}
