package common

import (
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateConditions is metav1 validation's ValidateConditions: per
// metav1.Condition a qualified type (no duplicates), status True, False or
// Unknown, a non-negative observedGeneration, lastTransitionTime, and a
// reason of the condition-reason form within 1024 bytes; messages within
// 32768. Example: [{type: Ready, status: Maybe}] →
// status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"
// (and lastTransitionTime, reason: Required value).
func ValidateConditions(conds []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	var seen []string
	for i, c := range conds {
		ip := p.Index(i)
		t := Str(c, "type")
		if contains(seen, t) {
			errs = append(errs, field.Duplicate(ip, t))
		} else {
			seen = append(seen, t)
		}
		if t == "" {
			errs = append(errs, field.Required(ip.Child("type"), "is required"))
		} else {
			errs = append(errs, ValidateLabelName(t, ip.Child("type"))...)
		}
		switch s := Str(c, "status"); s {
		case "":
			errs = append(errs, field.Required(ip.Child("status"), ""))
		case "True", "False", "Unknown":
		default:
			errs = append(errs, field.NotSupported(ip.Child("status"), s, []string{"False", "True", "Unknown"}))
		}
		if g := Int(c, "observedGeneration"); g < 0 {
			errs = append(errs, field.Invalid(ip.Child("observedGeneration"), g, "must be greater than or equal to zero"))
		}
		if Str(c, "lastTransitionTime") == "" {
			errs = append(errs, field.Required(ip.Child("lastTransitionTime"), ""))
		}
		if r := Str(c, "reason"); r == "" {
			errs = append(errs, field.Required(ip.Child("reason"), ""))
		} else {
			errs = append(errs, ValidateConditionReason(r, ip.Child("reason"))...)
			if len(r) > 1024 {
				errs = append(errs, field.TooLong(ip.Child("reason"), "", 1024))
			}
		}
		if len(Str(c, "message")) > 32*1024 {
			errs = append(errs, field.TooLong(ip.Child("message"), "", 32*1024))
		}
	}
	return errs
}

// ValidateConditionReason is IsValidConditionReason: a letter, then
// letters, digits and '_,:', ending in a letter, digit or '_'.
func ValidateConditionReason(r string, p *field.Path) field.ErrorList {
	ok := r != "" && isLetter(r[0]) && strings.IndexFunc(r, func(c rune) bool {
		return c > 127 || !(isLetter(byte(c)) || c >= '0' && c <= '9' || c == '_' || c == ',' || c == ':')
	}) < 0 && !strings.ContainsAny(r[len(r)-1:], ",:")
	if ok {
		return nil
	}
	return field.ErrorList{field.Invalid(p, r, validation.RegexError("a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
		"[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?", "my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"))}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
