// Package validation checks object metadata the way the Kubernetes API
// server does, with apimachinery's exact message texts (v0.37).
//
// The string checks (IsDNS1123Subdomain, IsQualifiedName, ...) return the
// list of problems as plain messages; an empty list means the value is
// valid. The caller wraps each message in a field.Error, e.g.
//
//	for _, msg := range IsDNS1123Subdomain("Bad_Name") {
//		errs = append(errs, field.Invalid(path, "Bad_Name", msg))
//	}
//
// renders as
//
//	metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of ...
//
// Two message families exist in apimachinery and both are reproduced: the
// DNS checks say "must be no more than 253 characters" while the label-key
// and label-value checks (package content upstream) say "must be no more
// than 63 bytes".
package validation

import (
	"fmt"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/internal/lazyre"
)

// Lengths used by the checks below.
const (
	DNS1123LabelMaxLength     = 63
	DNS1123SubdomainMaxLength = 253
	DNS1035LabelMaxLength     = 63
	LabelValueMaxLength       = 63
	qualifiedNameMaxLength    = 63
)

// Regular expressions as printed in the messages.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
)

const (
	dns1123LabelErrMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelErrMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	qualifiedNameErrMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueErrMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

var (
	dns1123LabelRE     = lazyre.New("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = lazyre.New("^" + dns1123SubdomainFmt + "$")
	dns1035LabelRE     = lazyre.New("^" + dns1035LabelFmt + "$")
	qualifiedNameRE    = lazyre.New("^" + qualifiedNameFmt + "$")
	labelValueRE       = lazyre.New("^" + labelValueFmt + "$")
)

// maxLenChars is the DNS family's length message.
func maxLenChars(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// maxLenBytes is the label family's length message.
func maxLenBytes(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

// EmptyError is the message for a required part that is empty.
func EmptyError() string { return "must be non-empty" }

// RegexError explains a regular-expression failure. Examples are each
// followed by ", " and joined with " or ", which yields apimachinery's
// double space: "(e.g. 'MyValue',  or 'my_value',  or '12345', regex ...)".
func RegexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

// IsDNS1123Subdomain checks a lowercase RFC 1123 subdomain (most object
// names): at most 253 characters of [a-z0-9.-], alphanumeric at both ends.
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLenChars(DNS1123SubdomainMaxLength))
	}
	if !dns1123SubdomainRE.MatchString(value) {
		errs = append(errs, RegexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1123Label checks a lowercase RFC 1123 label (namespace names): at
// most 63 characters of [a-z0-9-]. A valid subdomain with dots gets the
// short message "must not contain dots".
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenChars(DNS1123LabelMaxLength))
	}
	if !dns1123LabelRE.MatchString(value) {
		if dns1123SubdomainRE.MatchString(value) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1035Label checks an RFC 1035 label: like a DNS-1123 label but it
// must start with a letter.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1035LabelMaxLength {
		errs = append(errs, maxLenChars(DNS1035LabelMaxLength))
	}
	if !dns1035LabelRE.MatchString(value) {
		errs = append(errs, RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// isDNS1123SubdomainBytes is the subdomain check of apimachinery's content
// package, used for the prefix of qualified names; it words the length
// limit in bytes.
func isDNS1123SubdomainBytes(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLenBytes(DNS1123SubdomainMaxLength))
	}
	if !dns1123SubdomainRE.MatchString(value) {
		errs = append(errs, RegexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsQualifiedName checks a label key, annotation key or finalizer:
// an optional DNS subdomain prefix and '/', then a name of at most 63
// bytes. Example: "example.com/my-key" is valid, "a/b/c" is not.
func IsQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part "+EmptyError())
		} else {
			for _, m := range isDNS1123SubdomainBytes(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a valid label key "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+EmptyError())
	} else if len(name) > qualifiedNameMaxLength {
		errs = append(errs, "name part "+maxLenBytes(qualifiedNameMaxLength))
	}
	if !qualifiedNameRE.MatchString(name) {
		errs = append(errs, "name part "+RegexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value: empty, or at most 63 bytes of
// [A-Za-z0-9_.-] with alphanumerics at both ends.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLenBytes(LabelValueMaxLength))
	}
	if !labelValueRE.MatchString(value) {
		errs = append(errs, RegexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsPathSegmentName checks a name that appears as one URL path segment: it
// may not be "." or "..", nor contain '/' or '%'.
func IsPathSegmentName(name string) []string {
	for _, bad := range []string{".", ".."} {
		if name == bad {
			return []string{fmt.Sprintf("may not be '%s'", bad)}
		}
	}
	return IsPathSegmentPrefix(name)
}

// IsPathSegmentPrefix checks a generateName prefix for a path segment: it
// may not contain '/' or '%'.
func IsPathSegmentPrefix(name string) []string {
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// NameFunc validates an object name. With prefix true, name is a
// generateName prefix, to which random characters will be appended.
type NameFunc = func(name string, prefix bool) []string

// ValidatePathSegmentName is the path-segment NameFunc: names may be
// anything that fits in one URL path segment.
func ValidatePathSegmentName(name string, prefix bool) []string {
	if prefix {
		return IsPathSegmentPrefix(name)
	}
	return IsPathSegmentName(name)
}

// NameIsPathSegment is ValidatePathSegmentName under its NameFunc name.
func NameIsPathSegment(name string, prefix bool) []string {
	return ValidatePathSegmentName(name, prefix)
}

// NameIsDNSSubdomain is the NameFunc of most resources (custom resources
// included): the name must be a DNS-1123 subdomain.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is the NameFunc of namespaces and similar resources.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// NameIsDNS1035Label is the NameFunc of services and similar resources.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

// ValidateNamespaceName checks metadata.namespace.
func ValidateNamespaceName(name string, prefix bool) []string { return NameIsDNSLabel(name, prefix) }

// maskTrailingDash makes a generateName prefix ending in '-' checkable as a
// whole name, since random characters will follow the dash. Exactly as
// apimachinery, it replaces the last TWO characters with "a":
// "web-" becomes "wea", "a-" becomes "a".
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}
