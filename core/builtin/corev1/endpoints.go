package corev1

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Endpoints (ValidateEndpointsCreate/Update and the endpoints strategy).

// DefaultEndpoints is SetDefaults_Endpoints: ports are TCP.
func DefaultEndpoints(obj map[string]any) {
	for _, ss := range Objs(obj, "subsets") {
		for _, p := range Objs(ss, "ports") {
			if Str(p, "protocol") == "" {
				p["protocol"] = "TCP"
			}
		}
	}
}

// ValidateEndpoints is ValidateEndpointsCreate / ValidateEndpointsUpdate:
// subset errors are dropped on an update that leaves the subsets as they
// were (older servers stored such data).
//
//	subsets: [{addresses: [{ip: 127.0.0.1}]}] → subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)
func ValidateEndpoints(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	if old != nil {
		errs = validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)
	}
	sub := validateSubsets(Objs(obj, "subsets"), field.NewPath("subsets"))
	if len(sub) > 0 && old != nil && SemanticEqual(obj["subsets"], old["subsets"]) {
		sub = nil
	}
	return append(errs, sub...)
}

func validateSubsets(subsets []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ss := range subsets {
		ip := p.Index(i)
		if len(List(ss, "addresses")) == 0 && len(List(ss, "notReadyAddresses")) == 0 {
			errs = append(errs, field.Required(ip, "must specify `addresses` or `notReadyAddresses`"))
		}
		for _, k := range []string{"addresses", "notReadyAddresses"} {
			for j, a := range Objs(ss, k) {
				errs = append(errs, validateEndpointAddress(a, ip.Child(k).Index(j))...)
			}
		}
		ports := Objs(ss, "ports")
		for j, port := range ports {
			errs = append(errs, validateEndpointPort(port, len(ports) > 1, ip.Child("ports").Index(j))...)
		}
	}
	return errs
}

func validateEndpointAddress(a map[string]any, p *field.Path) field.ErrorList {
	v := Str(a, "ip")
	errs := IsValidIPForLegacyField(p.Child("ip"), v, nil)
	if h := Str(a, "hostname"); h != "" {
		for _, m := range validation.IsDNS1123Label(h) {
			errs = append(errs, field.Invalid(p.Child("hostname"), h, m))
		}
	}
	if Has(a, "nodeName") {
		n := Str(a, "nodeName")
		for _, m := range validation.NameIsDNSSubdomain(n, false) {
			errs = append(errs, field.Invalid(p.Child("nodeName"), n, m))
		}
	}
	return append(errs, validateEndpointIP(v, p.Child("ip"))...)
}

// validateEndpointIP is ValidateEndpointIP (net.IP's notion of the ranges:
// an IPv4-mapped address is IPv4).
func validateEndpointIP(v string, p *field.Path) field.ErrorList {
	a, ok := ParseIPSloppy(v)
	if !ok {
		return field.ErrorList{field.Invalid(p, v, "must be a valid IP address")}
	}
	a = a.Unmap()
	var errs field.ErrorList
	if a.IsUnspecified() {
		errs = append(errs, field.Invalid(p, v, "may not be unspecified ("+v+")"))
	}
	if a.IsLoopback() {
		errs = append(errs, field.Invalid(p, v, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	}
	if a.IsLinkLocalUnicast() {
		errs = append(errs, field.Invalid(p, v, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	}
	if a.IsLinkLocalMulticast() {
		errs = append(errs, field.Invalid(p, v, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

func validateEndpointPort(port map[string]any, requireName bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	name := Str(port, "name")
	if requireName && name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if name != "" {
		for _, m := range validation.IsDNS1123Label(name) {
			errs = append(errs, field.Invalid(p.Child("name"), name, m))
		}
	}
	n := Int(port, "port")
	for _, m := range IsValidPortNum(n) {
		errs = append(errs, field.Invalid(p.Child("port"), n, m))
	}
	switch pr := Str(port, "protocol"); pr {
	case "":
		errs = append(errs, field.Required(p.Child("protocol"), ""))
	case "TCP", "UDP", "SCTP":
	default:
		errs = append(errs, field.NotSupported(p.Child("protocol"), pr, []string{"SCTP", "TCP", "UDP"}))
	}
	if Has(port, "appProtocol") {
		ap := Str(port, "appProtocol")
		for _, m := range validation.IsQualifiedName(ap) {
			errs = append(errs, field.Invalid(p.Child("appProtocol"), ap, m))
		}
	}
	return errs
}

// EndpointsWarnings is the strategy's endpointsWarnings (create and
// update): non-canonical IPs, unless the endpoints controller wrote them.
func EndpointsWarnings(obj, _ map[string]any) []string {
	if StrMap(Obj(obj, "metadata"), "labels")["endpoints.kubernetes.io/managed-by"] == "endpoint-controller" {
		return nil
	}
	var ws []string
	for i, ss := range Objs(obj, "subsets") {
		for _, k := range []string{"addresses", "notReadyAddresses"} {
			for j, a := range Objs(ss, k) {
				ws = append(ws, WarningsForIP(field.NewPath("subsets").Index(i).Child(k).Index(j).Child("ip"), Str(a, "ip"))...)
			}
		}
	}
	return ws
}
