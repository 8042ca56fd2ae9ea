// Package gen generates core/builtin/schemas.json: the structural schemas of
// the built-in kinds kubesandbox serves, in the JSON form of core/schema.
//
// Two sources are combined:
//   - the Go types of k8s.io/api (walked by reflection): property names from
//     json tags, types, and the strategic-merge-patch struct tags
//     patchStrategy / patchMergeKey;
//   - the server-side-apply schema published with client-go (and
//     apiextensions-apiserver for CustomResourceDefinition): list types
//     (atomic / set / map + keys) and map types (atomic / granular).
//
// Every Go struct becomes one named definition, named as the real server's
// OpenAPI names it ("io.k8s.api.core.v1.PodSpec"); properties refer to it
// with {"$ref": "io.k8s.api.core.v1.PodSpec"}. A "$ref" node may carry
// field-level extensions beside the reference, e.g.
//
//	"strategy": {"$ref": "io.k8s.api.apps.v1.DeploymentStrategy",
//	             "x-kubernetes-patch-strategy": "retainKeys", "default": {}}
//
// Defaults are the published ones (the apply schema's "default"): values
// of +default markers ("protocol": "TCP") and the zero values of the
// fields Go always serialises ("status": {}, "replicas": 0 in a
// ReplicaSetStatus), so that generic schema defaulting makes an object look
// as the real server's typed round trip does.
//
// which the loader overlays on (a copy of) the referenced definition.
package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/schema"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// Document is the generated file.
type Document struct {
	Definitions map[string]*schema.Schema `json:"definitions"`
}

// Result is a generation: the document plus the disagreements found between
// the Go struct tags and the published apply schema (informational).
type Result struct {
	Doc      Document
	Warnings []string
}

// Generate walks the roots (see roots.go) and returns the document.
func Generate() (*Result, error) {
	smd, err := loadSMD()
	if err != nil {
		return nil, err
	}
	g := &generator{smd: smd, defs: map[string]*schema.Schema{}}
	for _, t := range Roots() {
		g.named(t)
	}
	sort.Strings(g.warnings)
	return &Result{Doc: Document{Definitions: g.defs}, Warnings: g.warnings}, nil
}

// Marshal renders the document compactly with a trailing newline. Map keys
// are sorted by encoding/json, so the output is deterministic.
func (d *Document) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type generator struct {
	smd      smdTypes
	defs     map[string]*schema.Schema
	warnings []string
	// schemaProps: describe apiextensions' JSONSchemaProps as the struct
	// it is (for its protobuf description in core/protobuf/meta.json)
	// rather than as the free-form object a CRD's schema holds
	schemaProps bool
}

func (g *generator) warnf(format string, args ...any) {
	g.warnings = append(g.warnings, fmt.Sprintf(format, args...))
}

// DefName is the OpenAPI definition name of a Go type:
// k8s.io/api/core/v1.Pod -> io.k8s.api.core.v1.Pod.
func DefName(t reflect.Type) string {
	path := t.PkgPath()
	parts := strings.Split(path, "/")
	dom := strings.Split(parts[0], ".")
	for i, j := 0, len(dom)-1; i < j; i, j = i+1, j-1 {
		dom[i], dom[j] = dom[j], dom[i]
	}
	parts[0] = strings.Join(dom, ".")
	return strings.Join(parts, ".") + "." + t.Name()
}

// special are types whose schema is not their Go structure.
func special(t reflect.Type) *schema.Schema {
	switch t.PkgPath() + "." + t.Name() {
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Time", "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
		return &schema.Schema{Type: "string", Format: "date-time"}
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Duration":
		return &schema.Schema{Type: "string"}
	case "k8s.io/apimachinery/pkg/util/intstr.IntOrString":
		return &schema.Schema{IntOrString: true}
	case "k8s.io/apimachinery/pkg/api/resource.Quantity":
		// A quantity is a string ("500m") or a JSON number (0.5, 2): any
		// type, recognised by its format.
		return &schema.Schema{Format: "quantity"}
	case "k8s.io/apimachinery/pkg/runtime.RawExtension":
		// embedded JSON, owned as a whole: the real server's managedFields
		// hold "f:data": {} of a ControllerRevision, not its inner fields
		return &schema.Schema{Type: "object", PreserveUnknownFields: true, MapType: "atomic"}
	case "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaProps":
		return &schema.Schema{Type: "object", PreserveUnknownFields: true}
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":
		return &schema.Schema{PreserveUnknownFields: true}
	}
	return nil
}

// special is the package's special, but for JSONSchemaProps when
// g.schemaProps: then it is a struct, and the OrArray/OrBool/
// OrStringArray wrappers stand for it (their values are JSONSchemaProps).
func (g *generator) special(t reflect.Type) *schema.Schema {
	if g.schemaProps {
		switch t.PkgPath() + "." + t.Name() {
		case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaProps":
			return nil
		case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrArray",
			"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrBool",
			"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSONSchemaPropsOrStringArray":
			return g.named(reflect.TypeFor[apiextensionsv1.JSONSchemaProps]())
		}
	}
	return special(t)
}

// named makes sure the struct type t has a definition and returns a
// reference to it (or the inline schema of a special type).
func (g *generator) named(t reflect.Type) *schema.Schema {
	if s := g.special(t); s != nil {
		return s
	}
	name := DefName(t)
	if _, done := g.defs[name]; !done {
		def := &schema.Schema{Type: "object"}
		g.defs[name] = def // before the walk: types may be recursive
		if _, ok := g.smd[name]; !ok {
			g.warnf("%s: not in the apply schema", name)
		}
		if g.smd.structAtomic(name) {
			def.MapType = "atomic"
		}
		g.fields(def, name, t)
		g.checkFields(def, name)
		def.Proto = g.protoOf(name, t)
	}
	return &schema.Schema{Ref: name}
}

// fields adds the properties of struct t (inlined members included) to def;
// owner is the definition name whose SMD fields describe them.
func (g *generator) fields(def *schema.Schema, owner string, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if (f.Anonymous && name == "") || strings.Contains(","+opts+",", ",inline,") {
			if ft.Kind() == reflect.Struct && g.special(ft) == nil {
				g.fields(def, owner, ft)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		node := g.node(ft)
		g.decorate(node, owner, name, f)
		if mayBeNull(f.Type, opts) {
			node.Nullable = true
		}
		if def.Properties == nil {
			def.Properties = map[string]*schema.Schema{}
		}
		def.Properties[name] = node
	}
}

// node is the schema of a Go type (pointers already removed).
func (g *generator) node(t reflect.Type) *schema.Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s := g.special(t); s != nil {
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		return g.named(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return &schema.Schema{Type: "string", Format: "byte"}
		}
		return &schema.Schema{Type: "array", Items: g.node(t.Elem())}
	case reflect.Map:
		return &schema.Schema{Type: "object", AdditionalProperties: g.node(t.Elem())}
	case reflect.String:
		return &schema.Schema{Type: "string"}
	case reflect.Bool:
		return &schema.Schema{Type: "boolean"}
	case reflect.Int32, reflect.Uint32, reflect.Int16, reflect.Uint16, reflect.Int8, reflect.Uint8:
		return &schema.Schema{Type: "integer", Format: "int32"}
	case reflect.Int64, reflect.Uint64, reflect.Int, reflect.Uint:
		return &schema.Schema{Type: "integer", Format: "int64"}
	case reflect.Float32, reflect.Float64:
		return &schema.Schema{Type: "number", Format: "double"}
	case reflect.Interface:
		return &schema.Schema{PreserveUnknownFields: true}
	}
	g.warnf("%s: unsupported kind %s", t, t.Kind())
	return &schema.Schema{}
}

// decorate adds the field-level extensions of field name of owner: list
// and map types from the apply schema, patch strategy from the struct tags.
func (g *generator) decorate(node *schema.Schema, owner, name string, f reflect.StructField) {
	where := owner + "." + name
	node.PatchStrategy = f.Tag.Get("patchStrategy")
	node.PatchMergeKey = f.Tag.Get("patchMergeKey")

	sf, ok := g.smd.field(owner, name)
	if !ok {
		if g.smd[owner] != nil {
			g.warnf("%s: not in the apply schema", where)
		}
		return
	}
	// The published default: +default markers, and the zero value of a
	// field Go always serialises (no omitempty), e.g. "metadata": {}.
	if sf.Default != nil {
		d, err := jsonValue(sf.Default)
		if err != nil {
			g.warnf("%s: default: %v", where, err)
		} else {
			node.Default = d
		}
	}
	ref := sf.Type
	switch {
	case ref.Inlined.List != nil:
		if node.Type != "array" {
			g.warnf("%s: apply schema says list, Go type is %s", where, node.Type)
			return
		}
		l := ref.Inlined.List
		switch {
		case l.ElementRelationship == smdschema.Associative && len(l.Keys) > 0:
			node.ListType = "map"
			node.ListMapKeys = append([]string(nil), l.Keys...)
		case l.ElementRelationship == smdschema.Associative:
			node.ListType = "set"
		default:
			node.ListType = "atomic"
		}
	case ref.Inlined.Map != nil:
		if ref.Inlined.Map.ElementRelationship == smdschema.Atomic {
			node.MapType = "atomic"
		}
	case ref.ElementRelationship != nil && *ref.ElementRelationship == smdschema.Atomic:
		node.MapType = "atomic" // a field-level +mapType=atomic on a struct
	}
	g.checkPatch(where, node)
}

// checkPatch compares the strategic-merge-patch tags with the list type:
// a list merged by key K must be an associative list whose keys include K.
func (g *generator) checkPatch(where string, node *schema.Schema) {
	if node.Type != "array" || !strings.Contains(node.PatchStrategy, "merge") {
		return
	}
	if node.PatchMergeKey == "" {
		if node.ListType != "set" && node.ListType != "map" {
			g.warnf("%s: patchStrategy merge without key, list type %q", where, node.ListType)
		}
		return
	}
	if node.ListType != "map" || !contains(node.ListMapKeys, node.PatchMergeKey) {
		g.warnf("%s: patchMergeKey %q, list type %q keys %v", where, node.PatchMergeKey, node.ListType, node.ListMapKeys)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkFields warns about apply-schema fields the Go type lacks.
func (g *generator) checkFields(def *schema.Schema, owner string) {
	td := g.smd[owner]
	if td == nil || td.Map == nil {
		return
	}
	for _, sf := range td.Map.Fields {
		if _, ok := def.Properties[sf.Name]; !ok {
			g.warnf("%s.%s: in the apply schema, not in the Go type", owner, sf.Name)
		}
	}
}

// mayBeNull reports whether Go serialises the zero value of a field as
// null: a pointer, slice or map without omitempty or omitzero, or a
// metav1.Time / MicroTime without omitzero, e.g. CustomResourceDefinitionStatus.conditions or
// Event.firstTimestamp. Those fields are nullable, so that validation and
// null pruning accept what the real server itself writes.
func mayBeNull(t reflect.Type, opts string) bool {
	o := "," + opts + ","
	if strings.Contains(o, ",omitzero,") {
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return !strings.Contains(o, ",omitempty,")
	case reflect.Struct:
		// omitempty never omits a struct: a zero Time encodes as null.
		n := t.PkgPath() + "." + t.Name()
		return n == "k8s.io/apimachinery/pkg/apis/meta/v1.Time" || n == "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime"
	}
	return false
}
