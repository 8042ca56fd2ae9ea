package openapi

import (
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// gvk is one entry of x-kubernetes-group-version-kind.
type gvk struct{ group, version, kind string }

func (g gvk) obj() map[string]any {
	return map[string]any{"group": g.group, "kind": g.kind, "version": g.version}
}

// crdRoot is a custom resource kind's schema: it is emitted inline under
// the kind's definition, with the type and object metadata added as the
// apiextensions server does (buildKubeNative).
type crdRoot struct {
	node       *schema.Schema // nil: no schema, the kind is a plain object
	selectable []string       // x-kubernetes-selectable-fields
}

// emitter writes the definitions of one document. Definitions are queued
// by reference and written once each, so a cyclic graph gives a finite
// document.
//
// For example, with v2 false, a built-in property {"$ref": ObjectMeta,
// "default": {}} (an overlay copy in the linked graph) is written as
//
//	{"allOf":[{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}],"default":{}}
//
// and ObjectMeta itself is queued for components.schemas.
type emitter struct {
	v2     bool
	prefix string // "#/components/schemas/" or "#/definitions/"
	idx    *index
	descs  map[string]any // builtin.Descriptions: fragments merged into definitions, or nil
	crds   map[string]*crdRoot
	lists  map[string]map[string]any // prebuilt list kinds
	gvks   map[string][]gvk
	out    map[string]any
	queued map[string]bool
	queue  []string
	stack  map[*schema.Schema]bool
}

// newEmitter returns an emitter of a v2 or v3 document; descs documents
// the built-in definitions (builtin.Descriptions; nil: undocumented).
func newEmitter(v2 bool, descs map[string]any) *emitter {
	e := &emitter{
		v2: v2, prefix: "#/components/schemas/", idx: sharedIndex(), descs: descs,
		crds: map[string]*crdRoot{}, lists: map[string]map[string]any{}, gvks: map[string][]gvk{},
		out: map[string]any{}, queued: map[string]bool{}, stack: map[*schema.Schema]bool{},
	}
	if v2 {
		e.prefix = "#/definitions/"
	}
	return e
}

// addGVK records an x-kubernetes-group-version-kind entry of a definition.
func (e *emitter) addGVK(name string, g gvk) {
	for _, have := range e.gvks[name] {
		if have == g {
			return
		}
	}
	e.gvks[name] = append(e.gvks[name], g)
}

// ref queues name and returns a reference to it.
func (e *emitter) ref(name string) map[string]any {
	if !e.queued[name] {
		e.queued[name] = true
		e.queue = append(e.queue, name)
	}
	return map[string]any{"$ref": e.prefix + name}
}

// refWith is a reference with sibling keywords: the allOf form in v3 (as
// kube-openapi writes it), $ref with siblings in v2. Defaults are left
// out of v2, whose documents carry none.
func (e *emitter) refWith(name, description string, def any) map[string]any {
	var m map[string]any
	if e.v2 {
		m = e.ref(name)
	} else {
		m = map[string]any{"allOf": []any{e.ref(name)}}
		if def != nil {
			m["default"] = def
		}
	}
	if description != "" {
		m["description"] = description
	}
	return m
}

// drain writes every queued definition.
func (e *emitter) drain() {
	for len(e.queue) > 0 {
		name := e.queue[0]
		e.queue = e.queue[1:]
		if _, done := e.out[name]; done {
			continue
		}
		var m map[string]any
		switch {
		case e.lists[name] != nil:
			m = e.lists[name]
		case e.crds[name] != nil:
			m = e.crdKind(name, e.crds[name])
		case e.idx.nodes[name] != nil:
			m = e.inline(e.idx.nodes[name], false)
			if props, ok := m["properties"].(map[string]any); ok {
				for p, ref := range objectRefs[name] {
					if _, ok := props[p]; ok {
						props[p] = e.ref(ref)
					}
				}
			}
		case primitives[name] != nil:
			m = primitives[name](e.v2)
		default:
			m = map[string]any{"type": "object"}
		}
		if f, ok := e.descs[name].(map[string]any); ok && e.crds[name] == nil {
			m = e.merge(m, f)
		}
		if gs := e.gvks[name]; len(gs) > 0 {
			l := make([]any, 0, len(gs))
			for _, g := range gs {
				l = append(l, g.obj())
			}
			m["x-kubernetes-group-version-kind"] = l
		}
		e.out[name] = m
	}
}

// merge adds the documentation fragment f of a built-in definition (see
// builtin.Descriptions) to its schema m, and returns m: f's keywords
// replace m's, except that "properties", "items" and "additionalProperties"
// are merged into m's own, and that a reference (of a documented
// property) takes the form of a reference with siblings, as the real
// server writes it:
//
//	{"$ref":"#/components/schemas/io.k8s.api.core.v1.Lifecycle"} + {"description":"Actions that …"}
//	  = {"allOf":[{"$ref":"#/components/schemas/io.k8s.api.core.v1.Lifecycle"}],"description":"Actions that …"}
//
// (v2: {"$ref":…,"description":…}). v2 documents carry no defaults.
func (e *emitter) merge(m, f map[string]any) map[string]any {
	if _, ok := m["$ref"]; ok && !e.v2 {
		m = map[string]any{"allOf": []any{m}}
	}
	for k, v := range f {
		sub, _ := v.(map[string]any)
		switch {
		case k == "default" && e.v2:
		case k == "properties":
			props, _ := m[k].(map[string]any)
			for p, pf := range sub {
				c, ok1 := props[p].(map[string]any)
				cf, ok2 := pf.(map[string]any)
				if ok1 && ok2 {
					props[p] = e.merge(c, cf)
				}
			}
		case k == "items" || k == "additionalProperties":
			if c, ok := m[k].(map[string]any); ok && sub != nil {
				m[k] = e.merge(c, sub)
			}
		default:
			m[k] = v
		}
	}
	return m
}

// sub writes a child schema: a reference when it is (a copy of) a named
// definition, inline otherwise.
func (e *emitter) sub(n *schema.Schema, crd bool) any {
	if n == nil {
		return map[string]any{}
	}
	if !crd {
		if name, ok := e.idx.nameOf(n); ok {
			return e.ref(name)
		}
		if name := primitiveName(n); name != "" {
			if n.Default != nil {
				return e.refWith(name, "", n.Default)
			}
			return e.ref(name)
		}
		if name, ok := e.idx.copyOf(n); ok {
			return e.overlay(name, n)
		}
	}
	return e.inline(n, crd)
}

// overlay writes an overlay copy of definition name: a reference plus
// the keywords in which the copy differs from the definition.
func (e *emitter) overlay(name string, n *schema.Schema) map[string]any {
	base := e.idx.nodes[name]
	desc := ""
	if n.Description != base.Description {
		desc = n.Description
	}
	var def any
	if n.Default != nil {
		def = n.Default
	}
	m := e.refWith(name, desc, def)
	if !e.v2 && n.Nullable && !base.Nullable {
		m["nullable"] = true
	}
	if n.ListType != base.ListType && n.ListType != "" {
		m["x-kubernetes-list-type"] = n.ListType
	}
	if len(n.ListMapKeys) > 0 && !sameStrings(n.ListMapKeys, base.ListMapKeys) {
		m["x-kubernetes-list-map-keys"] = anyStrings(n.ListMapKeys)
	}
	if n.MapType != base.MapType && n.MapType != "" {
		m["x-kubernetes-map-type"] = n.MapType
	}
	if n.PatchStrategy != base.PatchStrategy && n.PatchStrategy != "" {
		m["x-kubernetes-patch-strategy"] = n.PatchStrategy
	}
	if n.PatchMergeKey != base.PatchMergeKey && n.PatchMergeKey != "" {
		m["x-kubernetes-patch-merge-key"] = n.PatchMergeKey
	}
	if n.EmbeddedResource && !base.EmbeddedResource {
		m["x-kubernetes-embedded-resource"] = true
	}
	if n.PreserveUnknownFields && !base.PreserveUnknownFields {
		m["x-kubernetes-preserve-unknown-fields"] = true
	}
	if n.IntOrString && !base.IntOrString {
		m["x-kubernetes-int-or-string"] = true
	}
	return m
}

// inline writes n's own keywords. crd marks a custom resource schema,
// which v2 documents reduce as ToStructuralOpenAPIV2 does (no nullable,
// no value validation combinators, nothing below preserved unknown
// fields) and whose embedded resources get type and object metadata.
func (e *emitter) inline(n *schema.Schema, crd bool) map[string]any {
	if e.stack[n] {
		// An unnamed cycle: cannot happen with decoded JSON or the
		// generated definitions, but a schema must stay finite.
		return map[string]any{}
	}
	e.stack[n] = true
	defer delete(e.stack, n)

	typ, props, items, required := n.Type, n.Properties, n.Items, n.Required
	if e.v2 && crd {
		if n.Nullable {
			typ, items, props = "", nil, nil
		}
		if n.PreserveUnknownFields {
			items, props = nil, nil
			if typ == "object" {
				typ = ""
			}
		}
		if items == nil && typ == "array" {
			typ = ""
		}
		required = withoutNullable(required, n)
	}
	m := map[string]any{}
	if typ != "" {
		m["type"] = typ
	}
	if n.Format != "" {
		m["format"] = n.Format
	}
	if n.Description != "" {
		m["description"] = n.Description
	}
	if n.Nullable && !e.v2 {
		m["nullable"] = true
	}
	var outProps map[string]any
	if len(props) > 0 {
		outProps = make(map[string]any, len(props))
		for k, c := range props {
			outProps[k] = e.sub(c, crd)
		}
	}
	if crd && n.EmbeddedResource && !(e.v2 && n.PreserveUnknownFields) {
		if outProps == nil {
			outProps = map[string]any{}
		}
		outProps["apiVersion"] = map[string]any{"type": "string", "description": embeddedAPIVersionDoc}
		outProps["kind"] = map[string]any{"type": "string", "description": embeddedKindDoc}
		outProps["metadata"] = e.refWith(objectMetaName, objectMetaDoc, nil)
		required = appendMissing(required, "kind", "apiVersion")
	}
	if outProps != nil {
		m["properties"] = outProps
	}
	switch {
	case n.AdditionalPropertiesBool != nil:
		m["additionalProperties"] = *n.AdditionalPropertiesBool
	case n.AdditionalProperties != nil:
		m["additionalProperties"] = e.sub(n.AdditionalProperties, crd)
	}
	if items != nil {
		m["items"] = e.sub(items, crd)
	}
	if len(required) > 0 {
		m["required"] = anyStrings(required)
	}
	if len(n.Enum) > 0 {
		m["enum"] = n.Enum
	}
	if n.Default != nil && !e.v2 {
		m["default"] = n.Default
	}
	e.constraints(m, n)
	if !e.v2 {
		e.combinators(m, n, crd)
	}
	e.extensions(m, n)
	return m
}

func (e *emitter) constraints(m map[string]any, n *schema.Schema) {
	if n.Maximum != nil {
		m["maximum"] = *n.Maximum
	}
	if n.ExclusiveMaximum {
		m["exclusiveMaximum"] = true
	}
	if n.Minimum != nil {
		m["minimum"] = *n.Minimum
	}
	if n.ExclusiveMinimum {
		m["exclusiveMinimum"] = true
	}
	if n.MultipleOf != nil {
		m["multipleOf"] = *n.MultipleOf
	}
	for k, p := range map[string]*int64{
		"maxLength": n.MaxLength, "minLength": n.MinLength, "maxItems": n.MaxItems,
		"minItems": n.MinItems, "maxProperties": n.MaxProperties, "minProperties": n.MinProperties,
	} {
		if p != nil {
			m[k] = *p
		}
	}
	if n.Pattern != "" {
		m["pattern"] = n.Pattern
	}
	if n.UniqueItems {
		m["uniqueItems"] = true
	}
}

// combinators writes allOf/anyOf/oneOf/not (v3 only). A custom resource's
// x-kubernetes-int-or-string is unfolded into anyOf integer|string as the
// apiextensions server does (Structural.Unfold).
func (e *emitter) combinators(m map[string]any, n *schema.Schema, crd bool) {
	list := func(l []*schema.Schema) []any {
		out := make([]any, 0, len(l))
		for _, c := range l {
			out = append(out, e.sub(c, crd))
		}
		return out
	}
	if len(n.AllOf) > 0 {
		m["allOf"] = list(n.AllOf)
	}
	if len(n.AnyOf) > 0 {
		m["anyOf"] = list(n.AnyOf)
	} else if crd && n.IntOrString && len(n.AllOf) == 0 {
		m["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
	}
	if len(n.OneOf) > 0 {
		m["oneOf"] = list(n.OneOf)
	}
	if n.Not != nil {
		m["not"] = e.sub(n.Not, crd)
	}
}

func (e *emitter) extensions(m map[string]any, n *schema.Schema) {
	if n.PreserveUnknownFields {
		m["x-kubernetes-preserve-unknown-fields"] = true
	}
	if n.EmbeddedResource {
		m["x-kubernetes-embedded-resource"] = true
	}
	if n.IntOrString {
		m["x-kubernetes-int-or-string"] = true
	}
	if n.ListType != "" {
		m["x-kubernetes-list-type"] = n.ListType
	}
	if len(n.ListMapKeys) > 0 {
		m["x-kubernetes-list-map-keys"] = anyStrings(n.ListMapKeys)
	}
	if n.MapType != "" {
		m["x-kubernetes-map-type"] = n.MapType
	}
	if n.PatchStrategy != "" {
		m["x-kubernetes-patch-strategy"] = n.PatchStrategy
	}
	if n.PatchMergeKey != "" {
		m["x-kubernetes-patch-merge-key"] = n.PatchMergeKey
	}
}

// crdKind writes a custom resource kind: its schema with apiVersion, kind
// and metadata (a reference to ObjectMeta) set, or a plain object when it
// has no schema; in v2 a root that preserves unknown fields stays a plain
// object, as kubectl would otherwise reject unknown fields.
func (e *emitter) crdKind(name string, r *crdRoot) map[string]any {
	var m map[string]any
	switch {
	case r.node == nil, e.v2 && r.node.PreserveUnknownFields:
		m = map[string]any{"type": "object"}
	default:
		m = e.inline(r.node, true)
		props, _ := m["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			m["properties"] = props
		}
		props["metadata"] = e.refWith(objectMetaName, objectMetaDoc, nil)
		props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDoc}
		props["kind"] = map[string]any{"type": "string", "description": kindDoc}
	}
	if len(r.selectable) > 0 {
		m["x-kubernetes-selectable-fields"] = selectableFields(r.selectable)
	}
	return m
}

// listKind builds the definition of a list kind, as buildListSchema does.
func (e *emitter) listKind(kindName, kind, listKind, plural string) map[string]any {
	items := map[string]any{"type": "array", "items": e.ref(kindName),
		"description": "List of " + plural + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md"}
	return map[string]any{
		"description": listKind + " is a list of " + kind,
		"type":        "object",
		"required":    []any{"items"},
		"properties": map[string]any{
			"apiVersion": map[string]any{"type": "string", "description": apiVersionDoc},
			"kind":       map[string]any{"type": "string", "description": kindDoc},
			"items":      items,
			"metadata":   e.refWith(listMetaName, listMetaDoc, nil),
		},
	}
}

func withoutNullable(required []string, n *schema.Schema) []string {
	if n.AdditionalProperties != nil && n.AdditionalProperties.Nullable {
		return nil
	}
	var out []string
	for _, r := range required {
		if p := n.Properties[r]; p != nil && p.Nullable {
			continue
		}
		out = append(out, r)
	}
	return out
}

func appendMissing(l []string, names ...string) []string {
	out := append([]string(nil), l...)
	for _, n := range names {
		found := false
		for _, h := range out {
			found = found || h == n
		}
		if !found {
			out = append(out, n)
		}
	}
	return out
}

func anyStrings(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Definition names of the apimachinery types a built-in schema holds inline
// (the generated schemas keep their shape, not their name).
const (
	intOrStringName = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	quantityName    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
)

// primitiveName is the definition a built-in IntOrString or Quantity
// stands for, which the real documents refer to ("" for anything else):
// kubectl explain names a field by its reference when the definition has
// no type, e.g. "maxUnavailable <IntOrString>" and
// "limits <map[string]Quantity>".
func primitiveName(n *schema.Schema) string {
	switch {
	case n.IntOrString && n.Type == "":
		return intOrStringName
	case n.Format == "quantity" && n.Type == "":
		return quantityName
	}
	return ""
}

// objectRefs are the built-in properties the generated schemas hold as a
// plain object that keeps unknown fields, where the real documents refer
// to an apimachinery definition ("fieldsV1 <FieldsV1>" in kubectl explain).
var objectRefs = map[string]map[string]string{
	"io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry": {"fieldsV1": fieldsV1Name},
	"io.k8s.api.apps.v1.ControllerRevision":                   {"data": rawExtensionName},
}

const (
	fieldsV1Name     = "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"
	rawExtensionName = "io.k8s.apimachinery.pkg.runtime.RawExtension"
)

// primitives write those definitions as kube-openapi does in v2 and v3
// (their descriptions are in builtin.Descriptions).
var primitives = map[string]func(v2 bool) map[string]any{
	intOrStringName: func(v2 bool) map[string]any {
		if v2 {
			return map[string]any{"type": "string", "format": "int-or-string"}
		}
		return map[string]any{"format": "int-or-string", "oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}}
	},
	fieldsV1Name:     func(bool) map[string]any { return map[string]any{"type": "object"} },
	rawExtensionName: func(bool) map[string]any { return map[string]any{"type": "object"} },
	quantityName: func(v2 bool) map[string]any {
		if v2 {
			return map[string]any{"type": "string"}
		}
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
	},
}
