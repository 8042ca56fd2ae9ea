package networking

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ingressOpts are IngressValidationOptions (RelaxedServiceNameValidation
// is GA in v1.37: a backend service name is a DNS label).
type ingressOpts struct{ invalidSecretName, invalidWildcardRule bool }

// ValidateIngress is ValidateIngressCreate / ValidateIngressUpdate.
//
//	spec: {} → spec: Invalid value: null: either `defaultBackend` or `rules` must be specified
func ValidateIngress(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	spec := Obj(obj, "spec")
	o := ingressOpts{}
	if old != nil {
		os := Obj(old, "spec")
		for _, t := range Objs(os, "tls") {
			if len(secretNameErrs(Str(t, "secretName"))) > 0 {
				o.invalidSecretName = true
			}
		}
		for _, r := range Objs(os, "rules") {
			if strings.Contains(Str(r, "host"), "*") && len(validateRuleValue(r, nil, ingressOpts{})) > 0 {
				o.invalidWildcardRule = true
			}
		}
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)...)
	}
	errs = append(errs, validateIngressSpec(spec, field.NewPath("spec"), o)...)
	if old == nil {
		ann, set := StrMap(Obj(obj, "metadata"), "annotations")[annotationIngressClass]
		if set && Has(spec, "ingressClassName") && ann != Str(spec, "ingressClassName") {
			errs = append(errs, field.Invalid(field.NewPath("annotations").Child(annotationIngressClass), ann, "must match `ingressClassName` when both are specified"))
		}
		return errs
	}
	return append(errs, validateIngressStatus(obj, old)...)
}

// validateIngressStatus is ValidateIngressLoadBalancerStatus, the check
// of ValidateIngressStatusUpdate beyond metadata. It runs on every update
// (a write of the main resource keeps the stored status, which passed):
// IPs valid (or unchanged from the old status), hostnames DNS names.
//
//	status: {loadBalancer: {ingress: [{hostname: 10.0.0.1}]}}
//	→ status.loadBalancer.ingress[0].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address
func validateIngressStatus(obj, old map[string]any) field.ErrorList {
	var oldIPs []string
	for _, in := range Objs(Obj(Obj(old, "status"), "loadBalancer"), "ingress") {
		if ip := Str(in, "ip"); ip != "" {
			oldIPs = append(oldIPs, ip)
		}
	}
	var errs field.ErrorList
	p := field.NewPath("status", "loadBalancer", "ingress")
	for i, in := range Objs(Obj(Obj(obj, "status"), "loadBalancer"), "ingress") {
		ip := p.Index(i)
		if v := Str(in, "ip"); v != "" {
			errs = append(errs, IsValidIPForLegacyField(ip.Child("ip"), v, oldIPs)...)
		}
		if h := Str(in, "hostname"); h != "" {
			for _, m := range validation.IsDNS1123Subdomain(h) {
				errs = append(errs, field.Invalid(ip.Child("hostname"), h, m))
			}
			if _, isIP := ParseIPSloppy(h); isIP {
				errs = append(errs, field.Invalid(ip.Child("hostname"), h, "must be a DNS name, not an IP address"))
			}
		}
	}
	return errs
}

// IngressWarnings is the strategy's WarningsOnCreate.
func IngressWarnings(obj, old map[string]any) []string {
	if old != nil {
		return nil
	}
	if _, set := StrMap(Obj(obj, "metadata"), "annotations")[annotationIngressClass]; set && !Has(Obj(obj, "spec"), "ingressClassName") {
		return []string{`annotation "` + annotationIngressClass + `" is deprecated, please use 'spec.ingressClassName' instead`}
	}
	return nil
}

func secretNameErrs(name string) []string {
	if name == "" {
		return nil
	}
	return validation.NameIsDNSSubdomain(name, false)
}

func validateIngressSpec(spec map[string]any, p *field.Path, o ingressOpts) field.ErrorList {
	var errs field.ErrorList
	rules := Objs(spec, "rules")
	if len(rules) == 0 && !Has(spec, "defaultBackend") {
		var v any = nil
		if spec["rules"] != nil {
			v = []any{}
		}
		errs = append(errs, field.Invalid(p, v, "either `defaultBackend` or `rules` must be specified"))
	}
	if Has(spec, "defaultBackend") {
		errs = append(errs, validateBackend(Obj(spec, "defaultBackend"), p.Child("defaultBackend"))...)
	}
	for i, r := range rules {
		rp := p.Child("rules").Index(i)
		wildcard := false
		if host := Str(r, "host"); host != "" {
			if _, isIP := ParseIPSloppy(host); isIP {
				errs = append(errs, field.Invalid(rp.Child("host"), host, "must be a DNS name, not an IP address"))
			}
			msgs := validation.IsDNS1123Subdomain(host)
			if strings.Contains(host, "*") {
				msgs, wildcard = IsWildcardDNS1123Subdomain(host), true
			}
			for _, m := range msgs {
				errs = append(errs, field.Invalid(rp.Child("host"), host, m))
			}
		}
		if !wildcard || !o.invalidWildcardRule {
			errs = append(errs, validateRuleValue(r, rp, o)...)
		}
	}
	for ti, t := range Objs(spec, "tls") {
		tp := p.Child("tls").Index(ti)
		for i, host := range Strs(t, "hosts") {
			msgs := validation.IsDNS1123Subdomain(host)
			if strings.Contains(host, "*") {
				msgs = IsWildcardDNS1123Subdomain(host)
			}
			for _, m := range msgs {
				errs = append(errs, field.Invalid(tp.Child("hosts").Index(i), host, m))
			}
		}
		if !o.invalidSecretName {
			for _, m := range secretNameErrs(Str(t, "secretName")) {
				errs = append(errs, field.Invalid(tp.Child("secretName"), Str(t, "secretName"), m))
			}
		}
	}
	if Has(spec, "ingressClassName") {
		n := Str(spec, "ingressClassName")
		for _, m := range validation.NameIsDNSSubdomain(n, false) {
			errs = append(errs, field.Invalid(p.Child("ingressClassName"), n, m))
		}
	}
	return errs
}

func validateRuleValue(r map[string]any, p *field.Path, o ingressOpts) field.ErrorList {
	if !Has(r, "http") {
		return nil
	}
	hp := p.Child("http")
	http := Obj(r, "http")
	var errs field.ErrorList
	paths := Objs(http, "paths")
	if len(paths) == 0 {
		errs = append(errs, field.Required(hp.Child("paths"), ""))
	}
	for i, path := range paths {
		errs = append(errs, validatePath(path, hp.Child("paths").Index(i))...)
	}
	return errs
}

var pathTypes = []string{"Exact", "ImplementationSpecific", "Prefix"}

func validatePath(path map[string]any, p *field.Path) field.ErrorList {
	if !Has(path, "pathType") {
		return field.ErrorList{field.Required(p.Child("pathType"), "pathType must be specified")}
	}
	var errs field.ErrorList
	v := Str(path, "path")
	switch pt := Str(path, "pathType"); pt {
	case "Exact", "Prefix":
		if !strings.HasPrefix(v, "/") {
			errs = append(errs, field.Invalid(p.Child("path"), v, "must be an absolute path"))
		}
		if v != "" {
			for _, seq := range []string{"//", "/./", "/../", "%2f", "%2F"} {
				if strings.Contains(v, seq) {
					errs = append(errs, field.Invalid(p.Child("path"), v, "must not contain '"+seq+"'"))
				}
			}
			for _, suf := range []string{"/..", "/."} {
				if strings.HasSuffix(v, suf) {
					errs = append(errs, field.Invalid(p.Child("path"), v, "cannot end with '"+suf+"'"))
				}
			}
		}
	case "ImplementationSpecific":
		if v != "" && !strings.HasPrefix(v, "/") {
			errs = append(errs, field.Invalid(p.Child("path"), v, "must be an absolute path"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("pathType"), pt, pathTypes))
	}
	return append(errs, validateBackend(Obj(path, "backend"), p.Child("backend"))...)
}

func validateBackend(b map[string]any, p *field.Path) field.ErrorList {
	hasRes, hasSvc := Has(b, "resource"), Has(b, "service")
	switch {
	case hasRes && hasSvc:
		return field.ErrorList{field.Invalid(p, "", "cannot set both resource and service backends")}
	case hasRes:
		return validateTypedRef(Obj(b, "resource"), p.Child("resource"))
	case hasSvc:
	default:
		return field.ErrorList{field.Invalid(p, "", "resource or service backend is required")}
	}
	var errs field.ErrorList
	svc := Obj(b, "service")
	if name := Str(svc, "name"); name == "" {
		errs = append(errs, field.Required(p.Child("service", "name"), ""))
	} else {
		for _, m := range validation.NameIsDNSLabel(name, false) {
			errs = append(errs, field.Invalid(p.Child("service", "name"), name, m))
		}
	}
	port := Obj(svc, "port")
	name, num := Str(port, "name"), Int(port, "number")
	switch {
	case name != "" && num != 0:
		errs = append(errs, field.Invalid(p, "", "cannot set both port name & port number"))
	case name != "":
		for _, m := range corev1.IsValidPortName(name) {
			errs = append(errs, field.Invalid(p.Child("service", "port", "name"), name, m))
		}
	case num != 0:
		for _, m := range IsValidPortNum(num) {
			errs = append(errs, field.Invalid(p.Child("service", "port", "number"), num, m))
		}
	default:
		errs = append(errs, field.Required(p, "port name or number is required"))
	}
	return errs
}

// validateTypedRef is validateIngressTypedLocalObjectReference.
func validateTypedRef(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if Has(r, "apiGroup") {
		g := Str(r, "apiGroup")
		for _, m := range validation.IsDNS1123Subdomain(g) {
			errs = append(errs, field.Invalid(p.Child("apiGroup"), g, m))
		}
	}
	for _, k := range []string{"kind", "name"} {
		v := Str(r, k)
		if v == "" {
			errs = append(errs, field.Required(p.Child(k), ""))
			continue
		}
		for _, m := range validation.IsPathSegmentName(v) {
			errs = append(errs, field.Invalid(p.Child(k), v, m))
		}
	}
	return errs
}

// ValidateIngressClass is ValidateIngressClass / ValidateIngressClassUpdate.
func ValidateIngressClass(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	sp := field.NewPath("spec")
	spec := Obj(obj, "spec")
	if old != nil {
		if c, oc := Str(spec, "controller"), Str(Obj(old, "spec"), "controller"); c != oc {
			errs = append(errs, field.Invalid(sp.Child("controller"), c, FieldImmutableErrorMsg))
		}
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), false, validation.NameIsDNSSubdomain, metaPath)...)
	}
	c := Str(spec, "controller")
	if len(c) > 250 {
		errs = append(errs, field.TooLong(sp.Child("controller"), "", 250))
	}
	errs = append(errs, IsDomainPrefixedPath(sp.Child("controller"), c)...)
	if Has(spec, "parameters") {
		errs = append(errs, validateParams(Obj(spec, "parameters"), sp.Child("parameters"))...)
	}
	return errs
}

func validateParams(r map[string]any, p *field.Path) field.ErrorList {
	errs := validateTypedRef(r, p)
	if !Has(r, "scope") {
		return append(errs, field.Required(p.Child("scope"), ""))
	}
	switch scope := Str(r, "scope"); scope {
	case "Namespace":
		if !Has(r, "namespace") {
			errs = append(errs, field.Required(p.Child("namespace"), "`parameters.scope` is set to 'Namespace'"))
		} else {
			ns := Str(r, "namespace")
			for _, m := range validation.NameIsDNSLabel(ns, false) {
				errs = append(errs, field.Invalid(p.Child("namespace"), ns, m))
			}
		}
	case "Cluster":
		if Has(r, "namespace") {
			errs = append(errs, field.Forbidden(p.Child("namespace"), "`parameters.scope` is set to 'Cluster'"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("scope"), scope, []string{"Cluster", "Namespace"}))
	}
	return errs
}
