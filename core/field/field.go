// Package field describes validation errors the way Kubernetes words them.
//
// The messages are part of the API: clients and people compare them, and
// the conformance transcripts record them byte for byte. An Error renders as
//
//	metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain ...
//	└─ Field ─────┘└─ Type ──────┘└ BadValue ┘└ Detail ─────────────────────...
//
// which is what k8s.io/apimachinery/pkg/util/validation/field produces.
package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Path is a field path such as spec.containers[0].name.
type Path struct {
	name   string
	index  string
	parent *Path
}

// NewPath starts a path at name, followed by more names.
func NewPath(name string, more ...string) *Path {
	p := &Path{name: name}
	for _, m := range more {
		p = &Path{name: m, parent: p}
	}
	return p
}

// Child returns the path of a named child.
func (p *Path) Child(name string, more ...string) *Path {
	c := NewPath(name, more...)
	root := c
	for root.parent != nil {
		root = root.parent
	}
	root.parent = p
	return c
}

// Index returns the path of a list element.
func (p *Path) Index(i int) *Path { return &Path{index: strconv.Itoa(i), parent: p} }

// Key returns the path of a map entry.
func (p *Path) Key(k string) *Path { return &Path{index: k, parent: p} }

// String renders a.b[0].c[key].
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var elems []*Path
	for e := p; e != nil; e = e.parent {
		elems = append(elems, e)
	}
	var b strings.Builder
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if e.parent != nil && e.name != "" {
			b.WriteByte('.')
		}
		if e.name != "" {
			b.WriteString(e.name)
		} else {
			fmt.Fprintf(&b, "[%s]", e.index)
		}
	}
	return b.String()
}

// Type is the machine-readable kind of a validation failure. Its string
// form is the StatusCause reason.
type Type string

const (
	TypeNotFound     Type = "FieldValueNotFound"
	TypeRequired     Type = "FieldValueRequired"
	TypeDuplicate    Type = "FieldValueDuplicate"
	TypeInvalid      Type = "FieldValueInvalid"
	TypeNotSupported Type = "FieldValueNotSupported"
	TypeForbidden    Type = "FieldValueForbidden"
	TypeTooLong      Type = "FieldValueTooLong"
	TypeTooMany      Type = "FieldValueTooMany"
	TypeInternal     Type = "InternalError"
	TypeTypeInvalid  Type = "FieldValueTypeInvalid"
)

// Text is the human-readable name of a Type.
func (t Type) Text() string {
	switch t {
	case TypeNotFound:
		return "Not found"
	case TypeRequired:
		return "Required value"
	case TypeDuplicate:
		return "Duplicate value"
	case TypeInvalid, TypeTypeInvalid:
		return "Invalid value"
	case TypeNotSupported:
		return "Unsupported value"
	case TypeForbidden:
		return "Forbidden"
	case TypeTooLong:
		return "Too long"
	case TypeTooMany:
		return "Too many"
	case TypeInternal:
		return "Internal error"
	}
	return string(t)
}

// omit marks an Error whose bad value is not shown.
type omitValue struct{}

// OmitValue is a BadValue that is left out of the message.
var OmitValue = omitValue{}

// Error is one validation failure.
type Error struct {
	Type     Type
	Field    string
	BadValue any
	Detail   string
}

func (e *Error) Error() string { return e.Field + ": " + e.Body() }

// Body is the message without the field, as used in StatusCause.message.
func (e *Error) Body() string {
	var s string
	switch e.Type {
	case TypeRequired, TypeForbidden, TypeTooLong, TypeInternal:
		s = e.Type.Text()
	default:
		if _, omit := e.BadValue.(omitValue); omit {
			s = e.Type.Text()
		} else {
			s = e.Type.Text() + ": " + FormatValue(e.BadValue)
		}
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// FormatValue renders a bad value as apimachinery does: strings quoted,
// numbers and booleans bare, null for nil, anything else as JSON.
func FormatValue(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(t)
	case int, int32, int64, float32, float64, bool, json.Number:
		return fmt.Sprint(t)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// ErrorList is a list of validation failures.
type ErrorList []*Error

// Message joins the errors the way an aggregate error does: one error
// alone, several as "[a, b]" (duplicates removed).
func (l ErrorList) Message() string {
	seen := map[string]bool{}
	var msgs []string
	for _, e := range l {
		m := e.Error()
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// Dedup drops the errors whose Error() an earlier one has, keeping the
// order (as kube's ErrorList.ToAggregate, through which declarative
// validation's ErrorList.Filter passes every built-in's errors).
// Example: [labels: bad, labels: bad, annotations: bad] → [labels: bad,
// annotations: bad].
func (l ErrorList) Dedup() ErrorList {
	seen := make(map[string]bool, len(l))
	out := l[:0:0]
	for _, e := range l {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			out = append(out, e)
		}
	}
	return out
}

func Invalid(p *Path, v any, detail string) *Error {
	return &Error{TypeInvalid, p.String(), v, detail}
}
func Required(p *Path, detail string) *Error {
	return &Error{TypeRequired, p.String(), "", detail}
}
func Forbidden(p *Path, detail string) *Error {
	return &Error{TypeForbidden, p.String(), "", detail}
}
func NotFound(p *Path, v any) *Error  { return &Error{TypeNotFound, p.String(), v, ""} }
func Duplicate(p *Path, v any) *Error { return &Error{TypeDuplicate, p.String(), v, ""} }
func InternalError(p *Path, err error) *Error {
	return &Error{TypeInternal, p.String(), nil, err.Error()}
}

// TooLong reports a value longer than max bytes (or items).
func TooLong(p *Path, v any, max int) *Error {
	d := "value is too long"
	if max >= 0 {
		d = fmt.Sprintf("may not be more than %d bytes", max)
	}
	return &Error{TypeTooLong, p.String(), v, d}
}

// TooMany reports a list with more than max items.
func TooMany(p *Path, actual, max int) *Error {
	return &Error{TypeTooMany, p.String(), actual, fmt.Sprintf("must have at most %d items", max)}
}

// NotSupported reports a value outside an enumerated set.
func NotSupported(p *Path, v any, valid []string) *Error {
	d := ""
	if len(valid) > 0 {
		q := make([]string, len(valid))
		for i, s := range valid {
			q[i] = strconv.Quote(s)
		}
		d = "supported values: " + strings.Join(q, ", ")
	}
	return &Error{TypeNotSupported, p.String(), v, d}
}

// TypeInvalid reports a value of the wrong type.
func TypeInvalidf(p *Path, v any, detail string) *Error {
	return &Error{TypeTypeInvalid, p.String(), v, detail}
}
