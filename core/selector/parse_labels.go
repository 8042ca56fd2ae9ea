package selector

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ParseLabels parses a label selector with the syntax and the error texts
// of apimachinery's labels.Parse:
//
//	selector    ::= requirement | requirement "," selector
//	requirement ::= ["!"] KEY [ ("in"|"notin") "(" values ")" | ("="|"=="|"!="|">"|"<") VALUE ]
//
// Examples: "app=web", "env in (prod,staging)", "!tier", "replicas>2",
// "x in (a,,b)" (the empty value is allowed). Keys must be qualified names
// and values label values; otherwise the error carries the validation
// message, e.g. for "app=not ok!" (lexed as "app", "=", "not", "ok", "!"):
//
//	found 'ok', expected: ',' or 'end of string'
//
// and for "app=a_":
//
//	unable to parse requirement: values[0][app]: Invalid value: "a_": a valid label must be ...
func ParseLabels(s string) (Labels, error) {
	p := &parser{items: scanAll(s)}
	reqs, err := p.parse()
	if err != nil {
		return Labels{}, err
	}
	// sort.Sort (not a stable sort) on purpose: the same algorithm as
	// upstream gives the same order for requirements with equal keys.
	sort.Sort(byKey(reqs))
	return Labels{reqs: reqs}, nil
}

type byKey []Requirement

func (a byKey) Len() int           { return len(a) }
func (a byKey) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byKey) Less(i, j int) bool { return a[i].Key < a[j].Key }

// context tells whether "in"/"notin" are operators (after a key) or plain
// identifiers (where a key or value is expected).
type context int

const (
	keyAndOperator context = iota
	values
)

type parser struct {
	items []item
	pos   int
}

func (p *parser) at(i int) item {
	if i < len(p.items) {
		return p.items[i]
	}
	return item{tokEnd, ""} // unreachable: the last item is tokEnd
}

func (p *parser) peek(c context) (token, string) {
	it := p.at(p.pos)
	return adjust(it.tok, c), it.lit
}

func (p *parser) take(c context) (token, string) {
	it := p.at(p.pos)
	if p.pos < len(p.items)-1 {
		p.pos++
	}
	return adjust(it.tok, c), it.lit
}

func adjust(t token, c context) token {
	if c == values && (t == tokIn || t == tokNotIn) {
		return tokIdent
	}
	return t
}

func (p *parser) parse() ([]Requirement, error) {
	var reqs []Requirement
	for {
		tok, lit := p.peek(values)
		switch tok {
		case tokIdent, tokNot:
			r, err := p.requirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %v", err)
			}
			reqs = append(reqs, r)
			t, l := p.take(values)
			switch t {
			case tokEnd:
				return reqs, nil
			case tokComma:
				if t2, l2 := p.peek(values); t2 != tokIdent && t2 != tokNot {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", l2)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", l)
			}
		case tokEnd:
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", lit)
		}
	}
}

func (p *parser) requirement() (Requirement, error) {
	key, op, err := p.keyAndInferredOperator()
	if err != nil {
		return Requirement{}, err
	}
	if op == Exists || op == DoesNotExist {
		return newRequirement(key, op, []string{})
	}
	if op, err = p.operator(); err != nil {
		return Requirement{}, err
	}
	var vals []string
	switch op {
	case In, NotIn:
		vals, err = p.valueSet()
	default:
		vals, err = p.exactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	return newRequirement(key, op, vals)
}

// keyAndInferredOperator reads ["!"] KEY; a key followed by "," or the end
// is an existence test.
func (p *parser) keyAndInferredOperator() (string, Operator, error) {
	var op Operator
	tok, lit := p.take(values)
	if tok == tokNot {
		op = DoesNotExist
		tok, lit = p.take(values)
	}
	if tok != tokIdent {
		return "", "", fmt.Errorf("found '%s', expected: identifier", lit)
	}
	if msgs := validation.IsQualifiedName(lit); len(msgs) > 0 {
		// Upstream validates the key against a nil path here, hence "<nil>".
		var nilPath *field.Path
		return "", "", field.Invalid(nilPath, lit, strings.Join(msgs, "; "))
	}
	if t, _ := p.peek(values); t == tokEnd || t == tokComma {
		if op != DoesNotExist {
			op = Exists
		}
	}
	return lit, op, nil
}

func (p *parser) operator() (Operator, error) {
	tok, lit := p.take(keyAndOperator)
	switch tok {
	case tokIn:
		return In, nil
	case tokEquals:
		return Equals, nil
	case tokDoubleEquals:
		return DoubleEquals, nil
	case tokGreater:
		return GreaterThan, nil
	case tokLess:
		return LessThan, nil
	case tokNotIn:
		return NotIn, nil
	case tokNotEquals:
		return NotEquals, nil
	}
	return "", fmt.Errorf("found '%s', expected: %s", lit, binaryOperators)
}

// valueSet reads "(" values ")"; "()" is the set holding the empty value.
func (p *parser) valueSet() ([]string, error) {
	if tok, lit := p.take(values); tok != tokOpenPar {
		return nil, fmt.Errorf("found '%s' expected: '('", lit)
	}
	tok, lit := p.peek(values)
	switch tok {
	case tokIdent, tokComma:
		set, err := p.identifierList()
		if err != nil {
			return nil, err
		}
		if t, _ := p.take(values); t != tokClosePar {
			return nil, fmt.Errorf("found '%s', expected: ')'", lit)
		}
		return set.list(), nil
	case tokClosePar:
		p.take(values)
		return []string{""}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", lit)
}

// identifierList reads comma-separated, possibly empty identifiers up to
// (not including) ")": "a,,b" is {"", "a", "b"}.
func (p *parser) identifierList() (stringSet, error) {
	set := stringSet{}
	for {
		tok, lit := p.take(values)
		switch tok {
		case tokIdent:
			set[lit] = true
			switch t2, l2 := p.peek(values); t2 {
			case tokComma:
				continue
			case tokClosePar:
				return set, nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", l2)
			}
		case tokComma:
			if len(set) == 0 {
				set[""] = true // "(,"
			}
			switch t2, _ := p.peek(values); t2 {
			case tokClosePar:
				set[""] = true // ",)"
				return set, nil
			case tokComma:
				set[""] = true // ",,"
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", lit)
		}
	}
}

// exactValue reads the single value after =, ==, !=, > or <; nothing (end
// or ",") is the empty value.
func (p *parser) exactValue() ([]string, error) {
	if tok, _ := p.peek(values); tok == tokEnd || tok == tokComma {
		return []string{""}, nil
	}
	tok, lit := p.take(values)
	if tok == tokIdent {
		return []string{lit}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", lit)
}

type stringSet map[string]bool

func (s stringSet) list() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
