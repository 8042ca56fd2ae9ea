package selector

import (
	"fmt"
	"sort"
	"strings"
)

// FieldRequirement is one term of a field selector. Operator is Equals
// (for both "=" and "==") or NotEquals; Value is unescaped.
type FieldRequirement struct {
	Field    string
	Operator Operator
	Value    string
}

// Fields is a parsed field selector: the AND of its terms, in the order of
// their sorted source text. The zero value selects everything.
type Fields struct {
	reqs []FieldRequirement
}

// Requirements returns the terms.
func (s Fields) Requirements() []FieldRequirement { return s.reqs }

// Empty reports whether the selector restricts nothing.
func (s Fields) Empty() bool { return len(s.reqs) == 0 }

// Matches evaluates the selector; get returns an object's value for a
// field. As in apimachinery (fields.Set.Get), a field that get does not
// know has the value "": "x=" matches it and "x!=a" matches it. The API
// server never gets that far with an unknown field: it rejects the
// selector first (see UnsupportedFieldError).
func (s Fields) Matches(get func(field string) (string, bool)) bool {
	for _, r := range s.reqs {
		v := ""
		if get != nil {
			v, _ = get(r.Field)
		}
		if (v == r.Value) != (r.Operator == Equals) {
			return false
		}
	}
	return true
}

// String renders the selector with values escaped: "a=b,c!=d\,e".
// "==" is rendered as "=".
func (s Fields) String() string {
	parts := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		op := "="
		if r.Operator == NotEquals {
			op = "!="
		}
		parts[i] = r.Field + op + EscapeValue(r.Value)
	}
	return strings.Join(parts, ",")
}

// RequiresExactMatch returns the value the selector requires for field
// ("metadata.name=x" requires "x"; "!=" terms require nothing).
func (s Fields) RequiresExactMatch(field string) (string, bool) {
	for _, r := range s.reqs {
		if r.Field == field && r.Operator == Equals {
			return r.Value, true
		}
	}
	return "", false
}

// Check returns UnsupportedFieldError for the first term (in Requirements
// order, which is the order the server checks them in) whose field is not
// supported, or nil.
func (s Fields) Check(supported func(field string) bool) error {
	for _, r := range s.reqs {
		if !supported(r.Field) {
			return UnsupportedFieldError(r.Field)
		}
	}
	return nil
}

// UnsupportedFieldError is the error for a field selector on a field the
// resource does not support. The server answers it with 400 BadRequest and
// this text as the message (transcript list-field-selectors):
//
//	field label not supported: spec.color
//
// Custom resources support metadata.name, metadata.namespace (namespaced
// resources only) and their CRD's selectableFields.
func UnsupportedFieldError(field string) error {
	return fmt.Errorf("field label not supported: %s", field)
}

var valueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// EscapeValue escapes '\', ',' and '=' in a field selector value.
func EscapeValue(s string) string { return valueEscaper.Replace(s) }

// UnescapeValue undoes EscapeValue, with apimachinery's error texts:
//
//	invalid field selector: invalid escape sequence: \x
//	invalid field selector: unescaped character in value: 61
//
// (the unescaped character is printed as its code point: 61 is '=').
// Like upstream, once the value holds a '\', ',' or '=', it is re-encoded
// rune by rune, so invalid UTF-8 becomes U+FFFD.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		if escaped {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			escaped = false
			continue
		}
		switch c {
		case '\\':
			escaped = true
		case ',', '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %v", c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", `\`)
	}
	return b.String(), nil
}

// ParseFields parses a field selector as apimachinery's
// fields.ParseSelector does: comma-separated terms "field=value",
// "field==value" or "field!=value", where ',' '=' and '\' in values are
// escaped with '\'. Terms are sorted by their text; empty terms, and terms
// whose field and value are both empty ("="), are dropped. Errors:
//
//	invalid selector: 'abc'; can't understand 'abc'
func ParseFields(s string) (Fields, error) {
	parts := splitTerms(s)
	sort.Strings(parts)
	var reqs []FieldRequirement
	for _, part := range parts {
		if part == "" {
			continue
		}
		lhs, op, rhs, ok := splitTerm(part)
		if !ok {
			return Fields{}, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		v, err := UnescapeValue(rhs)
		if err != nil {
			return Fields{}, err
		}
		o := Equals
		if op == "!=" {
			o = NotEquals
		}
		if lhs == "" && v == "" {
			continue // upstream's identity transform turns it into "everything"
		}
		reqs = append(reqs, FieldRequirement{Field: lhs, Operator: o, Value: v})
	}
	return Fields{reqs: reqs}, nil
}

// splitTerms splits at commas that are not escaped.
func splitTerms(s string) []string {
	if s == "" {
		return nil
	}
	var terms []string
	start := 0
	escaped := false
	for i, c := range s {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitTerm splits at the first operator: at each position "!=" is tried,
// then "==", then "=".
func splitTerm(term string) (lhs, op, rhs string, ok bool) {
	for i := range term {
		rest := term[i:]
		for _, op := range []string{"!=", "==", "="} {
			if strings.HasPrefix(rest, op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}
