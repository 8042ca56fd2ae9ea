package gen

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The protobuf description of a definition is one compact string, the
// "x-kubesandbox-proto" keyword of the definition (core/schema.Schema.Proto),
// read by core/protobuf. It lists the message's fields as
//
//	NAME=NUM KIND PRESENCE     a field, e.g. "metadata=1oz"
//	@NUM(...)                  a Go struct inlined in JSON but nested in
//	                           protobuf (Volume's VolumeSource is field 2)
//
// separated by commas, in Go field order. For example io.k8s.api.core.v1.Pod
// is "metadata=1oz,spec=2oz,status=3oz" and Volume begins
// "name=1sz,@2(hostPath=1op,emptyDir=2op,...".
//
// KIND is an optional "*" (repeated) or "%" (map with string keys, entries
// {key=1, value=2}) followed by one letter:
//
//	s string   i int32   l int64   b bool   d double (fixed64)   y []byte
//	o message: the property's (element's) definition, which has its own
//	  description
//	t metav1.Time {seconds=1, nanos=2}, seconds precision in JSON
//	c metav1.MicroTime, microseconds
//	a metav1.Duration {duration=1 nanoseconds}, JSON time.Duration text
//	q resource.Quantity {string=1}
//	x intstr.IntOrString {type=1, intVal=2, strVal=3}
//	r runtime.RawExtension / metav1.FieldsV1 {raw=1}: embedded JSON
//	v a named []string as a map value (authentication's ExtraValue): a
//	  message {items = 1 repeated string}, in JSON the list itself
//	j apiextensions JSONSchemaProps: the message described in
//	  core/protobuf/meta.json (io.k8s.apiextensions-apiserver...JSONSchemaProps)
//	A JSONSchemaPropsOrArray {schema = 1, jSONSchemas = 2 repeated}: in
//	  JSON a schema or a list of schemas
//	B JSONSchemaPropsOrBool {allows = 1, schema = 2}: a bool or a schema
//	S JSONSchemaPropsOrStringArray {schema = 1, property = 2 repeated
//	  string}: a schema or a list of strings
//	  (the schema of A, B and S values is JSONSchemaProps')
//
// PRESENCE says what the typed JSON encoding writes for the field, given
// that a field absent on the wire decodes to its Go zero value:
//
//	z always written: a zero value when absent ("", 0, false, {} for a
//	  message, null for a zero Time)
//	e omitted when zero or empty (omitempty scalars, slices, maps; omitzero)
//	p a pointer with omitempty: written exactly when present on the wire
//	n a pointer, slice or map without omitempty: null when absent
func (g *generator) protoOf(owner string, t reflect.Type) string {
	var parts []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		pb := f.Tag.Get("protobuf")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		inline := (f.Anonymous && name == "") || strings.Contains(","+opts+",", ",inline,")
		if pb == "" {
			if !(inline && ft.Name() == "TypeMeta") {
				g.warnf("%s.%s: no protobuf tag", owner, f.Name)
			}
			continue
		}
		num, ok := protoNumber(pb)
		if !ok {
			g.warnf("%s.%s: bad protobuf tag %q", owner, f.Name, pb)
			continue
		}
		if inline && ft.Kind() == reflect.Struct && g.special(ft) == nil {
			parts = append(parts, fmt.Sprintf("@%d(%s)", num, g.protoOf(owner, ft)))
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.ContainsAny(name, "=,()@") {
			g.warnf("%s.%s: property name %q cannot be described", owner, f.Name, name)
			continue
		}
		kind := g.protoKind(owner+"."+name, f.Type)
		if strings.Count(kind, "*")+strings.Count(kind, "%") > 1 {
			// a map of lists (UserInfo.extra): left out, a decoder skips it
			continue
		}
		if strings.Contains(","+opts+",", ",omitzero,") && ft.Kind() == reflect.Struct && kind != "t" && kind != "c" {
			g.warnf("%s.%s: omitzero on %s is not described", owner, name, ft)
		}
		parts = append(parts, fmt.Sprintf("%s=%d%s%c", name, num, kind, presence(f.Type, opts)))
	}
	return strings.Join(parts, ",")
}

// protoNumber is the field number of a protobuf struct tag such as
// "bytes,1,opt,name=metadata".
func protoNumber(tag string) (int, bool) {
	p := strings.Split(tag, ",")
	if len(p) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(p[1])
	return n, err == nil && n > 0
}

// protoKind is the KIND of a Go field type (see protoOf).
func (g *generator) protoKind(where string, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.PkgPath() + "." + t.Name() {
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Time":
		return "t"
	case "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
		return "c"
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Duration":
		return "a"
	case "k8s.io/apimachinery/pkg/api/resource.Quantity":
		return "q"
	case "k8s.io/apimachinery/pkg/util/intstr.IntOrString":
		return "x"
	case "k8s.io/apimachinery/pkg/runtime.RawExtension",
		"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":
		return "r"
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaProps":
		if !g.schemaProps {
			return "j"
		}
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrArray":
		return "A"
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrBool":
		return "B"
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrStringArray":
		return "S"
	}
	switch t.Kind() {
	case reflect.Struct:
		return "o"
	case reflect.String:
		return "s"
	case reflect.Bool:
		return "b"
	case reflect.Int32:
		return "i"
	case reflect.Int64:
		return "l"
	case reflect.Float64:
		return "d"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "y"
		}
		e := g.protoKind(where, t.Elem())
		if strings.ContainsAny(e, "*%") {
			g.warnf("%s: nested repeated type %s", where, t)
		}
		return "*" + e
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			g.warnf("%s: map key %s", where, t.Key())
		}
		if v := t.Elem(); v.Kind() == reflect.Slice && v.Name() != "" && v.Elem().Kind() == reflect.String {
			// a map value cannot be repeated: go-to-protobuf wraps a
			// named []string (ExtraValue) in a message {items = 1}
			return "%v"
		}
		e := g.protoKind(where, t.Elem())
		if strings.ContainsAny(e, "*%") {
			g.warnf("%s: nested repeated type %s", where, t)
		}
		return "%" + e
	}
	g.warnf("%s: no protobuf kind for %s", where, t)
	return "?"
}

// presence is the PRESENCE of a field (see protoOf).
func presence(t reflect.Type, opts string) byte {
	o := "," + opts + ","
	omitempty := strings.Contains(o, ",omitempty,")
	omitzero := strings.Contains(o, ",omitzero,")
	switch t.Kind() {
	case reflect.Pointer:
		if omitempty || omitzero {
			return 'p'
		}
		return 'n'
	case reflect.Slice, reflect.Map:
		if omitempty || omitzero {
			return 'e'
		}
		return 'n'
	case reflect.Struct:
		// omitempty never omits a struct.
		if omitzero {
			return 'e'
		}
		return 'z'
	}
	if omitempty || omitzero {
		return 'e'
	}
	return 'z'
}
