package corev1

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// validateServiceClusterIPs is ValidateServiceClusterIPsRelatedFields
// (pkg/apis/core/validation) with StrictIPCIDRValidation on, as in v1.37:
// clusterIP and clusterIPs agree, the IP families and policy are known
// values, every cluster IP is an IP (or a lone "None"), at most one per
// family, and each matches its ipFamilies entry. The sandbox's Service
// strategy has mirrored clusterIP into clusterIPs and set the single-stack
// families by now, as the registry has before kube-apiserver validates.
func validateServiceClusterIPs(spec, oldSpec map[string]any) field.ErrorList {
	if Str(spec, "type") == "ExternalName" {
		return nil
	}
	sp := field.NewPath("spec")
	ipsPath := sp.Child("clusterIPs")
	var errs field.ErrorList
	ips := Strs(spec, "clusterIPs")
	if ip := Str(spec, "clusterIP"); ip != "" {
		if len(ips) == 0 {
			errs = append(errs, field.Required(ipsPath, ""))
		} else if ips[0] != ip {
			errs = append(errs, field.Invalid(ipsPath, stringsValue(ips), "first value must match `clusterIP`"))
		}
	} else if len(ips) != 0 {
		errs = append(errs, field.Invalid(ipsPath, stringsValue(ips), "must be empty when `clusterIP` is not specified"))
	}
	families := Strs(spec, "ipFamilies")
	seen := map[string]bool{}
	for i, f := range families {
		if f != "IPv4" && f != "IPv6" {
			errs = append(errs, field.NotSupported(sp.Child("ipFamilies").Index(i), f, []string{"IPv4", "IPv6"}))
		}
		if seen[f] {
			errs = append(errs, field.Duplicate(sp.Child("ipFamilies").Index(i), f))
		}
		seen[f] = true
	}
	if Has(spec, "ipFamilyPolicy") && spec["ipFamilyPolicy"] != nil {
		if p := Str(spec, "ipFamilyPolicy"); p != "PreferDualStack" && p != "RequireDualStack" && p != "SingleStack" {
			errs = append(errs, field.NotSupported(sp.Child("ipFamilyPolicy"), p, []string{"PreferDualStack", "RequireDualStack", "SingleStack"}))
		}
	}
	old := Strs(oldSpec, "clusterIPs")
	invalid := false
	for i, ip := range ips {
		if i == 0 && ip == "None" {
			if len(ips) > 1 {
				invalid = true
				errs = append(errs, field.Invalid(ipsPath, stringsValue(ips), "'None' must be the first and only value"))
			}
			continue
		}
		if has(old, ip) {
			continue
		}
		if e := legacyIPErrors(ipsPath.Index(i), ip); len(e) > 0 {
			invalid = true
			errs = append(errs, e...)
		}
	}
	if len(ips) > 2 {
		errs = append(errs, field.Invalid(ipsPath, stringsValue(ips), "may only hold up to 2 values"))
	}
	if invalid {
		return errs
	}
	if len(ips) == 2 && isIPv6(ips[0]) == isIPv6(ips[1]) {
		errs = append(errs, field.Invalid(ipsPath, stringsValue(ips), "may specify no more than one IP for each IP family"))
	}
	if !isHeadless(spec) {
		for i, ip := range ips {
			if i >= len(families) {
				break
			}
			if families[i] == "IPv4" && isIPv6(ip) {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%d]`", i)))
			}
			if families[i] == "IPv6" && !isIPv6(ip) {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%d]`", i)))
			}
		}
	}
	return errs
}

// legacyIPErrors is IsValidIPForLegacyField with strict validation: what
// netutils.ParseIPSloppy accepts (IPv4 octets may have leading zeros),
// then no leading zeros and no IPv4-mapped IPv6 address.
func legacyIPErrors(p *field.Path, v string) field.ErrorList {
	addr, err := netip.ParseAddr(v)
	if err != nil || addr.Zone() != "" {
		if sloppyIPv4(v) {
			return field.ErrorList{field.Invalid(p, v, "must not have leading 0s")}
		}
		return field.ErrorList{field.Invalid(p, v, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
	}
	if addr.Is4In6() {
		return field.ErrorList{field.Invalid(p, v, "must not be an IPv4-mapped IPv6 address")}
	}
	return nil
}

// sloppyIPv4 reports a dotted quad of decimal octets ≤ 255 that may have
// leading zeros (the form net.ParseIP of Go < 1.17 accepted).
func sloppyIPv4(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return false
		}
		if n, err := strconv.Atoi(p); err != nil || n > 255 {
			return false
		}
	}
	return true
}

// isIPv6 is netutils.IsIPv6String for an already valid IP.
func isIPv6(v string) bool {
	addr, err := netip.ParseAddr(v)
	return err == nil && addr.Is6() && !addr.Is4In6()
}
