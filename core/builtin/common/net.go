package common

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/internal/lazyre"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Names, paths, IPs and CIDRs as apimachinery's util/validation checks
// them (the networking, discovery and storage kinds share them).

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	wildcardFmt         = "\\*\\." + dns1123SubdomainFmt
	wildcardErrMsg      = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character"
	httpPathFmt         = `[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`
)

var (
	wildcardRE = lazyre.New("^" + wildcardFmt + "$")
	httpPathRE = lazyre.New("^" + httpPathFmt + "$")
)

// IsWildcardDNS1123Subdomain is apimachinery's IsWildcardDNS1123Subdomain
// ("*.example.com").
func IsWildcardDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, "must be no more than 253 characters")
	}
	if !wildcardRE.MatchString(v) {
		errs = append(errs, validation.RegexError(wildcardErrMsg, wildcardFmt, "*.example.com"))
	}
	return errs
}

// IsDomainPrefixedPath is apimachinery's IsDomainPrefixedPath
// ("acme.io/foo").
func IsDomainPrefixedPath(p *field.Path, v string) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	host, path, ok := strings.Cut(v, "/")
	if !ok || host == "" || path == "" {
		return field.ErrorList{field.Invalid(p, v, "must be a domain-prefixed path (such as \"acme.io/foo\")")}
	}
	var errs field.ErrorList
	for _, m := range validation.IsDNS1123Subdomain(host) {
		errs = append(errs, field.Invalid(p, host, m))
	}
	if !httpPathRE.MatchString(path) {
		errs = append(errs, field.Invalid(p, path, validation.RegexError("Invalid path", httpPathFmt)))
	}
	return errs
}

// IsValidPortNum: 1 to 65535.
func IsValidPortNum(n int64) []string {
	if n >= 1 && n <= 65535 {
		return nil
	}
	return []string{InclusiveRangeError(1, 65535)}
}

// ParseIPSloppy is netutils.ParseIPSloppy: an IP as Go before 1.17 read
// it (IPv4 octets may have leading zeros; no zone).
func ParseIPSloppy(v string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(v); err == nil {
		return a, a.Zone() == ""
	}
	parts := strings.Split(v, ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return netip.Addr{}, false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(n)
	}
	return netip.AddrFrom4(b), true
}

// IsValidIPForLegacyField with strict validation (StrictIPCIDRValidation
// is on in v1.37): unless v is one of old, it must parse, without leading
// zeros and not as an IPv4-mapped IPv6 address.
func IsValidIPForLegacyField(p *field.Path, v string, old []string) field.ErrorList {
	for _, o := range old {
		if o == v {
			return nil
		}
	}
	if _, ok := ParseIPSloppy(v); !ok {
		return field.ErrorList{field.Invalid(p, v, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		return field.ErrorList{field.Invalid(p, v, "must not have leading 0s")}
	}
	if a.Is4In6() {
		return field.ErrorList{field.Invalid(p, v, "must not be an IPv4-mapped IPv6 address")}
	}
	return nil
}

// ParseCIDRSloppy is netutils.ParseCIDRSloppy: the network (masked)
// prefix, ok false when v does not parse.
func ParseCIDRSloppy(v string) (netip.Prefix, bool) {
	ipPart, bits, found := strings.Cut(v, "/")
	if !found || bits == "" || len(bits) > 8 || strings.Trim(bits, "0123456789") != "" {
		return netip.Prefix{}, false
	}
	a, ok := ParseIPSloppy(ipPart)
	if !ok {
		return netip.Prefix{}, false
	}
	n, _ := strconv.Atoi(bits)
	max := 32
	if a.Is6() {
		max = 128
	}
	if n > max {
		return netip.Prefix{}, false
	}
	if a.Is4In6() {
		// net.IP keeps a mapped address as IPv4 for the mask when the
		// mask length is IPv6's
		pf, err := a.Prefix(n)
		return pf, err == nil
	}
	pf, err := a.Prefix(n)
	return pf, err == nil
}

// IsValidCIDRForLegacyField with strict validation: unless v is one of
// old, it must parse, without leading zeros, not IPv4-mapped, and with no
// bits set beyond the prefix length.
func IsValidCIDRForLegacyField(p *field.Path, v string, old []string) field.ErrorList {
	for _, o := range old {
		if o == v {
			return nil
		}
	}
	if _, ok := ParseCIDRSloppy(v); !ok {
		return field.ErrorList{field.Invalid(p, v, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")}
	}
	pf, err := netip.ParsePrefix(v)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(p, v, "must not have leading 0s in IP or prefix length")}
	case pf.Addr().Is4In6():
		return field.ErrorList{field.Invalid(p, v, "must not have an IPv4-mapped IPv6 address")}
	case pf.Addr() != pf.Masked().Addr():
		return field.ErrorList{field.Invalid(p, v, "must not have bits set beyond the prefix length")}
	}
	return nil
}

// WarningsForCIDR is apimachinery's GetWarningsForCIDR for a value that
// passed IsValidCIDRForLegacyField.
//
//	WarningsForCIDR(p, "2001:DB8::/64") → `p: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")`
func WarningsForCIDR(p *field.Path, v string) []string {
	net, ok := ParseCIDRSloppy(v)
	if !ok {
		return nil
	}
	ipPart, _, _ := strings.Cut(v, "/")
	ip, _ := ParseIPSloppy(ipPart)
	var ws []string
	if ip.Unmap() != net.Addr().Unmap() {
		bits := 32
		if !ip.Is4() && !ip.Is4In6() {
			bits = 128
		}
		ws = append(ws, p.String()+": CIDR value "+strconv.Quote(v)+" is ambiguous in this context (should be "+
			strconv.Quote(net.String())+" or "+strconv.Quote(ip.Unmap().String()+"/"+strconv.Itoa(bits))+"?)")
	}
	pf, err := netip.ParsePrefix(v)
	if err != nil || pf.Addr().Is4In6() {
		ws = append(ws, p.String()+": non-standard CIDR value "+strconv.Quote(v)+" is invalid: use "+strconv.Quote(net.String()))
	}
	if len(ws) == 0 && pf.Addr().Is6() && pf.String() != v {
		ws = append(ws, p.String()+": IPv6 CIDR value "+strconv.Quote(v)+" should be in RFC 5952 canonical format ("+strconv.Quote(pf.String())+")")
	}
	return ws
}

// WarningsForIP is apimachinery's GetWarningsForIP for a value that
// passed IsValidIPForLegacyField.
func WarningsForIP(p *field.Path, v string) []string {
	ip, ok := ParseIPSloppy(v)
	if !ok {
		return nil
	}
	a, err := netip.ParseAddr(v)
	if err != nil || a.Is4In6() {
		return []string{p.String() + ": non-standard IP address " + strconv.Quote(v) + " is invalid: use " + strconv.Quote(ip.Unmap().String())}
	}
	if a.Is6() && a.String() != v {
		return []string{p.String() + ": IPv6 address " + strconv.Quote(v) + " should be in RFC 5952 canonical format (" + strconv.Quote(a.String()) + ")"}
	}
	return nil
}
