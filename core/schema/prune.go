package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	v1 "github.com/kubesandbox/kubesandbox/core/schema/internal/v1"
)

// Prune drops the fields of obj that s does not specify, the way the
// apiextensions-apiserver coerces a custom resource it decodes, and
// returns the paths of the dropped fields in the order the server reports
// them as fieldValidation warnings (each becomes `unknown field "<path>"`):
//
//  1. unknown fields of the root metadata (isResourceRoot), e.g. "metadata.bogusMeta";
//  2. fields pruned by the schema, sorted, e.g. "spec.bogus", "topLevelJunk";
//  3. unknown metadata fields of embedded resources, sorted.
//
// apiVersion, kind and metadata are kept at the root (isResourceRoot) and
// in x-kubernetes-embedded-resource objects, whose metadata is normalised
// like an ObjectMeta round trip (unknown and empty fields dropped). A
// subtree with x-kubernetes-preserve-unknown-fields keeps unknown fields
// but its specified properties are still pruned. Nulls that are neither
// nullable nor defaulted are removed afterwards (see PruneNulls).
//
// Prune never fails: metadata fields of the wrong type are dropped, as the
// server does when reading from storage. Use Coerce for request bodies.
func Prune(s *Schema, obj map[string]any, isResourceRoot bool) []string {
	paths, _ := coerce(s, obj, isResourceRoot, true)
	return paths
}

// Coerce is Prune with the strictness of request decoding: root metadata
// whose fields have the wrong type fails with the JSON error the server
// wraps into its 400 ("... cannot be handled as a Widget: json: cannot
// unmarshal string into Go struct field ObjectMeta.labels of type
// map[string]string"), and a non-string apiVersion or kind of an embedded
// resource fails with a *field.Error. On error obj may be partly pruned.
func Coerce(s *Schema, obj map[string]any, isResourceRoot bool) ([]string, error) {
	return coerce(s, obj, isResourceRoot, false)
}

func coerce(s *Schema, obj map[string]any, root, drop bool) ([]string, error) {
	if obj == nil {
		return nil, nil
	}
	var unknown []string
	var meta map[string]any
	metaFound := false
	if root {
		m, found, unk, err := objectMetaOf(obj, "", drop)
		if err != nil && !drop {
			return nil, err
		}
		meta, metaFound = m, found && err == nil
		unknown = append(unknown, unk...)
	}
	unknown = append(unknown, pruneFields(obj, s, root)...)
	PruneNulls(s, obj)
	c := &coercer{drop: drop}
	if err := c.coerce(nil, obj, s, 0); err != nil {
		return unknown, err
	}
	sort.Strings(c.unknown)
	unknown = append(unknown, c.unknown...)
	if metaFound {
		obj["metadata"] = meta
	}
	return unknown, nil
}

var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// pruner mirrors pruning.PruneWithOptions with unknown-field tracking.
type pruner struct {
	parent []string
	paths  []string
}

func (p *pruner) appendKey(k string) {
	if len(p.parent) > 0 {
		p.parent = append(p.parent, ".")
	}
	p.parent = append(p.parent, k)
}

func (p *pruner) appendIndex(i int) { p.parent = append(p.parent, "[", strconv.Itoa(i), "]") }

func (p *pruner) record(k string) {
	l := len(p.parent)
	p.appendKey(k)
	p.paths = append(p.paths, strings.Join(p.parent, ""))
	p.parent = p.parent[:l]
}

// apOf returns the additionalProperties schema and whether the keyword is
// present (true for the boolean form "true", whose schema is nil).
func apOf(s *Schema) (*Schema, bool) {
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties, true
	}
	if s.AdditionalPropertiesBool != nil && *s.AdditionalPropertiesBool {
		return nil, true
	}
	return nil, false
}

func pruneFields(obj any, s *Schema, root bool) []string {
	if root {
		c := Schema{}
		if s != nil {
			c = *s
		}
		c.EmbeddedResource = true
		s = &c
	}
	p := &pruner{}
	p.prune(obj, s, 0)
	sort.Strings(p.paths)
	return p.paths
}

func (p *pruner) prune(x any, s *Schema, depth int) {
	if depth > maxDepth {
		return
	}
	if s != nil && s.PreserveUnknownFields {
		p.skipPrune(x, s, depth)
		return
	}
	l := len(p.parent)
	defer func() { p.parent = p.parent[:l] }()
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for _, k := range slices.Sorted(maps.Keys(x)) {
				p.record(k)
				delete(x, k)
			}
			return
		}
		ap, hasAP := apOf(s)
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s.EmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.appendKey(k)
				p.prune(x[k], prop, depth+1)
				p.parent = p.parent[:l]
			} else if hasAP {
				p.appendKey(k)
				p.prune(x[k], ap, depth+1)
				p.parent = p.parent[:l]
			} else {
				if !metaFields[k] || len(p.parent) > 0 {
					p.record(k)
				}
				delete(x, k)
			}
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.appendIndex(i)
			p.prune(v, items, depth+1)
			p.parent = p.parent[:l]
		}
	}
}

func (p *pruner) skipPrune(x any, s *Schema, depth int) {
	if s == nil || depth > maxDepth {
		return
	}
	l := len(p.parent)
	defer func() { p.parent = p.parent[:l] }()
	switch x := x.(type) {
	case map[string]any:
		ap, hasAP := apOf(s)
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s.EmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.appendKey(k)
				p.prune(x[k], prop, depth+1)
				p.parent = p.parent[:l]
			} else if hasAP {
				p.appendKey(k)
				p.prune(x[k], ap, depth+1)
				p.parent = p.parent[:l]
			}
		}
	case []any:
		for i, v := range x {
			p.appendIndex(i)
			p.skipPrune(v, s.Items, depth+1)
			p.parent = p.parent[:l]
		}
	}
}

// coercer mirrors objectmeta.CoerceWithOptions for embedded resources.
type coercer struct {
	drop    bool
	unknown []string
}

func (c *coercer) coerce(pth *field.Path, x any, s *Schema, depth int) error {
	if s == nil || depth > maxDepth {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			v := x[k]
			if s.EmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := v.(string); !ok && c.drop {
						delete(x, k)
					} else if !ok {
						return field.Invalid(child(pth, k), v, "must be a string")
					}
				case "metadata":
					meta, found, unk, err := objectMetaOf(x, pathString(pth), c.drop)
					c.unknown = append(c.unknown, unk...)
					if err != nil {
						if !c.drop {
							return field.Invalid(child(pth, "metadata"), v, err.Error())
						}
					} else if found {
						x["metadata"] = meta
					}
				}
			}
			if prop, ok := s.Properties[k]; ok {
				if err := c.coerce(child(pth, k), x[k], prop, depth+1); err != nil {
					return err
				}
			} else if s.AdditionalProperties != nil {
				if err := c.coerce(key(pth, k), x[k], s.AdditionalProperties, depth+1); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, v := range x {
			if err := c.coerce(index(pth, i), v, s.Items, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// child, key and index extend a path that may be nil (the root).
func child(p *field.Path, name string) *field.Path { return p.Child(name) }
func key(p *field.Path, k string) *field.Path      { return p.Key(k) }
func index(p *field.Path, i int) *field.Path       { return p.Index(i) }

// pathString renders p, "" for the root.
func pathString(p *field.Path) string {
	if p == nil {
		return ""
	}
	return p.String()
}

var (
	objectMetaKeys = map[string]bool{
		"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
		"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
		"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
		"finalizers": true, "managedFields": true,
	}
	ownerReferenceKeys = map[string]bool{
		"apiVersion": true, "kind": true, "name": true, "uid": true, "controller": true, "blockOwnerDeletion": true,
	}
	managedFieldsKeys = map[string]bool{
		"manager": true, "operation": true, "apiVersion": true, "time": true, "fieldsType": true,
		"fieldsV1": true, "subresource": true,
	}
)

// stripUnknown returns a copy of one metadata object without the fields
// ObjectMeta does not know, and their paths as sigs.k8s.io/json reports
// them in strict mode ("metadata.bogus", "metadata.ownerReferences[0].x").
func stripUnknown(meta map[string]any, prefix string) (map[string]any, []string) {
	out := make(map[string]any, len(meta))
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		v := meta[k]
		if !objectMetaKeys[k] {
			unknown = append(unknown, prefix+"."+k)
			continue
		}
		var known map[string]bool
		switch k {
		case "ownerReferences":
			known = ownerReferenceKeys
		case "managedFields":
			known = managedFieldsKeys
		}
		if l, ok := v.([]any); ok && known != nil {
			cl := make([]any, len(l))
			for i, item := range l {
				m, ok := item.(map[string]any)
				if !ok {
					cl[i] = item
					continue
				}
				cm := make(map[string]any, len(m))
				for _, ik := range slices.Sorted(maps.Keys(m)) {
					if !known[ik] {
						unknown = append(unknown, fmt.Sprintf("%s.%s[%d].%s", prefix, k, i, ik))
						continue
					}
					cm[ik] = m[ik]
				}
				cl[i] = cm
			}
			v = cl
		}
		out[k] = v
	}
	return out, unknown
}

// objectMetaOf decodes obj["metadata"] as ObjectMeta (see
// objectmeta.GetObjectMetaWithOptions) and returns it normalised as the
// server writes it back, whether it was found, and the unknown field
// paths. parent is the path of obj ("" at the root). With drop, fields of
// the wrong type are dropped one by one instead of failing.
func objectMetaOf(obj map[string]any, parent string, drop bool) (map[string]any, bool, []string, error) {
	metadata, found := obj["metadata"]
	if !found {
		return nil, false, nil, nil
	}
	prefix := "metadata"
	if parent != "" {
		prefix = parent + ".metadata"
	}
	if m, ok := metadata.(map[string]any); ok && canonicalMeta(m) {
		return jsonx.CopyObject(m), true, nil, nil // what roundTripMeta would give
	}
	return roundTripMeta(metadata, prefix, drop)
}

// roundTripMeta is metadata decoded into an ObjectMeta and encoded again,
// with the unknown fields it drops.
func roundTripMeta(metadata any, prefix string, drop bool) (map[string]any, bool, []string, error) {
	var om v1.ObjectMeta
	m, isMap := metadata.(map[string]any)
	var unknown []string
	var err error
	if isMap {
		var clean map[string]any
		clean, unknown = stripUnknown(m, prefix)
		err = unmarshalJSONValue(clean, &om)
		if err != nil {
			unknown = nil
			if !drop {
				return nil, true, nil, err
			}
			om = v1.ObjectMeta{}
			for _, k := range slices.Sorted(maps.Keys(clean)) {
				var test v1.ObjectMeta
				single := map[string]any{k: clean[k]}
				if unmarshalJSONValue(single, &test) == nil {
					_ = unmarshalJSONValue(single, &om)
				}
			}
			_, unknown = stripUnknown(m, prefix)
		}
	} else if metadata == nil {
		// null metadata decodes as an empty ObjectMeta.
	} else {
		if err = unmarshalJSONValue(metadata, &om); err != nil && !drop {
			return nil, true, nil, err
		}
		return nil, false, nil, fmt.Errorf("invalid metadata: expected object, got %T", metadata)
	}
	b, err := json.Marshal(om)
	if err != nil {
		return nil, true, unknown, err
	}
	v, err := jsonx.Decode(b)
	if err != nil {
		return nil, true, unknown, err
	}
	out, _ := v.(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	if out["creationTimestamp"] == nil {
		delete(out, "creationTimestamp")
	}
	return out, true, unknown, nil
}

func unmarshalJSONValue(v any, into any) error {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

// canonicalMeta reports whether the ObjectMeta round trip of objectMetaOf
// (JSON → v1.ObjectMeta → JSON) would give back m unchanged: every key is
// one of the fields requests usually carry, with a value of its type that
// omitempty keeps and encoding reproduces. Four JSON passes over the
// metadata of every create are then a copy.
//
//	{"name":"a","labels":{"app":"web"}}           → true
//	{"name":"a","labels":{}}                      → false (dropped as empty)
//	{"creationTimestamp":"2024-01-02T03:04:05Z"}  → true
//	{"creationTimestamp":"2024-01-02T03:04:05.5Z"} → false (the fraction goes)
//	{"generation":3}, {"ownerReferences":[…]}     → false (left to the round trip)
func canonicalMeta(m map[string]any) bool {
	for k, v := range m {
		switch k {
		case "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion":
			if s, ok := v.(string); !ok || s == "" || !utf8.ValidString(s) {
				return false
			}
		case "creationTimestamp":
			s, ok := v.(string)
			if !ok {
				return false
			}
			t, err := time.Parse(time.RFC3339, s)
			if err != nil || t.IsZero() || t.UTC().Format(time.RFC3339) != s {
				return false
			}
		case "labels", "annotations":
			mm, ok := v.(map[string]any)
			if !ok || len(mm) == 0 {
				return false
			}
			for mk, mv := range mm {
				if s, ok := mv.(string); !ok || !utf8.ValidString(mk) || !utf8.ValidString(s) {
					return false
				}
			}
		case "finalizers":
			l, ok := v.([]any)
			if !ok || len(l) == 0 {
				return false
			}
			for _, f := range l {
				if s, ok := f.(string); !ok || !utf8.ValidString(s) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}
