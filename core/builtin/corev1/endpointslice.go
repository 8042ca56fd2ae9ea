package corev1

import (
	"net/netip"
	"slices"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// EndpointSlices (discovery.k8s.io/v1) live here beside Endpoints, whose
// address checks they share.

// DefaultEndpointSlice is SetDefaults_EndpointPort: a port's name
// defaults to "" and its protocol to TCP.
func DefaultEndpointSlice(obj map[string]any) {
	for _, p := range Objs(obj, "ports") {
		if p["name"] == nil {
			p["name"] = ""
		}
		if p["protocol"] == nil {
			p["protocol"] = "TCP"
		}
	}
}

const hostnameLabel = "kubernetes.io/hostname"

// PrepareEndpointSliceCreate and PrepareEndpointSliceUpdate are the
// strategy's dropTopologyOnV1: through the v1 API deprecatedTopology is
// dropped (on update only when the endpoints changed; an endpoint without
// nodeName takes it from the hostname label if the old slice named that
// node).
func PrepareEndpointSliceCreate(obj map[string]any) { PrepareEndpointSliceUpdate(obj, nil) }

func PrepareEndpointSliceUpdate(obj, old map[string]any) {
	if old != nil && SemanticEqual(obj["endpoints"], old["endpoints"]) {
		return
	}
	var prev []string
	for _, ep := range Objs(old, "endpoints") {
		if n := StrMap(ep, "deprecatedTopology")[hostnameLabel]; n != "" {
			prev = append(prev, n)
		}
	}
	for _, ep := range Objs(obj, "endpoints") {
		n, ok := StrMap(ep, "deprecatedTopology")[hostnameLabel]
		if ep["nodeName"] == nil && ok && slices.Contains(prev, n) && len(validation.NameIsDNSSubdomain(n, false)) == 0 {
			ep["nodeName"] = n
		}
		delete(ep, "deprecatedTopology")
	}
}

// ValidateEndpointSlice is ValidateEndpointSliceCreate / Update: the
// address type, ports (names DNS labels and unique, protocols, app
// protocols), endpoints (addresses of the slice's type, node names,
// topology labels, hostnames, hints) — the endpoints' errors are dropped
// on an update that leaves them as they were — and an immutable
// addressType. Example: addressType IPv4 with address "2001:db8::1" →
// endpoints[0].addresses: Invalid value: "2001:db8::1": must be an IPv4 address.
func ValidateEndpointSlice(obj, old map[string]any) field.ErrorList {
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)
	at := Str(obj, "addressType")
	switch at {
	case "":
		errs = append(errs, field.Required(field.NewPath("addressType"), ""))
	case "IPv4", "IPv6", "FQDN":
	default:
		errs = append(errs, field.NotSupported(field.NewPath("addressType"), at, []string{"FQDN", "IPv4", "IPv6"}))
	}
	errs = append(errs, validateSlicePorts(Objs(obj, "ports"), field.NewPath("ports"))...)
	if epErrs := validateSliceEndpoints(Objs(obj, "endpoints"), at, field.NewPath("endpoints")); len(epErrs) > 0 &&
		(old == nil || !SemanticEqual(obj["endpoints"], old["endpoints"])) {
		errs = append(errs, epErrs...)
	}
	if old != nil && at != Str(old, "addressType") {
		errs = append(errs, field.Invalid(field.NewPath("addressType"), at, FieldImmutableErrorMsg))
	}
	return errs
}

func validateSlicePorts(ports []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(ports) > 20000 {
		return field.ErrorList{field.TooMany(p, len(ports), 20000)}
	}
	var names []string
	for i, port := range ports {
		ip := p.Index(i)
		name := Str(port, "name")
		if name != "" {
			errs = append(errs, dns1123Label(name, ip.Child("name"))...)
		}
		if slices.Contains(names, name) {
			errs = append(errs, field.Duplicate(ip.Child("name"), name))
		} else {
			names = append(names, name)
		}
		switch pr := Str(port, "protocol"); pr {
		case "TCP", "UDP", "SCTP":
		case "":
			if port["protocol"] == nil {
				errs = append(errs, field.Required(ip.Child("protocol"), ""))
				break
			}
			fallthrough
		default:
			errs = append(errs, field.NotSupported(ip.Child("protocol"), pr, supportedProtocols))
		}
		if Has(port, "appProtocol") {
			ap := Str(port, "appProtocol")
			for _, m := range validation.IsQualifiedName(ap) {
				errs = append(errs, field.Invalid(ip.Child("appProtocol"), ap, m))
			}
		}
	}
	return errs
}

func validateSliceEndpoints(eps []map[string]any, at string, p *field.Path) field.ErrorList {
	if len(eps) > 1000 {
		return field.ErrorList{field.TooMany(p, len(eps), 1000)}
	}
	var errs field.ErrorList
	for i, ep := range eps {
		ip := p.Index(i)
		ap := ip.Child("addresses")
		addrs := Strs(ep, "addresses")
		if len(addrs) == 0 {
			errs = append(errs, field.Required(ap, "must contain at least 1 address"))
		} else if len(addrs) > 100 {
			errs = append(errs, field.TooMany(ap, len(addrs), 100))
		}
		for j, a := range addrs {
			errs = append(errs, validateSliceAddress(a, at, ap, ap.Index(j))...)
		}
		if Has(ep, "nodeName") {
			n := Str(ep, "nodeName")
			for _, m := range validation.NameIsDNSSubdomain(n, false) {
				errs = append(errs, field.Invalid(ip.Child("nodeName"), n, m))
			}
		}
		tp := ip.Child("deprecatedTopology")
		topo := StrMap(ep, "deprecatedTopology")
		if len(topo) > 16 {
			errs = append(errs, field.TooMany(tp, len(topo), 16))
		}
		errs = append(errs, ValidateLabels(topo, tp)...)
		if _, ok := topo["topology.kubernetes.io/zone"]; ok {
			errs = append(errs, field.InternalError(tp.Key("topology.kubernetes.io/zone"), errReservedKey{}))
		}
		if Has(ep, "hostname") {
			errs = append(errs, dns1123Label(Str(ep, "hostname"), ip.Child("hostname"))...)
		}
		if h, ok := ep["hints"].(map[string]any); ok {
			errs = append(errs, validateHints(h, ip.Child("hints"))...)
		}
	}
	return errs
}

type errReservedKey struct{}

func (errReservedKey) Error() string { return "reserved key was not removed in conversion" }

// validateSliceAddress checks one address of an endpoint (p is the list's
// path, ip the address's).
func validateSliceAddress(a, at string, p, ip *field.Path) field.ErrorList {
	switch at {
	case "IPv4":
		if errs := IsValidIPForLegacyField(ip, a, nil); len(errs) > 0 {
			return errs
		}
		var errs field.ErrorList
		if addr, _ := ParseIPSloppy(a); !addr.Unmap().Is4() {
			errs = append(errs, field.Invalid(p, a, "must be an IPv4 address"))
		}
		return append(errs, validateEndpointIP(a, ip)...)
	case "IPv6":
		addr, ok := ParseIPSloppy(a)
		if !ok {
			return field.ErrorList{field.Invalid(ip, a, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
		}
		strict, err := netip.ParseAddr(a)
		var errs field.ErrorList
		if err != nil {
			errs = append(errs, field.Invalid(ip, a, "must not have leading 0s"))
		}
		if strict.Is4In6() {
			errs = append(errs, field.Invalid(ip, a, "must not be an IPv4-mapped IPv6 address"))
		}
		if c := canonicalIP(addr); len(errs) == 0 && c != a {
			errs = append(errs, field.Invalid(ip, a, "must be in canonical form (\""+c+"\")"))
		}
		if len(errs) > 0 {
			return errs
		}
		if addr.Is4() {
			errs = append(errs, field.Invalid(p, a, "must be an IPv6 address"))
		}
		return append(errs, validateEndpointIP(a, ip)...)
	case "FQDN":
		return isFQDN(ip, a)
	}
	return nil
}

// canonicalIP is net.IP's String of an address: IPv4-mapped addresses
// print as IPv4.
func canonicalIP(a netip.Addr) string { return a.Unmap().String() }

// isFQDN is apimachinery's IsFullyQualifiedDomainName.
func isFQDN(p *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	name = strings.TrimSuffix(name, ".")
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return field.ErrorList{field.Invalid(p, name, strings.Join(errs, ","))}
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return field.ErrorList{field.Invalid(p, name, "should be a domain with at least two segments separated by dots")}
	}
	for _, l := range labels {
		if errs := validation.IsDNS1123Label(l); len(errs) > 0 {
			return field.ErrorList{field.Invalid(p, l, strings.Join(errs, ","))}
		}
	}
	return nil
}

func validateHints(h map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, kind := range []string{"forZones", "forNodes"} {
		hp := p.Child(kind)
		list := Objs(h, kind)
		if len(list) > 8 {
			return append(errs, field.TooMany(hp, len(list), 8))
		}
		var seen []string
		for i, z := range list {
			np := hp.Index(i).Child("name")
			n := Str(z, "name")
			if slices.Contains(seen, n) {
				errs = append(errs, field.Duplicate(np, n))
			} else {
				seen = append(seen, n)
			}
			msgs := validation.IsValidLabelValue(n)
			if kind == "forNodes" {
				msgs = validation.NameIsDNSSubdomain(n, false)
			}
			for _, m := range msgs {
				errs = append(errs, field.Invalid(np, n, m))
			}
		}
	}
	return errs
}
