package corev1

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateService is a part of ValidateServiceCreate/ValidateServiceUpdate:
// ports, selector, session affinity, type, node ports, duplicates and the
// ExternalName rules, the cluster IP and IP family checks (serviceip.go)
// in validateService's order, and on update that the cluster IPs do not
// change. Not reproduced: the external IP checks, load balancer source
// ranges and class, and the traffic policy fields.
func ValidateService(obj, old map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	sp := field.NewPath("spec")
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, clusterIPsUnchanged(spec, Obj(old, "spec"))...)
	}
	typ := Str(spec, "type")
	ports := Objs(spec, "ports")
	headless := isHeadless(spec)
	if len(ports) == 0 && !headless && typ != "ExternalName" {
		errs = append(errs, field.Required(sp.Child("ports"), ""))
	}
	switch typ {
	case "LoadBalancer", "NodePort":
		if headless {
			errs = append(errs, field.Invalid(sp.Child("clusterIPs").Index(0), "None", "may not be set to 'None' for "+typ+" services"))
		}
	case "ExternalName":
		if len(Strs(spec, "clusterIPs")) > 0 {
			errs = append(errs, field.Forbidden(sp.Child("clusterIPs"), "may not be set for ExternalName services"))
		}
		if len(Strs(spec, "ipFamilies")) > 0 {
			errs = append(errs, field.Forbidden(sp.Child("ipFamilies"), "may not be set for ExternalName services"))
		}
		if spec["ipFamilyPolicy"] != nil {
			errs = append(errs, field.Forbidden(sp.Child("ipFamilyPolicy"), "may not be set for ExternalName services"))
		}
		if cname := strings.TrimSuffix(Str(spec, "externalName"), "."); cname != "" {
			errs = append(errs, dns1123Subdomain(cname, sp.Child("externalName"))...)
		} else {
			errs = append(errs, field.Required(sp.Child("externalName"), ""))
		}
	}
	names := map[string]bool{}
	for i, port := range ports {
		pp := sp.Child("ports").Index(i)
		if name := Str(port, "name"); len(ports) > 1 && name == "" {
			errs = append(errs, field.Required(pp.Child("name"), ""))
		} else if name != "" {
			errs = append(errs, dns1123Label(name, pp.Child("name"))...)
			if names[name] {
				errs = append(errs, field.Duplicate(pp.Child("name"), name))
			} else {
				names[name] = true
			}
		}
		if n := Int(port, "port"); n < 1 || n > 65535 {
			errs = append(errs, field.Invalid(pp.Child("port"), n, InclusiveRangeError(1, 65535)))
		}
		if proto := Str(port, "protocol"); proto == "" {
			errs = append(errs, field.Required(pp.Child("protocol"), ""))
		} else if !has(supportedProtocols, proto) {
			errs = append(errs, field.NotSupported(pp.Child("protocol"), proto, supportedProtocols))
		}
		errs = append(errs, validatePortNumOrName(port["targetPort"], pp.Child("targetPort"))...)
		if Has(port, "appProtocol") {
			ap := Str(port, "appProtocol")
			errs = append(errs, ValidateLabelName(ap, pp.Child("appProtocol"))...)
		}
	}
	if Has(spec, "selector") {
		errs = append(errs, ValidateLabels(StrMap(spec, "selector"), sp.Child("selector"))...)
	}
	switch sa := Str(spec, "sessionAffinity"); sa {
	case "":
		errs = append(errs, field.Required(sp.Child("sessionAffinity"), ""))
	case "ClientIP":
		errs = append(errs, validateClientIPAffinity(Obj(spec, "sessionAffinityConfig"), sp.Child("sessionAffinityConfig"))...)
	case "None":
		if Has(spec, "sessionAffinityConfig") {
			errs = append(errs, field.Forbidden(sp.Child("sessionAffinityConfig"), "must not be set when session affinity is None"))
		}
	default:
		errs = append(errs, field.NotSupported(sp.Child("sessionAffinity"), sa, []string{"ClientIP", "None"}))
	}
	errs = append(errs, validateServiceClusterIPs(spec, Obj(old, "spec"))...)
	switch typ {
	case "ClusterIP", "ExternalName", "LoadBalancer", "NodePort":
	case "":
		errs = append(errs, field.Required(sp.Child("type"), ""))
	default:
		errs = append(errs, field.NotSupported(sp.Child("type"), typ, []string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}))
	}
	if typ == "ClusterIP" {
		for i, port := range ports {
			if Int(port, "nodePort") != 0 {
				errs = append(errs, field.Forbidden(sp.Child("ports").Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	nodePorts := map[string]bool{}
	for i, port := range ports {
		np := Int(port, "nodePort")
		if np == 0 {
			continue
		}
		key := fmt.Sprintf("%s/%d", Str(port, "protocol"), np)
		if nodePorts[key] {
			errs = append(errs, field.Duplicate(sp.Child("ports").Index(i).Child("nodePort"), np))
		}
		nodePorts[key] = true
	}
	seen := map[string]bool{}
	for i, port := range ports {
		key := fmt.Sprintf("%s/%d", Str(port, "protocol"), Int(port, "port"))
		if seen[key] {
			// the bad value is the internal ServicePort key {Protocol, Port}
			v := fmt.Sprintf(`{"Name":"","Protocol":%s,"AppProtocol":null,"Port":%d,"TargetPort":0,"NodePort":0}`,
				field.FormatValue(Str(port, "protocol")), Int(port, "port"))
			errs = append(errs, field.Duplicate(sp.Child("ports").Index(i), json.RawMessage(v)))
		}
		seen[key] = true
	}
	if Has(spec, "allocateLoadBalancerNodePorts") && typ != "LoadBalancer" {
		errs = append(errs, field.Forbidden(sp.Child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
	}
	return errs
}

func isHeadless(spec map[string]any) bool {
	ips := Strs(spec, "clusterIPs")
	return len(ips) == 1 && ips[0] == "None"
}

func validateClientIPAffinity(cfg map[string]any, p *field.Path) field.ErrorList {
	const when = "when session affinity type is ClientIP"
	switch {
	case cfg == nil:
		return field.ErrorList{field.Required(p, when)}
	case Obj(cfg, "clientIP") == nil:
		return field.ErrorList{field.Required(p.Child("clientIP"), when)}
	case !Has(Obj(cfg, "clientIP"), "timeoutSeconds"):
		return field.ErrorList{field.Required(p.Child("clientIP").Child("timeoutSeconds"), when)}
	}
	if t := Int(Obj(cfg, "clientIP"), "timeoutSeconds"); t <= 0 || t > 86400 {
		return field.ErrorList{field.Invalid(p.Child("clientIP").Child("timeoutSeconds"), t, "must be greater than 0 and less than 86400")}
	}
	return nil
}

// clusterIPsUnchanged is the change check of validateUpgradeDowngradeClusterIPs.
func clusterIPsUnchanged(spec, old map[string]any) field.ErrorList {
	if Str(spec, "type") == "ExternalName" || Str(old, "type") == "ExternalName" || (isHeadless(spec) && isHeadless(old)) {
		return nil
	}
	nips, oips := Strs(spec, "clusterIPs"), Strs(old, "clusterIPs")
	p := field.NewPath("spec", "clusterIPs")
	var errs field.ErrorList
	switch {
	case len(oips) == len(nips):
		for i, ip := range oips {
			if ip != nips[i] {
				errs = append(errs, field.Invalid(p.Index(i), stringsValue(nips), "may not change once set"))
			}
		}
	case len(oips) > len(nips):
		if len(nips) == 0 {
			errs = append(errs, field.Invalid(p.Index(0), stringsValue(nips), "primary clusterIP can not be unset"))
		}
		if len(oips) > 0 && len(nips) > 0 && nips[0] != oips[0] {
			errs = append(errs, field.Invalid(p.Index(0), stringsValue(nips), "may not change once set"))
		}
	case len(oips) > 0 && nips[0] != oips[0]:
		errs = append(errs, field.Invalid(p.Index(0), stringsValue(nips), "may not change once set"))
	}
	return errs
}

// stringsValue renders a []string bad value (null when empty, as a nil slice).
func stringsValue(l []string) json.RawMessage {
	if len(l) == 0 {
		return json.RawMessage("null")
	}
	b, _ := json.Marshal(l)
	return b
}
