package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// schemaFields is Schema without its methods, so the codecs below can
// decode and encode the plain fields without recursing into themselves.
type schemaFields Schema

// UnmarshalJSON decodes the OpenAPI v3 form. Besides the plain fields it
// accepts "additionalProperties" as a boolean or a schema, and decodes
// "default" and "enum" the way Kubernetes holds JSON values (integers as
// int64, other numbers as float64), so that
//
//	{"type":"integer","default":1,"enum":[1,2]}
//
// yields Default == int64(1) and Enum == []any{int64(1), int64(2)}.
func (s *Schema) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	var fields schemaFields
	aux := struct {
		*schemaFields
		AdditionalProperties json.RawMessage `json:"additionalProperties,omitempty"`
		Items                json.RawMessage `json:"items,omitempty"`
		Default              json.RawMessage `json:"default,omitempty"`
		Enum                 json.RawMessage `json:"enum,omitempty"`
	}{schemaFields: &fields}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	out := Schema(fields)
	if raw := bytes.TrimSpace(aux.AdditionalProperties); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		switch raw[0] {
		case 't', 'f':
			var v bool
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("additionalProperties: %w", err)
			}
			out.AdditionalPropertiesBool = &v
		default:
			sub := new(Schema)
			if err := json.Unmarshal(raw, sub); err != nil {
				return err
			}
			out.AdditionalProperties = sub
		}
	}
	if raw := bytes.TrimSpace(aux.Items); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if raw[0] == '[' {
			return errors.New("items: the array form is not supported, items must be a schema")
		}
		sub := new(Schema)
		if err := json.Unmarshal(raw, sub); err != nil {
			return err
		}
		out.Items = sub
	}
	if raw := bytes.TrimSpace(aux.Default); len(raw) > 0 {
		v, err := jsonx.Decode(raw)
		if err != nil {
			return fmt.Errorf("default: %w", err)
		}
		out.Default = v
	}
	if raw := bytes.TrimSpace(aux.Enum); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		v, err := jsonx.Decode(raw)
		if err != nil {
			return fmt.Errorf("enum: %w", err)
		}
		l, ok := v.([]any)
		if !ok {
			return errors.New("enum: must be an array")
		}
		out.Enum = l
	}
	*s = out
	return nil
}

// MarshalJSON encodes the OpenAPI v3 form, writing the boolean form of
// additionalProperties back. A graph linked by Load may be cyclic and then
// cannot be encoded.
func (s Schema) MarshalJSON() ([]byte, error) {
	aux := struct {
		*schemaFields
		AdditionalProperties any `json:"additionalProperties,omitempty"`
	}{schemaFields: (*schemaFields)(&s)}
	switch {
	case s.AdditionalPropertiesBool != nil:
		aux.AdditionalProperties = *s.AdditionalPropertiesBool
	case s.AdditionalProperties != nil:
		aux.AdditionalProperties = s.AdditionalProperties
	}
	return json.Marshal(aux)
}

// FromCRD builds the schema of one CRD version from the decoded JSON of
// its spec.versions[].schema.openAPIV3Schema.
func FromCRD(openAPIV3Schema any) (*Schema, error) {
	if _, ok := openAPIV3Schema.(map[string]any); !ok {
		return nil, fmt.Errorf("openAPIV3Schema must be an object, got %T", openAPIV3Schema)
	}
	b, err := jsonx.Marshal(openAPIV3Schema)
	if err != nil {
		return nil, err
	}
	s := new(Schema)
	if err := json.Unmarshal(b, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Load decodes a document {"definitions": {name: schema, ...}} whose nodes
// refer to each other with {"$ref": "name"} or {"$ref": "#/definitions/name"},
// and links every reference into the pointer graph (cycles are fine), so
// that walkers never meet a Ref. A reference with sibling keywords (for
// instance a description or a default next to "$ref", or the generated
// form {"allOf": [{"$ref": ...}], "default": {}}) becomes a shallow copy of
// its target carrying those keywords.
func Load(doc []byte) (map[string]*Schema, error) {
	defs, err := fromDocument(doc)
	if err != nil {
		return nil, err
	}
	return link(defs)
}

// link resolves the references of decoded definitions (see Load).
func link(defs map[string]*Schema) (map[string]*Schema, error) {
	if defs == nil {
		defs = map[string]*Schema{}
	}
	l := &linker{defs: defs, final: map[string]*Schema{}}
	return l.link(defs)
}

// link resolves the references of defs, definitions newly decoded into
// l.defs, against l (the definitions linked before, in l.final, and defs);
// Load links a whole document at once, a Catalogue one closure at a time.
func (l *linker) link(defs map[string]*Schema) (map[string]*Schema, error) {
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make(map[string]*Schema, len(defs))
	for _, n := range names {
		if defs[n] == nil {
			defs[n] = &Schema{}
			l.defs[n] = defs[n]
		}
	}
	for _, n := range names {
		t, err := l.target(n, nil)
		if err != nil {
			return nil, err
		}
		out[n] = t
	}
	// Pass 1: every node reachable from a definition, once.
	seen := map[*Schema]bool{}
	var nodes []*Schema
	var collect func(*Schema)
	collect = func(n *Schema) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		nodes = append(nodes, n)
		eachChild(n, func(c *Schema) *Schema { collect(c); return c })
	}
	for _, n := range names {
		collect(defs[n])
	}
	// Pass 2: plain references become their target; references with
	// sibling keywords are copied after every plain link is in place.
	type job struct {
		ref  string
		over *Schema
		slot func(*Schema)
	}
	var jobs []job
	var firstErr error
	for _, n := range nodes {
		eachSlot(n, func(c *Schema, set func(*Schema)) {
			ref, over := refOf(c)
			if ref == "" {
				return
			}
			t, err := l.target(refName(ref), nil)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			if over == nil {
				set(t)
				return
			}
			jobs = append(jobs, job{ref, over, set})
		})
	}
	if firstErr != nil {
		return nil, firstErr
	}
	for _, j := range jobs {
		t, _ := l.target(refName(j.ref), nil)
		cp := *t
		overlay(&cp, j.over)
		j.slot(&cp)
	}
	return out, nil
}

type linker struct {
	defs  map[string]*Schema
	final map[string]*Schema
}

// target follows a definition through aliases ({"$ref": other} alone) to
// the node that holds the structure.
func (l *linker) target(name string, stack []string) (*Schema, error) {
	if t, ok := l.final[name]; ok {
		return t, nil
	}
	n, ok := l.defs[name]
	if !ok || n == nil {
		return nil, fmt.Errorf("unresolved reference %q", name)
	}
	for _, s := range stack {
		if s == name {
			return nil, fmt.Errorf("circular reference %q", strings.Join(append(stack, name), " -> "))
		}
	}
	t := n
	if ref, _ := refOf(n); ref != "" {
		var err error
		if t, err = l.target(refName(ref), append(stack, name)); err != nil {
			return nil, err
		}
	}
	l.final[name] = t
	return t, nil
}

func refName(ref string) string {
	if strings.HasPrefix(ref, "#/") {
		if i := strings.LastIndexByte(ref, '/'); i >= 0 {
			return ref[i+1:]
		}
	}
	return ref
}

// refOf tells whether n is a reference: its $ref (or that of its only
// allOf member when n has no structure of its own) and, when n carries
// sibling keywords, n itself as the overlay.
func refOf(n *Schema) (string, *Schema) {
	if n == nil {
		return "", nil
	}
	ref := n.Ref
	if ref == "" && n.Type == "" && len(n.AllOf) == 1 && n.AllOf[0] != nil && n.AllOf[0].Ref != "" &&
		n.Properties == nil && n.Items == nil && n.AdditionalProperties == nil &&
		n.AnyOf == nil && n.OneOf == nil && n.Not == nil {
		ref = n.AllOf[0].Ref
	}
	if ref == "" {
		return "", nil
	}
	if n.Description == "" && n.Default == nil && !n.Nullable && n.ListType == "" && n.ListMapKeys == nil &&
		n.MapType == "" && n.PatchStrategy == "" && n.PatchMergeKey == "" && !n.EmbeddedResource &&
		!n.PreserveUnknownFields && !n.IntOrString {
		return ref, nil
	}
	return ref, n
}

// overlay copies the sibling keywords of a reference onto a copy of its target.
func overlay(dst, o *Schema) {
	if o.Description != "" {
		dst.Description = o.Description
	}
	if o.Default != nil {
		dst.Default = o.Default
	}
	dst.Nullable = dst.Nullable || o.Nullable
	if o.ListType != "" {
		dst.ListType = o.ListType
	}
	if o.ListMapKeys != nil {
		dst.ListMapKeys = o.ListMapKeys
	}
	if o.MapType != "" {
		dst.MapType = o.MapType
	}
	if o.PatchStrategy != "" {
		dst.PatchStrategy = o.PatchStrategy
	}
	if o.PatchMergeKey != "" {
		dst.PatchMergeKey = o.PatchMergeKey
	}
	dst.EmbeddedResource = dst.EmbeddedResource || o.EmbeddedResource
	dst.PreserveUnknownFields = dst.PreserveUnknownFields || o.PreserveUnknownFields
	dst.IntOrString = dst.IntOrString || o.IntOrString
}

// eachSlot calls fn for every non-nil child of n with a setter for its slot.
func eachSlot(n *Schema, fn func(c *Schema, set func(*Schema))) {
	keys := make([]string, 0, len(n.Properties))
	for k := range n.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if c := n.Properties[k]; c != nil {
			fn(c, func(v *Schema) { n.Properties[k] = v })
		}
	}
	if n.AdditionalProperties != nil {
		fn(n.AdditionalProperties, func(v *Schema) { n.AdditionalProperties = v })
	}
	if n.Items != nil {
		fn(n.Items, func(v *Schema) { n.Items = v })
	}
	for _, l := range [][]*Schema{n.AllOf, n.AnyOf, n.OneOf} {
		for i, c := range l {
			if c != nil {
				fn(c, func(v *Schema) { l[i] = v })
			}
		}
	}
	if n.Not != nil {
		fn(n.Not, func(v *Schema) { n.Not = v })
	}
}

// eachChild replaces every non-nil child c of n by fn(c).
func eachChild(n *Schema, fn func(*Schema) *Schema) {
	eachSlot(n, func(c *Schema, set func(*Schema)) { set(fn(c)) })
}
