package protobuf

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// field is one entry of a message description (see reference/gen/proto.go
// for the compact form it is parsed from): "replicas=1ie" is the property
// replicas, field 1, an int32 omitted when zero.
type field struct {
	name  string
	num   int
	rep   byte // 0, '*' repeated, '%' map with string keys
	kind  byte // s i l b d y o t c a q x r v j A B S
	pres  byte // z e p n
	group *table
}

// table is a parsed message description.
type table struct {
	fields []*field // in description (Go field) order
	byNum  map[int]*field
	sorted []*field // by field number: the order gogo's Marshal writes
}

var emptyTable = &table{byNum: map[int]*field{}}

var tables sync.Map // description string -> *table or error

// tableOf returns the parsed description of the message schema s.
func tableOf(s *schema.Schema) (*table, error) {
	if s != nil && s.Proto == "" && s.Type == "object" && len(s.Properties) == 0 {
		return emptyTable, nil // a struct without fields
	}
	if s == nil || s.Proto == "" {
		return nil, &Error{Code: ErrSchema, Msg: "no protobuf description for this type"}
	}
	if v, ok := tables.Load(s.Proto); ok {
		if t, ok := v.(*table); ok {
			return t, nil
		}
		return nil, v.(error)
	}
	p := &parser{src: s.Proto}
	t, err := p.list(0)
	if err == nil && p.i != len(p.src) {
		err = p.fail("unexpected %q", p.src[p.i])
	}
	if err != nil {
		tables.Store(s.Proto, err)
		return nil, err
	}
	tables.Store(s.Proto, t)
	return t, nil
}

type parser struct {
	src string
	i   int
}

func (p *parser) fail(format string, args ...any) error {
	return &Error{Code: ErrSchema, Msg: "bad protobuf description at " + strconv.Itoa(p.i) + ": " + sprintf(format, args...)}
}

// list parses fields up to the end of the source or a ")".
func (p *parser) list(depth int) (*table, error) {
	if depth > 8 {
		return nil, p.fail("inline groups nested too deep")
	}
	t := &table{byNum: map[int]*field{}}
	for p.i < len(p.src) && p.src[p.i] != ')' {
		if len(t.fields) > 0 {
			if p.src[p.i] != ',' {
				return nil, p.fail("expected ','")
			}
			p.i++
		}
		f, err := p.field(depth)
		if err != nil {
			return nil, err
		}
		if _, dup := t.byNum[f.num]; dup {
			return nil, p.fail("duplicate field number %d", f.num)
		}
		t.byNum[f.num] = f
		t.fields = append(t.fields, f)
	}
	t.sorted = slices.SortedFunc(slices.Values(t.fields), func(a, b *field) int { return a.num - b.num })
	return t, nil
}

func (p *parser) field(depth int) (*field, error) {
	if strings.HasPrefix(p.src[p.i:], "@") {
		p.i++
		num, err := p.number()
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.src) || p.src[p.i] != '(' {
			return nil, p.fail("expected '('")
		}
		p.i++
		g, err := p.list(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.i >= len(p.src) || p.src[p.i] != ')' {
			return nil, p.fail("expected ')'")
		}
		p.i++
		return &field{num: num, kind: 'o', pres: 'z', group: g}, nil
	}
	eq := strings.IndexByte(p.src[p.i:], '=')
	if eq <= 0 {
		return nil, p.fail("expected NAME=")
	}
	f := &field{name: p.src[p.i : p.i+eq]}
	if strings.ContainsAny(f.name, ",()@") {
		return nil, p.fail("bad name %q", f.name)
	}
	p.i += eq + 1
	num, err := p.number()
	if err != nil {
		return nil, err
	}
	f.num = num
	if p.i < len(p.src) && (p.src[p.i] == '*' || p.src[p.i] == '%') {
		f.rep = p.src[p.i]
		p.i++
	}
	if p.i+2 > len(p.src) {
		return nil, p.fail("expected KIND and PRESENCE")
	}
	f.kind, f.pres = p.src[p.i], p.src[p.i+1]
	if !strings.ContainsRune("silbdyotcaqxrvjABS", rune(f.kind)) {
		return nil, p.fail("unknown kind %q", f.kind)
	}
	if !strings.ContainsRune("zepn", rune(f.pres)) {
		return nil, p.fail("unknown presence %q", f.pres)
	}
	p.i += 2
	return f, nil
}

func (p *parser) number() (int, error) {
	j := p.i
	for j < len(p.src) && j-p.i < 9 && p.src[j] >= '0' && p.src[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(p.src[p.i:j])
	if err != nil || n <= 0 {
		return 0, p.fail("expected a field number")
	}
	p.i = j
	return n, nil
}
