package fieldmanager

import (
	"fmt"
	"sort"

	ksschema "github.com/kubesandbox/kubesandbox/core/schema"
	smdschema "sigs.k8s.io/structured-merge-diff/v4/schema"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// Type conversion: our *schema.Schema graph → a structured-merge-diff type.
//
// This is a port of kube-openapi's schemaconv (ToSchemaFromOpenAPI), the code
// the real server runs over a CRD's published OpenAPI. The rules:
//
//	type ""        → untyped scalar + list + map (anything goes)
//	type object    → map: properties are fields; additionalProperties is the
//	                 element type; neither (or x-kubernetes-preserve-unknown-
//	                 fields above) → deduced elements; x-kubernetes-map-type
//	                 atomic/granular → atomic/separable
//	type array     → list: x-kubernetes-list-type atomic (default) / set /
//	                 map + x-kubernetes-list-map-keys; without a list type,
//	                 patch strategy "merge" → associative keyed by the
//	                 patch merge key (a set without one)
//	integer/number → numeric; boolean → boolean; string → string, except
//	                 formats other than "" and "byte" (date-time,
//	                 int-or-string, ...) → untyped scalar
//
// Every distinct node (pointer, and whether an ancestor preserved unknown
// fields) becomes one named type "t<N>", so cyclic graphs terminate.
// The root gets apiVersion, kind and metadata (ObjectMeta) as the CRD
// OpenAPI builder adds them.

const (
	untypedName = "__untyped_atomic_"
	deducedName = "__untyped_deduced_"
	objectMeta  = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	ownerRef    = "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"
	mfEntry     = "io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry"
	rootName    = "__root__"
)

func ptrScalar(s smdschema.Scalar) *smdschema.Scalar { return &s }
func named(n string) smdschema.TypeRef               { return smdschema.TypeRef{NamedType: &n} }

var untypedScalar = smdschema.Scalar("untyped")

// commonTypes are the two helper types schemaconv always adds.
func commonTypes() []smdschema.TypeDef {
	return []smdschema.TypeDef{
		{Name: untypedName, Atom: smdschema.Atom{
			Scalar: ptrScalar(untypedScalar),
			List:   &smdschema.List{ElementType: named(untypedName), ElementRelationship: smdschema.Atomic},
			Map:    &smdschema.Map{ElementType: named(untypedName), ElementRelationship: smdschema.Atomic},
		}},
		{Name: deducedName, Atom: smdschema.Atom{
			Scalar: ptrScalar(untypedScalar),
			List:   &smdschema.List{ElementType: named(untypedName), ElementRelationship: smdschema.Atomic},
			Map:    &smdschema.Map{ElementType: named(deducedName), ElementRelationship: smdschema.Separable},
		}},
	}
}

func field(name string, t smdschema.TypeRef) smdschema.StructField {
	return smdschema.StructField{Name: name, Type: t}
}

func scalarRef(s smdschema.Scalar) smdschema.TypeRef {
	return smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: ptrScalar(s)}}
}

// metaTypes is ObjectMeta as the published OpenAPI (v1.37) describes it.
func metaTypes() []smdschema.TypeDef {
	str, num, boolean, untyped := scalarRef(smdschema.String), scalarRef(smdschema.Numeric), scalarRef(smdschema.Boolean), scalarRef(untypedScalar)
	stringMap := smdschema.TypeRef{Inlined: smdschema.Atom{Map: &smdschema.Map{ElementType: str}}}
	return []smdschema.TypeDef{
		{Name: objectMeta, Atom: smdschema.Atom{Map: &smdschema.Map{Fields: []smdschema.StructField{
			field("annotations", stringMap),
			field("creationTimestamp", untyped),
			field("deletionGracePeriodSeconds", num),
			field("deletionTimestamp", untyped),
			field("finalizers", smdschema.TypeRef{Inlined: smdschema.Atom{List: &smdschema.List{
				ElementType: str, ElementRelationship: smdschema.Associative}}}),
			field("generateName", str),
			field("generation", num),
			field("labels", stringMap),
			field("managedFields", smdschema.TypeRef{Inlined: smdschema.Atom{List: &smdschema.List{
				ElementType: named(mfEntry), ElementRelationship: smdschema.Atomic}}}),
			field("name", str),
			field("namespace", str),
			field("ownerReferences", smdschema.TypeRef{Inlined: smdschema.Atom{List: &smdschema.List{
				ElementType: named(ownerRef), ElementRelationship: smdschema.Associative, Keys: []string{"uid"}}}}),
			field("resourceVersion", str),
			field("selfLink", str),
			field("uid", str),
		}}}},
		{Name: ownerRef, Atom: smdschema.Atom{Map: &smdschema.Map{ElementRelationship: smdschema.Atomic, Fields: []smdschema.StructField{
			field("apiVersion", str),
			field("blockOwnerDeletion", boolean),
			field("controller", boolean),
			field("kind", str),
			field("name", str),
			field("uid", str),
		}}}},
		{Name: mfEntry, Atom: smdschema.Atom{Map: &smdschema.Map{Fields: []smdschema.StructField{
			field("apiVersion", str),
			field("fieldsType", str),
			field("fieldsV1", named(deducedName)),
			field("manager", str),
			field("operation", str),
			field("subresource", str),
			field("time", untyped),
		}}}},
	}
}

type nodeKey struct {
	s        *ksschema.Schema
	preserve bool
}

type converter struct {
	names map[nodeKey]string
	types []smdschema.TypeDef
	errs  []string
}

// ParseableType converts a resource schema into the SMD type of its
// objects. A nil schema gives the deduced type (every field granular,
// every list atomic), as the real server uses for schemaless objects.
func ParseableType(s *ksschema.Schema) (typed.ParseableType, error) {
	if s == nil {
		return typed.DeducedParseableType, nil
	}
	c := &converter{names: map[nodeKey]string{}}
	root := c.parseSchema(s, s.PreserveUnknownFields)
	if root.Map == nil {
		root.Map = &smdschema.Map{ElementType: named(deducedName)}
	}
	m := &smdschema.Map{
		Fields:              append([]smdschema.StructField(nil), root.Map.Fields...),
		ElementType:         root.Map.ElementType,
		ElementRelationship: root.Map.ElementRelationship,
	}
	setField(m, field("apiVersion", scalarRef(smdschema.String)))
	setField(m, field("kind", scalarRef(smdschema.String)))
	setField(m, field("metadata", named(objectMeta)))
	root.Map = m
	if len(c.errs) > 0 {
		return typed.ParseableType{}, fmt.Errorf("failed to convert models to schema: %v", c.errs)
	}
	types := append(c.types, smdschema.TypeDef{Name: rootName, Atom: root})
	types = append(types, metaTypes()...)
	types = append(types, commonTypes()...)
	p := &typed.Parser{Schema: smdschema.Schema{Types: types}}
	return p.Type(rootName), nil
}

// setField replaces or adds a field of m.
func setField(m *smdschema.Map, f smdschema.StructField) {
	for i := range m.Fields {
		if m.Fields[i].Name == f.Name {
			m.Fields[i] = f
			return
		}
	}
	m.Fields = append(m.Fields, f)
}

// ref returns a reference to the named type of node s.
func (c *converter) ref(s *ksschema.Schema, preserve bool) smdschema.TypeRef {
	if s == nil {
		return named(deducedName)
	}
	preserve = preserve || s.PreserveUnknownFields
	k := nodeKey{s, preserve}
	if n, ok := c.names[k]; ok {
		return named(n)
	}
	n := fmt.Sprintf("t%d", len(c.names))
	c.names[k] = n
	idx := len(c.types)
	c.types = append(c.types, smdschema.TypeDef{Name: n})
	atom := c.parseSchema(s, preserve)
	c.types[idx].Atom = atom
	return named(n)
}

func (c *converter) parseSchema(s *ksschema.Schema, preserve bool) smdschema.Atom {
	preserve = preserve || s.PreserveUnknownFields
	switch s.Type {
	case "":
		return smdschema.Atom{
			Scalar: ptrScalar(untypedScalar),
			List:   c.parseList(s, preserve),
			Map:    c.parseObject(s, preserve),
		}
	case "object":
		return smdschema.Atom{Map: c.parseObject(s, preserve)}
	case "array":
		return smdschema.Atom{List: c.parseList(s, preserve)}
	case "integer", "number", "boolean", "string":
		return convertPrimitive(s.Type, s.Format)
	}
	c.errs = append(c.errs, fmt.Sprintf("unrecognized type: '%v'", s.Type))
	return smdschema.Atom{Scalar: ptrScalar(untypedScalar)}
}

func convertPrimitive(typ, format string) smdschema.Atom {
	switch typ {
	case "integer", "number":
		return smdschema.Atom{Scalar: ptrScalar(smdschema.Numeric)}
	case "boolean":
		return smdschema.Atom{Scalar: ptrScalar(smdschema.Boolean)}
	case "string":
		if format == "" || format == "byte" {
			return smdschema.Atom{Scalar: ptrScalar(smdschema.String)}
		}
	}
	return smdschema.Atom{Scalar: ptrScalar(untypedScalar)}
}

func (c *converter) parseObject(s *ksschema.Schema, preserve bool) *smdschema.Map {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	m := &smdschema.Map{}
	for _, n := range names {
		p := s.Properties[n]
		f := smdschema.StructField{Name: n, Type: c.ref(p, preserve)}
		if p != nil {
			f.Default = p.Default
		}
		m.Fields = append(m.Fields, f)
	}
	if s.EmbeddedResource {
		// The CRD OpenAPI builder completes embedded objects with TypeMeta
		// and ObjectMeta where the schema leaves them out.
		for _, f := range []smdschema.StructField{
			field("apiVersion", scalarRef(smdschema.String)),
			field("kind", scalarRef(smdschema.String)),
			field("metadata", named(objectMeta)),
		} {
			if _, ok := s.Properties[f.Name]; !ok {
				m.Fields = append(m.Fields, f)
			}
		}
	}
	switch {
	case s.AdditionalProperties != nil:
		m.ElementType = c.ref(s.AdditionalProperties, preserve)
	case s.AdditionalPropertiesBool != nil:
		// additionalProperties: true deduces unknown fields; false
		// forbids them.
		if *s.AdditionalPropertiesBool {
			m.ElementType = named(deducedName)
		}
	case preserve || len(s.Properties) == 0:
		// No properties and no additionalProperties: a free-form object.
		m.ElementType = named(deducedName)
	}
	switch s.MapType {
	case "":
	case "atomic":
		m.ElementRelationship = smdschema.Atomic
	case "granular":
		m.ElementRelationship = smdschema.Separable
	default:
		c.errs = append(c.errs, fmt.Sprintf("unknown map type %v", s.MapType))
	}
	return m
}

func (c *converter) parseList(s *ksschema.Schema, preserve bool) *smdschema.List {
	l := &smdschema.List{ElementRelationship: smdschema.Atomic}
	switch s.ListType {
	case "atomic":
	case "set":
		l.ElementRelationship = smdschema.Associative
	case "map":
		l.ElementRelationship = smdschema.Associative
		if len(s.ListMapKeys) == 0 {
			c.errs = append(c.errs, "missing map keys")
		}
		l.Keys = append([]string(nil), s.ListMapKeys...)
	case "":
		switch s.PatchStrategy {
		case "merge", "merge,retainKeys":
			l.ElementRelationship = smdschema.Associative
			if s.PatchMergeKey != "" {
				l.Keys = []string{s.PatchMergeKey}
			}
		}
	default:
		c.errs = append(c.errs, fmt.Sprintf("unknown list type %v", s.ListType))
	}
	if s.Items != nil {
		l.ElementType = c.ref(s.Items, preserve)
	} else {
		l.ElementType = named(untypedName)
	}
	return l
}
