package common

import (
	"encoding/json"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateLabelSelector is apimachinery's metav1 ValidateLabelSelector
// with AllowInvalidLabelValueInSelector false (the apps and batch
// strategies' strict mode); sel is the selector object or nil.
func ValidateLabelSelector(sel map[string]any, p *field.Path) field.ErrorList {
	return validateLabelSelector(sel, false, p)
}

// ValidateLabelSelectorLax is ValidateLabelSelector with
// AllowInvalidLabelValueInSelector (an update of an object whose stored
// selector already has an invalid value).
func ValidateLabelSelectorLax(sel map[string]any, p *field.Path) field.ErrorList {
	return validateLabelSelector(sel, true, p)
}

func validateLabelSelector(sel map[string]any, lax bool, p *field.Path) field.ErrorList {
	if sel == nil {
		return nil
	}
	errs := ValidateLabels(StrMap(sel, "matchLabels"), p.Child("matchLabels"))
	for i, r := range Objs(sel, "matchExpressions") {
		rp := p.Child("matchExpressions").Index(i)
		op, values := Str(r, "operator"), Strs(r, "values")
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				errs = append(errs, field.Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				errs = append(errs, field.Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.Invalid(rp.Child("operator"), op, "not a valid selector operator"))
		}
		errs = append(errs, ValidateLabelName(Str(r, "key"), rp.Child("key"))...)
		for vi, v := range values {
			if lax {
				break
			}
			for _, msg := range validation.IsValidLabelValue(v) {
				errs = append(errs, field.Invalid(rp.Child("values").Index(vi), v, msg))
			}
		}
	}
	return errs
}

// ValidateLabelName checks one label key.
func ValidateLabelName(k string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(k) {
		errs = append(errs, field.Invalid(p, k, msg))
	}
	return errs
}

// ValidateLabels is metav1 ValidateLabels (keys in sorted order).
func ValidateLabels(labels map[string]string, p *field.Path) field.ErrorList {
	return validation.ValidateLabels(labels, p)
}

// Selector is a parsed label selector (metav1.LabelSelectorAsSelector).
type Selector struct {
	nothing bool // a nil selector selects nothing
	reqs    []requirement
}

type requirement struct {
	key, op string
	values  []string
}

// AsSelector converts a selector object as LabelSelectorAsSelector does:
// nil selects nothing, an empty one everything; ok is false when the
// selector would not convert (invalid keys, values or operators).
func AsSelector(sel map[string]any) (s Selector, ok bool) {
	if sel == nil {
		return Selector{nothing: true}, true
	}
	ml := StrMap(sel, "matchLabels")
	for _, k := range Keys(ml) {
		if !validRequirement(k, "In", []string{ml[k]}) {
			return Selector{}, false
		}
		s.reqs = append(s.reqs, requirement{k, "In", []string{ml[k]}})
	}
	for _, r := range Objs(sel, "matchExpressions") {
		op := Str(r, "operator")
		vals := Strs(r, "values")
		switch op {
		case "In", "NotIn", "Exists", "DoesNotExist":
		default:
			return Selector{}, false
		}
		if !validRequirement(Str(r, "key"), op, vals) {
			return Selector{}, false
		}
		s.reqs = append(s.reqs, requirement{Str(r, "key"), op, vals})
	}
	return s, true
}

// validRequirement is labels.NewRequirement's checks.
func validRequirement(key, op string, vals []string) bool {
	if len(validation.IsQualifiedName(key)) > 0 {
		return false
	}
	switch op {
	case "In", "NotIn":
		if len(vals) == 0 {
			return false
		}
	case "Exists", "DoesNotExist":
		if len(vals) != 0 {
			return false
		}
	}
	for _, v := range vals {
		if len(validation.IsValidLabelValue(v)) > 0 {
			return false
		}
	}
	return true
}

// Empty reports a selector that selects everything.
func (s Selector) Empty() bool { return !s.nothing && len(s.reqs) == 0 }

// Matches reports whether labels satisfy the selector.
func (s Selector) Matches(labels map[string]string) bool {
	if s.nothing {
		return false
	}
	for _, r := range s.reqs {
		v, has := labels[r.key]
		switch r.op {
		case "In":
			if !has || !contains(r.values, v) {
				return false
			}
		case "NotIn":
			if has && contains(r.values, v) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		}
	}
	return true
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// SelectorValue renders a selector as the bad value of an error, as
// encoding/json renders a *metav1.LabelSelector: matchLabels before
// matchExpressions, empty parts left out, null for nil.
func SelectorValue(sel map[string]any) json.RawMessage {
	if sel == nil {
		return json.RawMessage("null")
	}
	var parts []string
	if ml := StrMap(sel, "matchLabels"); len(ml) > 0 {
		b, _ := json.Marshal(ml)
		parts = append(parts, `"matchLabels":`+string(b))
	}
	if exprs := Objs(sel, "matchExpressions"); len(exprs) > 0 {
		var es []string
		for _, r := range exprs {
			k, _ := json.Marshal(Str(r, "key"))
			o, _ := json.Marshal(Str(r, "operator"))
			e := `{"key":` + string(k) + `,"operator":` + string(o)
			if vs := Strs(r, "values"); len(vs) > 0 {
				b, _ := json.Marshal(vs)
				e += `,"values":` + string(b)
			}
			es = append(es, e+"}")
		}
		parts = append(parts, `"matchExpressions":[`+strings.Join(es, ",")+"]")
	}
	return json.RawMessage("{" + strings.Join(parts, ",") + "}")
}

// LabelsValue renders a label map as a bad value (null when nil, as a nil
// Go map).
func LabelsValue(m map[string]string) json.RawMessage {
	if m == nil {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(m)
	return b
}
