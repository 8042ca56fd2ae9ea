package corev1

import (
	"math"
	"strconv"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// maxMilliValue is resource.MaxMilliValue.
const maxMilliValue = math.MaxInt64 / 1000

// ValidateLimitRange is ValidateLimitRange, which the strategy runs on
// create and update alike: ObjectMeta and no ObjectMetaUpdate, so the kind
// is NoKindMetaChecks and this checks metadata itself.
//
//	limits: [{type: Container, min: {cpu: 2}, max: {cpu: 1}}]
//	→ spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1
func ValidateLimitRange(obj, old map[string]any) field.ErrorList {
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)
	p := field.NewPath("spec", "limits")
	types := map[string]bool{}
	for i, lim := range Objs(Obj(obj, "spec"), "limits") {
		ip := p.Index(i)
		t := Str(lim, "type")
		errs = append(errs, validateLimitType(t, ip.Child("type"))...)
		if types[t] {
			errs = append(errs, field.Duplicate(ip.Child("type"), t))
		}
		types[t] = true
		keys := map[string]bool{}
		groups := map[string]map[string]Quantity{}
		read := func(k string) {
			groups[k] = map[string]Quantity{}
			m := Obj(lim, k)
			for _, name := range Keys(m) {
				if t == "Pod" || t == "Container" {
					errs = append(errs, validateResourceName(name, ip.Child(k).Key(name))...)
				} else {
					errs = append(errs, validatePlainResourceName(name, ip.Child(k).Key(name))...)
				}
				keys[name] = true
				// a value that does not parse is a 400 before validation
				// on the real server; here it is left out, never compared
				if q, ok := ParseQuantity(m[name]); ok {
					groups[k][name] = q
				}
			}
		}
		read("max")
		read("min")
		if t == "Pod" {
			for _, k := range []string{"default", "defaultRequest"} {
				if len(Obj(lim, k)) > 0 {
					errs = append(errs, field.Forbidden(ip.Child(k), "may not be specified when `type` is 'Pod'"))
				}
			}
		} else {
			read("default")
			read("defaultRequest")
		}
		if t == "PersistentVolumeClaim" {
			_, hasMin := Obj(lim, "min")["storage"]
			_, hasMax := Obj(lim, "max")["storage"]
			if !hasMin && !hasMax {
				errs = append(errs, field.Required(ip.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
			}
		}
		read("maxLimitRequestRatio")
		for _, k := range Keys(keys) {
			errs = append(errs, compareLimits(k, groups, ip)...)
		}
	}
	return errs
}

func validateLimitType(t string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range validation.IsQualifiedName(t) {
		errs = append(errs, field.Invalid(p, t, m))
	}
	if len(errs) == 0 && !strings.Contains(t, "/") && t != "Pod" && t != "Container" && t != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(p, t, "must be a standard limit type or fully qualified"))
	}
	return errs
}

func compareLimits(k string, g map[string]map[string]Quantity, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	min, hasMin := g["min"][k]
	max, hasMax := g["max"][k]
	def, hasDef := g["default"][k]
	req, hasReq := g["defaultRequest"][k]
	ratio, hasRatio := g["maxLimitRequestRatio"][k]
	inv := func(child string, v Quantity, msg string) {
		errs = append(errs, field.Invalid(p.Child(child).Key(k), v.String(), msg))
	}
	if hasMin && hasMax && min.Cmp(max) > 0 {
		inv("min", min, "min value "+min.String()+" is greater than max value "+max.String())
	}
	if hasReq && hasMin && min.Cmp(req) > 0 {
		inv("defaultRequest", req, "min value "+min.String()+" is greater than default request value "+req.String())
	}
	if hasReq && hasMax && req.Cmp(max) > 0 {
		inv("defaultRequest", req, "default request value "+req.String()+" is greater than max value "+max.String())
	}
	if hasReq && hasDef && req.Cmp(def) > 0 {
		inv("defaultRequest", req, "default request value "+req.String()+" is greater than default limit value "+def.String())
	}
	if hasDef && hasMin && min.Cmp(def) > 0 {
		inv("default", min, "min value "+min.String()+" is greater than default value "+def.String())
	}
	if hasDef && hasMax && def.Cmp(max) > 0 {
		inv("default", max, "default value "+def.String()+" is greater than max value "+max.String())
	}
	one, _ := ParseQuantity(int64(1))
	if hasRatio && ratio.Cmp(one) < 0 {
		inv("maxLimitRequestRatio", ratio, "ratio "+ratio.String()+" is less than 1")
	}
	if hasRatio && hasMin && hasMax {
		rv, minV, maxV := float64(ratio.ScaledValue(0)), min.ScaledValue(0), max.ScaledValue(0)
		if ratio.ScaledValue(0) < maxMilliValue && minV < maxMilliValue && maxV < maxMilliValue {
			rv = float64(ratio.ScaledValue(-3)) / 1000
			minV, maxV = min.ScaledValue(-3), max.ScaledValue(-3)
		}
		limit := float64(maxV) / float64(minV)
		if rv > limit {
			inv("maxLimitRequestRatio", ratio, "ratio "+ratio.String()+" is greater than max/min = "+formatF(limit))
		}
	}
	overcommit := isNative(k) && !strings.HasPrefix(k, "hugepages-")
	if !overcommit && hasDef && hasReq && def.Cmp(req) != 0 {
		inv("defaultRequest", req, "default value "+def.String()+" must equal to defaultRequest value "+req.String()+" in "+k)
	}
	return errs
}

// formatF is fmt's %f (Inf and NaN as fmt prints them).
func formatF(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}

// DefaultLimitRange is SetDefaults_LimitRangeItem: a Container item's
// default limit falls back to max, its default request to the default
// limit, then to min.
func DefaultLimitRange(obj map[string]any) {
	for _, lim := range Objs(Obj(obj, "spec"), "limits") {
		if Str(lim, "type") != "Container" {
			continue
		}
		def, req := Obj(lim, "default"), Obj(lim, "defaultRequest")
		if def == nil {
			def = map[string]any{}
		}
		if req == nil {
			req = map[string]any{}
		}
		fill := func(to, from map[string]any) {
			for k, v := range from {
				if _, ok := to[k]; !ok {
					to[k] = v
				}
			}
		}
		fill(def, Obj(lim, "max"))
		fill(req, def)
		fill(req, Obj(lim, "min"))
		if len(def) > 0 {
			lim["default"] = def
		}
		if len(req) > 0 {
			lim["defaultRequest"] = req
		}
	}
}
