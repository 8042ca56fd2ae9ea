// Package selector parses and evaluates label and field selectors exactly
// as the Kubernetes API server does (k8s.io/apimachinery pkg/labels and
// pkg/fields, v0.37), including the error texts that a bad
// ?labelSelector= or ?fieldSelector= produces. The server answers a parse
// error with 400 BadRequest whose message is err.Error() unchanged, e.g.
//
//	GET ...?labelSelector=a%20b
//	400 "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"
package selector

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Operator relates a key (or field) to values. The strings are those of
// apimachinery's selection.Operator.
type Operator string

const (
	DoesNotExist Operator = "!"
	Equals       Operator = "="
	DoubleEquals Operator = "=="
	In           Operator = "in"
	NotEquals    Operator = "!="
	NotIn        Operator = "notin"
	Exists       Operator = "exists"
	GreaterThan  Operator = "gt"
	LessThan     Operator = "lt"
)

// binaryOperators is the list printed in "expected:" messages.
const binaryOperators = "in, notin, =, ==, !=, gt, lt"

// Requirement is one term of a label selector, such as "env in (a,b)".
// Values are sorted and distinct; Exists and DoesNotExist have none.
type Requirement struct {
	Key      string
	Operator Operator
	Values   []string
}

// Labels is a parsed label selector: the AND of its requirements, sorted
// by key. The zero value selects everything.
type Labels struct {
	reqs []Requirement
}

// Requirements returns the requirements in key order.
func (s Labels) Requirements() []Requirement { return s.reqs }

// Empty reports whether the selector restricts nothing.
func (s Labels) Empty() bool { return len(s.reqs) == 0 }

// Matches reports whether a set of labels satisfies every requirement.
// A nil map is an object without labels.
func (s Labels) Matches(labels map[string]string) bool {
	for i := range s.reqs {
		if !s.reqs[i].Matches(labels) {
			return false
		}
	}
	return true
}

// String renders the selector canonically: "app=web,env in (a,b),!tier".
func (s Labels) String() string {
	parts := make([]string, len(s.reqs))
	for i := range s.reqs {
		parts[i] = s.reqs[i].String()
	}
	return strings.Join(parts, ",")
}

// Matches evaluates one requirement. NotIn and != match objects that lack
// the key; Gt and Lt need the label to be an integer.
func (r *Requirement) Matches(labels map[string]string) bool {
	v, has := labels[r.Key]
	switch r.Operator {
	case In, Equals, DoubleEquals:
		return has && r.hasValue(v)
	case NotIn, NotEquals:
		return !has || !r.hasValue(v)
	case Exists:
		return has
	case DoesNotExist:
		return !has
	case GreaterThan, LessThan:
		if !has || len(r.Values) != 1 {
			return false
		}
		lv, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		rv, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.Operator == GreaterThan {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

func (r *Requirement) hasValue(v string) bool {
	for _, x := range r.Values {
		if x == v {
			return true
		}
	}
	return false
}

// String renders one requirement: "!k", "k", "k=v", "k in (a,b)", "k>3".
func (r *Requirement) String() string {
	var b strings.Builder
	if r.Operator == DoesNotExist {
		b.WriteString("!")
	}
	b.WriteString(r.Key)
	switch r.Operator {
	case Exists, DoesNotExist:
		return b.String()
	case Equals:
		b.WriteString("=")
	case DoubleEquals:
		b.WriteString("==")
	case NotEquals:
		b.WriteString("!=")
	case In:
		b.WriteString(" in ")
	case NotIn:
		b.WriteString(" notin ")
	case GreaterThan:
		b.WriteString(">")
	case LessThan:
		b.WriteString("<")
	}
	set := r.Operator == In || r.Operator == NotIn
	if set {
		b.WriteString("(")
	}
	vals := r.Values
	if !sort.StringsAreSorted(vals) {
		vals = append([]string(nil), vals...)
		sort.Strings(vals)
	}
	b.WriteString(strings.Join(vals, ","))
	if set {
		b.WriteString(")")
	}
	return b.String()
}

// newRequirement validates a parsed requirement as apimachinery's
// NewRequirement does (the key was already checked by the parser). All
// problems are reported together, as an aggregate:
//
//	values[0][app]: Invalid value: "not ok!": a valid label must be ...
//	[values[0]: Invalid value: "a_": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: ...]
func newRequirement(key string, op Operator, vals []string) (Requirement, error) {
	var errs field.ErrorList
	if msgs := validation.IsQualifiedName(key); len(msgs) > 0 {
		errs = append(errs, field.Invalid(field.NewPath("key"), key, strings.Join(msgs, "; ")))
	}
	valuePath := field.NewPath("values")
	switch op {
	case In, NotIn:
		if len(vals) == 0 {
			errs = append(errs, field.Invalid(valuePath, vals, "for 'in', 'notin' operators, values set can't be empty"))
		}
	case Equals, DoubleEquals, NotEquals:
		if len(vals) != 1 {
			errs = append(errs, field.Invalid(valuePath, vals, "exact-match compatibility requires one single value"))
		}
	case Exists, DoesNotExist:
		if len(vals) != 0 {
			errs = append(errs, field.Invalid(valuePath, vals, "values set must be empty for exists and does not exist"))
		}
	case GreaterThan, LessThan:
		if len(vals) != 1 {
			errs = append(errs, field.Invalid(valuePath, vals, "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range vals {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs = append(errs, field.Invalid(valuePath.Index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"))
			}
		}
	}
	for i, v := range vals {
		if msgs := validation.IsValidLabelValue(v); len(msgs) > 0 {
			errs = append(errs, field.Invalid(valuePath.Index(i).Key(key), v, strings.Join(msgs, "; ")))
		}
	}
	if len(errs) > 0 {
		return Requirement{}, aggregate(errs)
	}
	return Requirement{Key: key, Operator: op, Values: vals}, nil
}

// aggregateError is a list of field errors rendered as one message, the
// way apimachinery's aggregate error does.
type aggregateError field.ErrorList

func (a aggregateError) Error() string { return field.ErrorList(a).Message() }

func aggregate(errs field.ErrorList) error { return aggregateError(errs) }
