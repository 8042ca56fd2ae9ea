//go:build !js

package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// JSONTypeError is the error encoding/json reports first when it decodes
// obj into the built-in Go type whose generated schema is s: a value of
// the wrong JSON type, or a number that does not fit an integer field.
// Keys are visited in sorted order (a body's own order is not kept) and
// only the fields of the schema; values of types that decode themselves
// (quantities, int-or-string, times, raw extensions) are not judged. nil
// when there is none. E.g. a ConfigMap with "data": {"a": true}:
//
//	json: cannot unmarshal bool into Go struct field ConfigMap.data of type string
func JSONTypeError(s *Schema, obj map[string]any) error {
	if s == nil || defName(s) == "" {
		return nil
	}
	if e := jsonTypeError(s, obj, "", "", 0); e != "" {
		return errors.New(e)
	}
	return nil
}

// jsonKind names a decoded JSON value as encoding/json's errors do.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "number"
}

func jsonTypeError(s *Schema, v any, structName, path string, depth int) string {
	if s == nil || v == nil || depth > maxDepth || s.IntOrString || s.PreserveUnknownFields || s.EmbeddedResource ||
		s.Type == "" || s.Format == "date-time" || s.Format == "quantity" {
		return ""
	}
	kind, want := jsonKind(v), s.Type
	if want == "integer" {
		want = "number"
		if kind == want {
			n, bits := numberText(v), 64
			if s.Format == "int32" {
				bits = 32
			}
			if _, err := strconv.ParseInt(n, 10, bits); err != nil {
				kind = "number " + n
			}
		}
	}
	if kind != want {
		if structName == "" {
			return ""
		}
		if kind == "boolean" {
			kind = "bool"
		}
		return "json: cannot unmarshal " + kind + " into Go struct field " + structName + "." + path[1:] + " of type " + goType(s)
	}
	var e string
	switch x := v.(type) {
	case map[string]any:
		ap, name := s.AdditionalProperties, structName
		if s.Properties != nil {
			def := defName(s)
			ap, name = nil, def[strings.LastIndexByte(def, '.')+1:]
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			switch {
			case e != "":
			case ap != nil:
				e = jsonTypeError(ap, x[k], name, path, depth+1)
			case name != "":
				e = jsonTypeError(s.Properties[k], x[k], name, path+"."+k, depth+1)
			}
		}
	case []any:
		for _, el := range x {
			if e == "" {
				e = jsonTypeError(s.Items, el, structName, path, depth+1)
			}
		}
	}
	return e
}

func numberText(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return fmt.Sprint(v)
}

// goType is the Go type a generated schema node decodes into, as
// reflect prints it: "v1.PodSpec" for a definition (its package's last
// element and its name), "[]v1.Container", "map[string]string", "int32".
// Named scalar types (v1.RestartPolicy) print as their kind.
func goType(s *Schema) string {
	if def := defName(s); def != "" {
		parts := strings.Split(def, ".")
		if len(parts) >= 2 {
			return parts[len(parts)-2] + "." + parts[len(parts)-1]
		}
	}
	switch s.Type {
	case "string":
		if s.Format == "byte" {
			return "[]uint8"
		}
		return "string"
	case "integer":
		if s.Format == "int32" {
			return "int32"
		}
		return "int64"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	case "array":
		if s.Items != nil {
			return "[]" + goType(s.Items)
		}
	case "object":
		if s.AdditionalProperties != nil {
			return "map[string]" + goType(s.AdditionalProperties)
		}
	}
	return "interface {}"
}

// defNames maps the Properties of each named definition (shared by the
// copies Load makes of a definition referred to with sibling keywords) to
// its name, e.g. "io.k8s.api.core.v1.ConfigMap": a built-in's Go type.
var defNames sync.Map // uintptr → string

// NameDefs records the names of Load's definitions for JSONTypeError
// (natively; the browser build leaves it out, see gotype_js.go).
func NameDefs(defs map[string]*Schema) {
	for name, s := range defs {
		if s != nil && s.Properties != nil {
			defNames.Store(reflect.ValueOf(s.Properties).Pointer(), name)
		}
	}
}

// defName is the definition an object schema node came from, or "".
func defName(s *Schema) string {
	if s.Properties == nil {
		return ""
	}
	n, _ := defNames.Load(reflect.ValueOf(s.Properties).Pointer())
	name, _ := n.(string)
	return name
}
