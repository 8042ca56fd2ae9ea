package admissionregistration

import (
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateBinding is ValidateValidatingAdmissionPolicyBinding (create and
// update validate alike).
//
//	spec: {policyName: p, validationActions: [Deny, Warn]}
//	→ spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (...)
func ValidateBinding(obj, _ map[string]any) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	if spec == nil {
		spec = map[string]any{}
	}
	if pn := Str(spec, "policyName"); pn == "" {
		errs = append(errs, field.Required(p.Child("policyName"), ""))
	} else {
		for _, msg := range validation.IsDNS1123Subdomain(pn) {
			errs = append(errs, field.Invalid(p.Child("policyName"), pn, msg))
		}
	}
	if pr := Obj(spec, "paramRef"); pr != nil {
		errs = append(errs, validateParamRef(pr, p.Child("paramRef"))...)
	}
	if mr := Obj(spec, "matchResources"); mr != nil {
		errs = append(errs, validateMatchResources(mr, p.Child("matchResources"))...)
	}
	return append(errs, validateValidationActions(spec, p.Child("validationActions"))...)
}

func validateParamRef(pr map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	name, sel := Str(pr, "name"), Obj(pr, "selector")
	if name != "" {
		for _, msg := range validation.IsPathSegmentName(name) {
			errs = append(errs, field.Invalid(p.Child("name"), name, msg))
		}
		if sel != nil {
			errs = append(errs, field.Forbidden(p.Child("name"), `name and selector are mutually exclusive`))
		}
	}
	if sel != nil {
		errs = append(errs, ValidateLabelSelector(sel, p.Child("selector"))...)
		if name != "" {
			errs = append(errs, field.Forbidden(p.Child("selector"), `name and selector are mutually exclusive`))
		}
	}
	if name == "" && sel == nil {
		errs = append(errs, field.Required(p, `one of name or selector must be specified`))
	}
	switch a := Str(pr, "parameterNotFoundAction"); a {
	case "":
		errs = append(errs, field.Required(p.Child("parameterNotFoundAction"), ""))
	case "Deny", "Allow":
	default:
		errs = append(errs, field.NotSupported(p.Child("parameterNotFoundAction"), a, []string{"Deny", "Allow"}))
	}
	return errs
}

func validateValidationActions(spec map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, a := range Strs(spec, "validationActions") {
		switch a {
		case "Deny", "Warn", "Audit":
		default:
			errs = append(errs, field.NotSupported(p.Index(i), a, []string{"Audit", "Deny", "Warn"}))
		}
		if seen[a] {
			errs = append(errs, field.Duplicate(p.Index(i), a))
		}
		seen[a] = true
	}
	if seen["Deny"] && seen["Warn"] {
		errs = append(errs, field.Invalid(p, List(spec, "validationActions"), "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(seen) == 0 {
		// the declarative validation's text (the handwritten one is
		// MarkCoveredByDeclarative)
		errs = append(errs, field.Required(p, ""))
	}
	return errs
}

// validateMatchResources is validateMatchResources (selectors strictly).
func validateMatchResources(mr map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch mp := mr["matchPolicy"]; {
	case mp == nil:
		errs = append(errs, field.Required(p.Child("matchPolicy"), ""))
	case Str(mr, "matchPolicy") != "Exact" && Str(mr, "matchPolicy") != "Equivalent":
		errs = append(errs, field.NotSupported(p.Child("matchPolicy"), mp, []string{"Equivalent", "Exact"}))
	}
	for _, k := range []string{"namespaceSelector", "objectSelector"} {
		if sel := Obj(mr, k); sel == nil {
			errs = append(errs, field.Required(p.Child(k), ""))
		} else {
			errs = append(errs, ValidateLabelSelector(sel, p.Child(k))...)
		}
	}
	for _, k := range []string{"resourceRules", "excludeResourceRules"} {
		for i, r := range Objs(mr, k) {
			errs = append(errs, validateNamedRule(r, p.Child(k).Index(i))...)
		}
	}
	return errs
}

// validateNamedRule is validateNamedRuleWithOperations.
func validateNamedRule(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, n := range Strs(r, "resourceNames") {
		for _, msg := range validation.IsPathSegmentName(n) {
			errs = append(errs, field.Invalid(p.Child("resourceNames").Index(i), n, msg))
		}
		if seen[n] {
			errs = append(errs, field.Duplicate(p.Child("resourceNames").Index(i), n))
		}
		seen[n] = true
	}
	// validateRuleWithOperations
	ops := Strs(r, "operations")
	if len(ops) == 0 {
		errs = append(errs, field.Required(p.Child("operations"), ""))
	}
	if len(ops) > 1 && hasWildcard(ops) {
		errs = append(errs, field.Invalid(p.Child("operations"), List(r, "operations"), "if '*' is present, must not specify other operations"))
	}
	for i, op := range ops {
		switch op {
		case "*", "CREATE", "UPDATE", "DELETE", "CONNECT":
		default:
			errs = append(errs, field.NotSupported(p.Child("operations").Index(i), op, []string{"*", "CONNECT", "CREATE", "DELETE", "UPDATE"}))
		}
	}
	return append(errs, validateRule(r, p)...)
}

func hasWildcard(l []string) bool {
	for _, s := range l {
		if s == "*" {
			return true
		}
	}
	return false
}

// validateRule is validateRule with subresources allowed.
func validateRule(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	groups, versions := Strs(r, "apiGroups"), Strs(r, "apiVersions")
	if len(groups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), ""))
	}
	if len(groups) > 1 && hasWildcard(groups) {
		errs = append(errs, field.Invalid(p.Child("apiGroups"), List(r, "apiGroups"), "if '*' is present, must not specify other API groups"))
	}
	if len(versions) == 0 {
		errs = append(errs, field.Required(p.Child("apiVersions"), ""))
	}
	if len(versions) > 1 && hasWildcard(versions) {
		errs = append(errs, field.Invalid(p.Child("apiVersions"), List(r, "apiVersions"), "if '*' is present, must not specify other API versions"))
	}
	for i, v := range versions {
		if v == "" {
			errs = append(errs, field.Required(p.Child("apiVersions").Index(i), ""))
		}
	}
	errs = append(errs, validateResources(r, p.Child("resources"))...)
	if sc, ok := r["scope"]; ok && sc != nil {
		switch Str(r, "scope") {
		case "Cluster", "Namespaced", "*":
		default:
			errs = append(errs, field.NotSupported(p.Child("scope"), sc, []string{"*", "Cluster", "Namespaced"}))
		}
	}
	return errs
}

func validateResources(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	resources := Strs(r, "resources")
	if len(resources) == 0 {
		errs = append(errs, field.Required(p, ""))
	}
	wildSub, wildRes := map[string]bool{}, map[string]bool{}
	double, single, plain := false, false, false
	for i, rs := range resources {
		if rs == "" {
			errs = append(errs, field.Required(p.Index(i), ""))
			continue
		}
		double = double || rs == "*/*"
		single = single || rs == "*"
		res, sub, ok := strings.Cut(rs, "/")
		if !ok {
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if wildRes[sub] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && double {
		errs = append(errs, field.Invalid(p, List(r, "resources"), "if '*/*' is present, must not specify other resources"))
	}
	if single && plain {
		errs = append(errs, field.Invalid(p, List(r, "resources"), "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}
