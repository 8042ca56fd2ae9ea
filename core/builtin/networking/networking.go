// Package networking validates the networking.k8s.io/v1 kinds (Ingress,
// IngressClass, NetworkPolicy) as kube-apiserver v1.37.2 does
// (k8s.io/kubernetes pkg/apis/networking/validation and the registry
// strategies in pkg/registry/networking), over decoded and defaulted JSON.
// The generic server checks ObjectMeta before these (and ObjectMetaUpdate
// twice on update); where the real strategy checks ObjectMeta again on
// update, so do these.
package networking

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/field"
)

var metaPath = field.NewPath("metadata")

const annotationIngressClass = "kubernetes.io/ingress.class"

// ValidateNetworkPolicy is ValidateNetworkPolicy / ValidateNetworkPolicyUpdate
// with ValidationOptionsForNetworking.
func ValidateNetworkPolicy(obj, old map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	o := npOpts{}
	if old != nil {
		os := Obj(old, "spec")
		o.allowInvalidLabelValue = len(ValidateLabelSelector(Obj(os, "podSelector"), field.NewPath("x"))) > 0
		for _, dir := range [][2]string{{"ingress", "from"}, {"egress", "to"}} {
			for _, r := range Objs(os, dir[0]) {
				for _, peer := range Objs(r, dir[1]) {
					if ipb := Obj(peer, "ipBlock"); ipb != nil {
						o.oldCIDRs = append(o.oldCIDRs, Str(ipb, "cidr"))
						o.oldCIDRs = append(o.oldCIDRs, Strs(ipb, "except")...)
					}
				}
			}
		}
		if o.oldCIDRs == nil {
			o.oldCIDRs = []string{}
		}
	}
	return validateNetworkPolicySpec(spec, o, field.NewPath("spec"))
}

type npOpts struct {
	allowInvalidLabelValue bool
	oldCIDRs               []string
}

func (o npOpts) selector(sel map[string]any, p *field.Path) field.ErrorList {
	if o.allowInvalidLabelValue {
		return ValidateLabelSelectorLax(sel, p)
	}
	return ValidateLabelSelector(sel, p)
}

func validateNetworkPolicySpec(spec map[string]any, o npOpts, p *field.Path) field.ErrorList {
	ps := Obj(spec, "podSelector")
	if ps == nil {
		ps = map[string]any{}
	}
	errs := o.selector(ps, p.Child("podSelector"))
	for _, dir := range [][2]string{{"ingress", "from"}, {"egress", "to"}} {
		for i, r := range Objs(spec, dir[0]) {
			rp := p.Child(dir[0]).Index(i)
			for j, port := range Objs(r, "ports") {
				errs = append(errs, validateNetworkPolicyPort(port, rp.Child("ports").Index(j))...)
			}
			for j, peer := range Objs(r, dir[1]) {
				errs = append(errs, validatePeer(peer, o, rp.Child(dir[1]).Index(j))...)
			}
		}
	}
	types := Strs(spec, "policyTypes")
	if len(types) > 2 {
		return append(errs, field.Invalid(p.Child("policyTypes"), types, "may not specify more than two policyTypes"))
	}
	for i, t := range types {
		if t != "Ingress" && t != "Egress" {
			errs = append(errs, field.NotSupported(p.Child("policyTypes").Index(i), t, []string{"Ingress", "Egress"}))
		}
	}
	return errs
}

func validateNetworkPolicyPort(port map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if Has(port, "protocol") {
		if pr := Str(port, "protocol"); pr != "TCP" && pr != "UDP" && pr != "SCTP" {
			errs = append(errs, field.NotSupported(p.Child("protocol"), pr, []string{"TCP", "UDP", "SCTP"}))
		}
	}
	end, hasEnd := IntOK(port, "endPort")
	hasEnd = hasEnd && Has(port, "endPort")
	switch v := port["port"].(type) {
	case nil:
		if hasEnd {
			errs = append(errs, field.Invalid(p.Child("endPort"), end, "may not be specified when `port` is not specified"))
		}
	case string:
		if hasEnd {
			errs = append(errs, field.Invalid(p.Child("endPort"), end, "may not be specified when `port` is non-numeric"))
		}
		for _, m := range corev1.IsValidPortName(v) {
			errs = append(errs, field.Invalid(p.Child("port"), v, m))
		}
	default:
		n, _ := AsInt(v)
		for _, m := range IsValidPortNum(n) {
			errs = append(errs, field.Invalid(p.Child("port"), n, m))
		}
		if hasEnd {
			if end < n {
				errs = append(errs, field.Invalid(p.Child("endPort"), end, "must be greater than or equal to `port`"))
			}
			for _, m := range IsValidPortNum(end) {
				errs = append(errs, field.Invalid(p.Child("endPort"), end, m))
			}
		}
	}
	return errs
}

func validatePeer(peer map[string]any, o npOpts, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	if Has(peer, "podSelector") {
		n++
		errs = append(errs, o.selector(Obj(peer, "podSelector"), p.Child("podSelector"))...)
	}
	if Has(peer, "namespaceSelector") {
		n++
		errs = append(errs, o.selector(Obj(peer, "namespaceSelector"), p.Child("namespaceSelector"))...)
	}
	ipb := Obj(peer, "ipBlock")
	if Has(peer, "ipBlock") {
		n++
		errs = append(errs, validateIPBlock(ipb, p.Child("ipBlock"), o)...)
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a peer"))
	} else if n > 1 && Has(peer, "ipBlock") {
		errs = append(errs, field.Forbidden(p, "may not specify both ipBlock and another peer"))
	}
	return errs
}

func validateIPBlock(ipb map[string]any, p *field.Path, o npOpts) field.ErrorList {
	cidr := Str(ipb, "cidr")
	if cidr == "" {
		return field.ErrorList{field.Required(p.Child("cidr"), "")}
	}
	errs := IsValidCIDRForLegacyField(p.Child("cidr"), cidr, o.oldCIDRs)
	net, ok := ParseCIDRSloppy(cidr)
	if !ok {
		return errs
	}
	for i, ex := range Strs(ipb, "except") {
		ep := p.Child("except").Index(i)
		errs = append(errs, IsValidCIDRForLegacyField(ep, ex, o.oldCIDRs)...)
		exNet, ok := ParseCIDRSloppy(ex)
		if !ok {
			continue
		}
		if !net.Contains(exNet.Addr()) || net.Bits() >= exNet.Bits() {
			errs = append(errs, field.Invalid(ep, ex, "must be a strict subset of `cidr`"))
		}
	}
	return errs
}

// NetworkPolicyWarnings is the strategy's networkPolicyWarnings (on create
// and update): non-canonical ipBlock CIDRs.
func NetworkPolicyWarnings(obj, _ map[string]any) []string {
	var ws []string
	spec := Obj(obj, "spec")
	for _, dir := range [][2]string{{"ingress", "from"}, {"egress", "to"}} {
		for i, r := range Objs(spec, dir[0]) {
			for j, peer := range Objs(r, dir[1]) {
				if !Has(peer, "ipBlock") {
					continue
				}
				ipb := Obj(peer, "ipBlock")
				p := field.NewPath("spec").Child(dir[0]).Index(i).Child(dir[1]).Index(j).Child("ipBlock")
				ws = append(ws, WarningsForCIDR(p.Child("cidr"), Str(ipb, "cidr"))...)
				for k, ex := range Strs(ipb, "except") {
					ws = append(ws, WarningsForCIDR(p.Child("except").Index(k), ex)...)
				}
			}
		}
	}
	return ws
}

// DefaultNetworkPolicy is SetDefaults_NetworkPolicy and
// SetDefaults_NetworkPolicyPort: ports are TCP, and a policy without
// policyTypes is an Ingress policy (and Egress when it has egress rules).
func DefaultNetworkPolicy(obj map[string]any) {
	spec := Obj(obj, "spec")
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	for _, dir := range []string{"ingress", "egress"} {
		for _, r := range Objs(spec, dir) {
			for _, p := range Objs(r, "ports") {
				if p["protocol"] == nil {
					p["protocol"] = "TCP"
				}
			}
		}
	}
	if len(List(spec, "policyTypes")) == 0 {
		types := []any{"Ingress"}
		if len(List(spec, "egress")) > 0 {
			types = append(types, "Egress")
		}
		spec["policyTypes"] = types
	}
}

// DefaultIngressClass is SetDefaults_IngressClass: parameters are
// cluster-scoped unless said otherwise.
func DefaultIngressClass(obj map[string]any) {
	if p := Obj(Obj(obj, "spec"), "parameters"); p != nil && p["scope"] == nil {
		p["scope"] = "Cluster"
	}
}
