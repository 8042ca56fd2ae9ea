package schema

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Catalogue is a definitions document ({"definitions": {name: schema}},
// the form Load reads) decoded on demand: Get decodes and links one
// definition and the definitions it refers to, transitively, and nothing
// else; All decodes the rest. Whatever order the calls come in, the graph
// is Load's: a definition is decoded once and every reference to it is
// linked to the same node.
//
// A first request for a Namespace needs the Namespace's dozen definitions
// (ObjectMeta, its managed fields, …), not the whole catalogue; a browser
// tab's first visit pays only what its bootstrap writes. Example:
//
//	c := NewCatalogue(doc)
//	ns, err := c.Get("io.k8s.api.core.v1.Namespace") // a dozen definitions
//	all, err := c.All()                               // the rest; all[name] == ns
type Catalogue struct {
	mu     sync.Mutex
	doc    []byte
	spans  map[string]span // each definition's bytes in doc; nil until split
	err    error           // sticky: the document is broken
	l      *linker         // l.defs: decoded, l.final: linked targets
	linked map[string]*Schema
	all    bool
}

type span struct{ start, end int }

// NewCatalogue returns the catalogue of doc; nothing is decoded yet.
func NewCatalogue(doc []byte) *Catalogue {
	return &Catalogue{doc: doc, l: &linker{defs: map[string]*Schema{}, final: map[string]*Schema{}}, linked: map[string]*Schema{}}
}

// Get returns the linked schema of definition name, nil (and no error) if
// the document has none. An error is a broken document (bad JSON, a
// reference to no definition).
func (c *Catalogue) Get(name string) (*Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.linked[name]; ok {
		return s, nil
	}
	if err := c.split(); err != nil {
		return nil, err
	}
	if _, ok := c.spans[name]; !ok {
		return nil, nil
	}
	if err := c.load([]string{name}); err != nil {
		c.err = err
		return nil, err
	}
	return c.linked[name], nil
}

// All returns every definition, linked, as Load does. The map is shared:
// callers must not modify it.
func (c *Catalogue) All() (map[string]*Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.all {
		return c.linked, nil
	}
	if err := c.split(); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(c.spans))
	for n := range c.spans {
		names = append(names, n)
	}
	if err := c.load(names); err != nil {
		c.err = err
		return nil, err
	}
	c.all = true
	return c.linked, nil
}

// load decodes names and what they refer to (those not decoded yet), then
// links them into the graph of the earlier loads.
func (c *Catalogue) load(names []string) error {
	fresh := map[string]*Schema{}
	queue := append([]string(nil), names...)
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if _, done := c.l.defs[n]; done {
			continue
		}
		if _, done := fresh[n]; done {
			continue
		}
		sp, ok := c.spans[n]
		if !ok {
			continue // link reports the unresolved reference
		}
		s, err := decodeDefinition(c.doc[sp.start:sp.end])
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		fresh[n] = s
		walkRefs(s, func(ref string) { queue = append(queue, refName(ref)) })
	}
	for n, s := range fresh {
		c.l.defs[n] = s
	}
	out, err := c.l.link(fresh)
	if err != nil {
		return err
	}
	for n, s := range out {
		c.linked[n] = s
	}
	return nil
}

// decodeDefinition decodes one definition's JSON (null: an empty schema,
// as Load gives it).
func decodeDefinition(raw []byte) (*Schema, error) {
	v, err := jsonx.Decode(raw)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	return fromValue(v)
}

// walkRefs calls fn with every $ref in the (unlinked) tree s.
func walkRefs(s *Schema, fn func(string)) {
	if s == nil {
		return
	}
	if s.Ref != "" {
		fn(s.Ref)
	}
	eachSlot(s, func(c *Schema, _ func(*Schema)) { walkRefs(c, fn) })
}

// split finds each definition's bytes without decoding them: the top-level
// object's "definitions" member, an object of name → value.
func (c *Catalogue) split() error {
	if c.spans != nil || c.err != nil {
		return c.err
	}
	spans := map[string]span{}
	d := c.doc
	var err error
	if end := jsonx.SkipValue(d, skipSpace(d, 0)); end >= 0 && skipSpace(d, end) != len(d) {
		err = fmt.Errorf("input after the document at offset %d", end)
	} else {
		err = eachMember(d, skipSpace(d, 0), func(key string, start, end int) error {
			if key != "definitions" || d[start] == 'n' { // "definitions": null is none
				return nil
			}
			if d[start] != '{' {
				return fmt.Errorf("definitions: expected an object")
			}
			return eachMember(d, start, func(name string, s, e int) error {
				spans[name] = span{s, e}
				return nil
			})
		})
	}
	if err != nil {
		c.err = fmt.Errorf("schema document: %w", err)
		return c.err
	}
	c.spans = spans
	return nil
}

// eachMember calls fn with each member of the JSON object at d[i] and the
// bounds of its value; it returns an error for anything not an object.
func eachMember(d []byte, i int, fn func(key string, start, end int) error) error {
	if i >= len(d) || d[i] != '{' {
		return fmt.Errorf("expected an object at offset %d", i)
	}
	i = skipSpace(d, i+1)
	if i < len(d) && d[i] == '}' {
		return nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return fmt.Errorf("expected a key at offset %d", i)
		}
		end, err := skipValue(d, i)
		if err != nil {
			return err
		}
		key, err := strconv.Unquote(string(d[i:end]))
		if err != nil {
			return fmt.Errorf("key at offset %d: %w", i, err)
		}
		i = skipSpace(d, end)
		if i >= len(d) || d[i] != ':' {
			return fmt.Errorf("expected ':' at offset %d", i)
		}
		start := skipSpace(d, i+1)
		end, err = skipValue(d, start)
		if err != nil {
			return err
		}
		if err := fn(key, start, end); err != nil {
			return err
		}
		i = skipSpace(d, end)
		if i < len(d) && d[i] == ',' {
			i = skipSpace(d, i+1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			return nil
		}
		return fmt.Errorf("expected ',' or '}' at offset %d", i)
	}
}

// skipValue returns the end of the JSON value starting at d[i]
// (jsonx.SkipValue: bounds only; the value is checked when decoded).
func skipValue(d []byte, i int) (int, error) {
	if e := jsonx.SkipValue(d, i); e >= 0 {
		return e, nil
	}
	return 0, fmt.Errorf("expected a complete value at offset %d", i)
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && jsonx.IsSpace(d[i]) {
		i++
	}
	return i
}
