package protobuf

import (
	_ "embed"
	"math/bits"
	"strings"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// metaJSON holds the generated descriptions of the meta.k8s.io messages
// of responses (ListMeta, Status, WatchEvent, PartialObjectMetadata and
// what they reach), written by reference/cmd/genschema.
//
//go:embed meta.json
var metaJSON []byte

var (
	metaOnce sync.Once
	metaDefs map[string]*schema.Schema
)

// Meta is the schema of the meta.k8s.io/v1 message name ("Status",
// "ListMeta", "WatchEvent", "PartialObjectMetadata",
// "PartialObjectMetadataList"), or nil.
func Meta(name string) *schema.Schema {
	metaOnce.Do(func() {
		metaDefs, _ = schema.Load(metaJSON) // fresh and valid: see the package tests
	})
	return metaDefs["io.k8s.apimachinery.pkg.apis.meta.v1."+name]
}

// schemaProps is the schema of apiextensions' JSONSchemaProps, the
// message of a CRD's openAPIV3Schema (kind 'j') and of the values of the
// A, B and S kinds.
func schemaProps() *schema.Schema {
	Meta("") // loads the definitions
	return metaDefs["io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"]
}

// ListOf is the schema of a list whose items have schema item. Every
// built-in list is {metadata = 1 ListMeta, items = 2 repeated item}, the
// layout of the generated PartialObjectMetadataList (reference/roundtrip
// checks it against each kind's List type).
func ListOf(item *schema.Schema) *schema.Schema {
	l := Meta("PartialObjectMetadataList")
	if l == nil {
		return nil
	}
	props := map[string]*schema.Schema{}
	for k, v := range l.Properties {
		props[k] = v
	}
	props["items"] = &schema.Schema{Type: "array", Items: item}
	return &schema.Schema{Type: "object", Properties: props, Proto: l.Proto}
}

// EncodeResponse encodes an API answer whose objects have schema s: a
// Status (errors, and the answers of some deletes), a
// PartialObjectMetadata(List), a list of s (its kind ends in "List" and it
// has items) or an object of s.
func EncodeResponse(obj map[string]any, s *schema.Schema) ([]byte, error) {
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	_, hasItems := obj["items"]
	switch {
	case kind == "Status" && apiVersion == "v1":
		s = Meta("Status")
	case (kind == "PartialObjectMetadata" || kind == "PartialObjectMetadataList") && strings.HasPrefix(apiVersion, "meta.k8s.io/"):
		s = Meta(kind)
	case hasItems && strings.HasSuffix(kind, "List"):
		s = ListOf(s)
	}
	return EncodeObject(obj, s)
}

var encodable sync.Map // *schema.Schema -> bool

// Encodable reports whether objects of schema s can be encoded: s has a
// protobuf description, and so has every message it reaches (the
// CustomResourceDefinition's JSONSchemaProps has none).
func Encodable(s *schema.Schema) bool {
	if s == nil {
		return false
	}
	if v, ok := encodable.Load(s); ok {
		return v.(bool)
	}
	ok := walkEncodable(s, map[*schema.Schema]bool{})
	encodable.Store(s, ok)
	return ok
}

func walkEncodable(s *schema.Schema, seen map[*schema.Schema]bool) bool {
	if seen[s] {
		return true
	}
	seen[s] = true
	t, err := tableOf(s)
	if err != nil {
		return false
	}
	return walkTable(s, t, seen)
}

func walkTable(s *schema.Schema, t *table, seen map[*schema.Schema]bool) bool {
	for _, f := range t.fields {
		switch {
		case f.group != nil:
			if !walkTable(s, f.group, seen) {
				return false
			}
		case f.kind == 'j':
			if schemaProps() == nil {
				return false
			}
		case f.kind == 'o':
			sub := prop(s, f)
			switch f.rep {
			case '*':
				sub = items(s, f)
			case '%':
				sub = values(s, f)
			}
			if sub == nil || !walkEncodable(sub, seen) {
				return false
			}
		}
	}
	return true
}

// EncodeList is EncodeResponse of the list {apiVersion, kind, metadata:
// listMeta, items} whose items, of schema item, are already encoded
// messages (EncodeMessage of each, e.g. kept from earlier answers): the
// same bytes, written into one buffer of the final size instead of
// growing and copying each nesting level.
func EncodeList(apiVersion, kind string, listMeta map[string]any, items [][]byte, item *schema.Schema) ([]byte, error) {
	ls := ListOf(item)
	t, err := tableOf(ls)
	if err != nil {
		return nil, err
	}
	last := t.sorted[len(t.sorted)-1]
	if last.name != "items" || last.rep != '*' || last.kind != 'o' { // not a list's layout: the general way
		raws := make([]any, len(items))
		for i, b := range items {
			raws[i] = Raw(b)
		}
		return EncodeObject(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": listMeta, "items": raws}, ls)
	}
	head, err := (&encoder{}).fields(nil, map[string]any{"metadata": listMeta}, ls, t)
	if err != nil {
		return nil, err
	}
	n := len(head)
	for _, b := range items {
		n += bytesSize(last.num, len(b))
	}
	tm := appendBytes(appendBytes(nil, 1, []byte(apiVersion)), 2, []byte(kind))
	out := make([]byte, 0, len(Prefix)+bytesSize(1, len(tm))+bytesSize(2, n)+4)
	out = append(out, Prefix...)
	out = appendBytes(out, 1, tm)
	out = appendUvarint(appendUvarint(out, 2<<3|wireBytes), uint64(n))
	out = append(out, head...)
	for _, b := range items {
		out = appendBytes(out, last.num, b)
	}
	return appendBytes(appendBytes(out, 3, nil), 4, nil), nil
}

// bytesSize is the length of field num holding l bytes.
func bytesSize(num, l int) int {
	return uvarintLen(uint64(num<<3|wireBytes)) + uvarintLen(uint64(l)) + l
}

// uvarintLen is len(binary.AppendUvarint(nil, x)), without the slice.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }
