package gen

import (
	"reflect"
	"sort"

	"github.com/kubesandbox/kubesandbox/core/schema"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MetaRoots are the meta.k8s.io messages a protobuf response needs besides
// the kinds' own (see core/protobuf/meta.json): the ListMeta of every
// list, the Status of every error, the WatchEvent of a watch stream and
// the PartialObjectMetadata(List) of metadata clients. They are kept out
// of core/builtin/schemas.json, whose definitions the OpenAPI index reads.
func MetaRoots() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[metav1.ListMeta](),
		reflect.TypeFor[metav1.Status](),
		reflect.TypeFor[metav1.WatchEvent](),
		reflect.TypeFor[metav1.PartialObjectMetadata](),
		reflect.TypeFor[metav1.PartialObjectMetadataList](),
		// a CRD's openAPIV3Schema ('j' in its description)
		reflect.TypeFor[apiextensionsv1.JSONSchemaProps](),
	}
}

// GenerateMeta returns the document of MetaRoots and what they reach,
// each definition reduced to what core/protobuf reads: the protobuf
// description and the references to nested messages.
func GenerateMeta() (*Document, error) {
	smd, err := loadSMD()
	if err != nil {
		return nil, err
	}
	g := &generator{smd: smd, defs: map[string]*schema.Schema{}, schemaProps: true}
	for _, t := range MetaRoots() {
		g.named(t)
	}
	names := make([]string, 0, len(g.defs))
	for n := range g.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]*schema.Schema{}
	for _, n := range names {
		out[n] = reduce(g.defs[n])
	}
	return &Document{Definitions: out}, nil
}

// reduce keeps the structure of s that leads to a "$ref".
func reduce(s *schema.Schema) *schema.Schema {
	if s == nil {
		return nil
	}
	r := &schema.Schema{Ref: s.Ref, Proto: s.Proto}
	if q := reduce(s.Items); useful(q) {
		r.Items = q
	}
	if q := reduce(s.AdditionalProperties); useful(q) {
		r.AdditionalProperties = q
	}
	for k, p := range s.Properties {
		if q := reduce(p); useful(q) {
			if r.Properties == nil {
				r.Properties = map[string]*schema.Schema{}
			}
			r.Properties[k] = q
		}
	}
	if s.Type == "object" && s.Ref == "" {
		r.Type = "object"
	}
	return r
}

func useful(s *schema.Schema) bool {
	return s != nil && (s.Ref != "" || s.Items != nil || s.AdditionalProperties != nil || len(s.Properties) > 0)
}
