// Package admissionregistration defaults and validates
// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies and their
// bindings as kube-apiserver v1.37.2 does (k8s.io/kubernetes
// pkg/apis/admissionregistration/{v1/defaults.go,validation}): the
// structural checks here; whether an expression compiles is the CEL
// engine's answer (core/cel.Policies.CheckPolicy), merged by the server.
//
//	spec: {validations: [{expression: "true"}]}   (no matchConstraints)
//	→ spec.matchConstraints: Required value
package admissionregistration

import (
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/internal/lazyre"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// DefaultPolicy is SetDefaults_ValidatingAdmissionPolicySpec with the
// defaults of the MatchResources and Rules inside.
func DefaultPolicy(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		return
	}
	if spec["failurePolicy"] == nil {
		spec["failurePolicy"] = "Fail"
	}
	defaultMatchResources(Obj(spec, "matchConstraints"))
}

// DefaultBinding defaults a binding's matchResources.
func DefaultBinding(obj map[string]any) {
	defaultMatchResources(Obj(Obj(obj, "spec"), "matchResources"))
}

// defaultMatchResources is SetDefaults_MatchResources and SetDefaults_Rule.
func defaultMatchResources(mr map[string]any) {
	if mr == nil {
		return
	}
	if mr["matchPolicy"] == nil {
		mr["matchPolicy"] = "Equivalent"
	}
	for _, k := range []string{"namespaceSelector", "objectSelector"} {
		if mr[k] == nil {
			mr[k] = map[string]any{}
		}
	}
	for _, k := range []string{"resourceRules", "excludeResourceRules"} {
		for _, r := range Objs(mr, k) {
			if r["scope"] == nil {
				r["scope"] = "*"
			}
		}
	}
}

// PreparePolicyCreate is the strategy's PrepareForCreate: status is the
// controller's.
func PreparePolicyCreate(obj map[string]any) {
	obj["status"] = map[string]any{}
}

// ValidatePolicy is ValidateValidatingAdmissionPolicy (old nil) and
// ValidateValidatingAdmissionPolicyUpdate without the CEL compilation.
func ValidatePolicy(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("spec")
	spec := Obj(obj, "spec")
	if spec == nil {
		spec = map[string]any{}
	}
	switch fp := spec["failurePolicy"]; {
	case fp == nil:
		errs = append(errs, field.Required(p.Child("failurePolicy"), ""))
	case Str(spec, "failurePolicy") != "Fail" && Str(spec, "failurePolicy") != "Ignore":
		errs = append(errs, field.NotSupported(p.Child("failurePolicy"), fp, []string{"Fail", "Ignore"}))
	}
	if pk := Obj(spec, "paramKind"); pk != nil {
		errs = append(errs, validateParamKind(pk, p.Child("paramKind"))...)
	}
	if mc := Obj(spec, "matchConstraints"); mc == nil {
		errs = append(errs, field.Required(p.Child("matchConstraints"), ""))
	} else {
		errs = append(errs, validateMatchResources(mc, p.Child("matchConstraints"))...)
		if len(List(mc, "resourceRules")) == 0 {
			errs = append(errs, field.Required(p.Child("matchConstraints", "resourceRules"), ""))
		}
	}
	errs = append(errs, validateMatchConditions(Objs(spec, "matchConditions"), p.Child("matchConditions"))...)
	for i, v := range Objs(spec, "variables") {
		vp := p.Child("variables").Index(i)
		if name := Str(v, "name"); strings.TrimSpace(name) == "" {
			errs = append(errs, field.Required(vp.Child("name"), "name is not specified"))
		} else if !isCELIdentifier(name) {
			errs = append(errs, field.Invalid(vp.Child("name"), name, "must be a valid CEL identifier"))
		}
		if strings.TrimSpace(Str(v, "expression")) == "" {
			errs = append(errs, field.Required(vp.Child("expression"), "expression is not specified"))
		}
	}
	validations, audits := Objs(spec, "validations"), Objs(spec, "auditAnnotations")
	if len(validations) == 0 && len(audits) == 0 {
		errs = append(errs, field.Required(p.Child("validations"), "validations or auditAnnotations must contain at least one item"),
			field.Required(p.Child("auditAnnotations"), "validations or auditAnnotations must contain at least one item"))
		return errs
	}
	for i, v := range validations {
		errs = append(errs, validateValidation(v, p.Child("validations").Index(i))...)
	}
	if len(audits) > 20 {
		errs = append(errs, field.Invalid(p.Child("auditAnnotations"), List(spec, "auditAnnotations"), "must not have more than 20 auditAnnotations"))
	}
	name := Str(Obj(obj, "metadata"), "name")
	keys := map[string]bool{}
	for i, a := range audits {
		ap := p.Child("auditAnnotations").Index(i)
		key := Str(a, "key")
		if name != "" {
			errs = append(errs, validateQualifiedName(name+"/"+key, ap.Child("key"))...)
		} else {
			errs = append(errs, field.Invalid(ap.Child("key"), key, "requires metadata.name be non-empty"))
		}
		switch ve := strings.TrimSpace(Str(a, "valueExpression")); {
		case ve == "":
			errs = append(errs, field.Required(ap.Child("valueExpression"), "valueExpression is not specified"))
		case len(ve) > 5*1024:
			errs = append(errs, field.Required(ap.Child("valueExpression"), "must not exceed 5120 bytes in length"))
		}
		if keys[key] {
			errs = append(errs, field.Duplicate(ap.Child("key"), key))
		}
		keys[key] = true
	}
	return errs
}

var newline = lazyre.New(`[\n\r]+`)

func validateValidation(v map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(Str(v, "expression")) == "" {
		errs = append(errs, field.Required(p.Child("expression"), "expression is not specified"))
	}
	if me := Str(v, "messageExpression"); me != "" && strings.TrimSpace(me) == "" {
		errs = append(errs, field.Invalid(p.Child("messageExpression"), me, "must be non-empty if specified"))
	}
	msg := Str(v, "message")
	switch trimmed := strings.TrimSpace(msg); {
	case msg != "" && trimmed == "":
		errs = append(errs, field.Invalid(p.Child("message"), msg, "must be non-empty if specified"))
	case newline.MatchString(trimmed):
		errs = append(errs, field.Invalid(p.Child("message"), msg, "must not contain line breaks"))
	}
	if r, ok := v["reason"]; ok && r != nil {
		switch Str(v, "reason") {
		case "Forbidden", "Invalid", "RequestEntityTooLarge":
		default:
			errs = append(errs, field.NotSupported(p.Child("reason"), r, []string{"Forbidden", "Invalid", "RequestEntityTooLarge"}))
		}
	}
	return errs
}

func validateMatchConditions(mcs []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(mcs) > 64 {
		errs = append(errs, field.TooMany(p, len(mcs), 64))
	}
	names := map[string]bool{}
	for i, mc := range mcs {
		ip := p.Index(i)
		if strings.TrimSpace(Str(mc, "expression")) == "" {
			errs = append(errs, field.Required(ip.Child("expression"), ""))
		}
		name := Str(mc, "name")
		if name == "" {
			errs = append(errs, field.Required(ip.Child("name"), ""))
		} else {
			errs = append(errs, validateQualifiedName(name, ip.Child("name"))...)
			if names[name] {
				errs = append(errs, field.Duplicate(ip.Child("name"), name))
			}
			names[name] = true
		}
	}
	return errs
}

func validateQualifiedName(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range validation.IsQualifiedName(v) {
		errs = append(errs, field.Invalid(p, v, msg))
	}
	return errs
}

func validateParamKind(pk map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	av := Str(pk, "apiVersion")
	if av == "" {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	} else if strings.Count(av, "/") > 1 {
		errs = append(errs, field.Invalid(p.Child("apiVersion"), av, "unexpected GroupVersion string: "+av))
	} else if av != "/" {
		group, version, ok := strings.Cut(av, "/")
		if !ok {
			group, version = "", av
		}
		if group != "" {
			if e := validation.IsDNS1123Subdomain(group); len(e) > 0 {
				errs = append(errs, field.Invalid(p.Child("apiVersion"), group, strings.Join(e, ",")))
			}
		}
		if version == "" {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), av, "version must be specified"))
		} else if e := validation.IsDNS1035Label(version); len(e) > 0 {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), version, strings.Join(e, ",")))
		}
	} else {
		errs = append(errs, field.Invalid(p.Child("apiVersion"), av, "version must be specified"))
	}
	kind := Str(pk, "kind")
	if kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	} else if e := validation.IsDNS1035Label(strings.ToLower(kind)); len(e) > 0 {
		errs = append(errs, field.Invalid(p.Child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(e, ",")))
	}
	return errs
}

var celReserved = map[string]bool{"true": true, "false": true, "null": true, "in": true, "as": true, "break": true,
	"const": true, "continue": true, "else": true, "for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true, "var": true, "void": true, "while": true}

var celIdent = lazyre.New("^[_a-zA-Z][_a-zA-Z0-9]*$")

func isCELIdentifier(name string) bool { return celIdent.MatchString(name) && !celReserved[name] }

var _ = fmt.Sprint
