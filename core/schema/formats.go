package schema

import (
	"encoding/base64"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/internal/lazyre"
)

// Formats are handled as the apiextensions-apiserver does: a format a CRD
// schema may not use is dropped before validation (so it never fails),
// and the supported string formats are checked as kube-openapi's strfmt
// registry does ("date-time" and "datetime" are the same name).

// supportedStringFormats are the string formats of CRD schemas (names
// without dashes), as of Kubernetes 1.37.
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true,
	"rgbcolor": true, "byte": true, "password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// effectiveFormat is the format left after apiextensions'
// StripUnsupportedFormatsPostProcess.
func effectiveFormat(s *Schema) string {
	if s.Format == "" {
		return ""
	}
	typ := s.Type
	if s.IntOrString {
		typ = "int-or-string" // two types: the format is dropped
	}
	switch typ {
	case "", "string":
		if supportedStringFormats[strings.ReplaceAll(s.Format, "-", "")] {
			return s.Format
		}
	case "integer":
		if s.Format == "int32" || s.Format == "int64" {
			return s.Format
		}
	case "number":
		if s.Format == "float" || s.Format == "double" {
			return s.Format
		}
	}
	return ""
}

// knownFormat tells whether the strfmt registry validates strings of this format.
func knownFormat(f string) bool {
	n := strings.ReplaceAll(f, "-", "")
	return supportedStringFormats[n]
}

var (
	rxHostname     = lazyre.New(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID         = lazyre.New(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3        = lazyre.New(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4        = lazyre.New(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5        = lazyre.New(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxHexColor     = lazyre.New(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rxRGBColor     = lazyre.New(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
	rxSSN          = lazyre.New(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxISBN10       = lazyre.New(`^(?:[0-9]{9}X|[0-9]{10})$`)
	rxISBN13       = lazyre.New(`^(?:[0-9]{13})$`)
	rxBSON         = lazyre.New(`^[0-9a-fA-F]{24}$`)
	rxCreditCard   = lazyre.New(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$`)
	rxDuration     = lazyre.New(`^(((\d+)\s*(ns|us|µs|ms|s|m|h|d|w))\s*)+$`)
	rxShortName    = lazyre.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	rxLongNamePart = lazyre.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	rxDate         = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
)

// dateTimeLayouts are the layouts strfmt.ParseDateTime accepts.
var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000Z07:00", // RFC3339Millis
	"2006-01-02T15:04:05.000000Z07:00",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02T15:04:05.000Z0700",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04:05.999999999",
}

// checkFormat reports whether s is valid for the (supported) format f.
func checkFormat(f, s string) bool {
	switch strings.ReplaceAll(f, "-", "") {
	case "uri":
		u, err := url.ParseRequestURI(s)
		return err == nil && u != nil
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address != ""
	case "hostname":
		if !rxHostname.MatchString(s) || len(s) > 255 {
			return false
		}
		for _, p := range strings.Split(s, ".") {
			if len(p) > 63 {
				return false
			}
		}
		return true
	case "ipv4":
		return strings.Contains(s, ".") && parseIPSloppy(s) != nil
	case "ipv6":
		return strings.Contains(s, ":") && net.ParseIP(s) != nil
	case "cidr":
		i := strings.IndexByte(s, '/')
		if i < 0 {
			return false
		}
		if _, _, err := net.ParseCIDR(s); err == nil {
			return true
		}
		return parseIPSloppy(s[:i]) != nil && strings.Trim(s[i+1:], "0123456789") == "" && len(s) > i+1
	case "mac":
		_, err := net.ParseMAC(s)
		return err == nil
	case "uuid":
		return rxUUID.MatchString(s)
	case "uuid3":
		return rxUUID3.MatchString(s)
	case "uuid4":
		return rxUUID4.MatchString(s)
	case "uuid5":
		return rxUUID5.MatchString(s)
	case "isbn":
		return isISBN10(s) || isISBN13(s)
	case "isbn10":
		return isISBN10(s)
	case "isbn13":
		return isISBN13(s)
	case "creditcard":
		return isCreditCard(s)
	case "ssn":
		return s != "" && len(s) >= 9 && rxSSN.MatchString(s)
	case "hexcolor":
		return rxHexColor.MatchString(s)
	case "rgbcolor":
		return rxRGBColor.MatchString(s)
	case "byte":
		_, err := base64.StdEncoding.DecodeString(s)
		return err == nil
	case "password":
		return true
	case "date":
		if !rxDate.MatchString(s) {
			return false
		}
		_, err := time.Parse("2006-01-02", s)
		return err == nil
	case "datetime":
		for _, l := range dateTimeLayouts {
			if _, err := time.Parse(l, s); err == nil {
				return true
			}
		}
		return false
	case "duration":
		if _, err := time.ParseDuration(s); err == nil {
			return true
		}
		return rxDuration.MatchString(s)
	case "bsonobjectid":
		return rxBSON.MatchString(s)
	case "k8sshortname":
		return len(s) <= 63 && rxShortName.MatchString(s)
	case "k8slongname":
		if len(s) > 253 || s == "" {
			return false
		}
		for _, p := range strings.Split(s, ".") {
			if !rxLongNamePart.MatchString(p) {
				return false
			}
		}
		return true
	}
	return true
}

// parseIPSloppy parses an IP address, tolerating leading zeros in IPv4
// octets as k8s.io/utils/net.ParseIPSloppy does.
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return nil
		}
		t := strings.TrimLeft(p, "0")
		if t == "" {
			t = "0"
		}
		parts[i] = t
	}
	return net.ParseIP(strings.Join(parts, "."))
}

func digitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, s)
}

func isISBN10(s string) bool {
	s = digitsOnly(s)
	if !rxISBN10.MatchString(s) {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += (i + 1) * int(s[i]-'0')
	}
	if s[9] == 'X' {
		sum += 100
	} else {
		sum += 10 * int(s[9]-'0')
	}
	return sum%11 == 0
}

func isISBN13(s string) bool {
	s = digitsOnly(s)
	if !rxISBN13.MatchString(s) {
		return false
	}
	sum := 0
	factor := []int{1, 3}
	for i := 0; i < 12; i++ {
		sum += factor[i%2] * int(s[i]-'0')
	}
	return int(s[12]-'0')-((10-(sum%10))%10) == 0
}

func isCreditCard(s string) bool {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	n := b.String()
	if !rxCreditCard.MatchString(n) {
		return false
	}
	sum, double := 0, false
	for i := len(n) - 1; i >= 0; i-- {
		d := int(n[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}
