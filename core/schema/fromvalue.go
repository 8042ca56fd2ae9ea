package schema

import (
	"fmt"
	"math"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// fromDocument decodes a definitions document in one pass: jsonx parses the
// bytes once, then fromValue builds the nodes from the maps. Schema's
// UnmarshalJSON is correct but re-scans each subtree at every nesting
// level (encoding/json hands a custom unmarshaler its raw bytes); on the
// 100 KB built-in document that was most of the start-up time in
// WebAssembly (≈160 ms of ≈380 ms in Node). Load's result is the same
// either way (TestLoadOnePassMatchesUnmarshalJSON).
func fromDocument(doc []byte) (map[string]*Schema, error) {
	v, err := jsonx.Decode(doc)
	if err != nil {
		return nil, err
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema document: expected an object, got %T", v)
	}
	raw, _ := top["definitions"].(map[string]any)
	if top["definitions"] != nil && raw == nil {
		return nil, fmt.Errorf("definitions: expected an object, got %T", top["definitions"])
	}
	out := make(map[string]*Schema, len(raw))
	for name, d := range raw {
		if d == nil {
			out[name] = nil
			continue
		}
		s, err := fromValue(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out[name] = s
	}
	return out, nil
}

// fromValue builds one node (and its children) from its jsonx form. Keys
// it does not know are ignored, as encoding/json ignores them.
func fromValue(v any) (*Schema, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected a schema object, got %T", v)
	}
	s := &Schema{}
	for k, val := range m {
		if err := s.set(k, val); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
	}
	return s, nil
}

func (s *Schema) set(k string, v any) error {
	var err error
	switch k {
	case "$ref":
		s.Ref, err = str(v)
	case "type":
		s.Type, err = str(v)
	case "format":
		s.Format, err = str(v)
	case "description":
		s.Description, err = str(v)
	case "nullable":
		s.Nullable, err = boolean(v)
	case "properties":
		s.Properties, err = schemaMap(v)
	case "additionalProperties":
		switch t := v.(type) {
		case nil:
		case bool:
			s.AdditionalPropertiesBool = &t
		default:
			s.AdditionalProperties, err = fromValue(v)
		}
	case "items":
		if _, isList := v.([]any); isList {
			return fmt.Errorf("the array form is not supported, items must be a schema")
		}
		if v != nil {
			s.Items, err = fromValue(v)
		}
	case "required":
		s.Required, err = strList(v)
	case "enum":
		if v != nil {
			l, ok := v.([]any)
			if !ok {
				return fmt.Errorf("must be an array")
			}
			s.Enum = l
		}
	case "default":
		s.Default = v
	case "maximum":
		s.Maximum, err = float(v)
	case "exclusiveMaximum":
		s.ExclusiveMaximum, err = boolean(v)
	case "minimum":
		s.Minimum, err = float(v)
	case "exclusiveMinimum":
		s.ExclusiveMinimum, err = boolean(v)
	case "multipleOf":
		s.MultipleOf, err = float(v)
	case "maxLength":
		s.MaxLength, err = integer(v)
	case "minLength":
		s.MinLength, err = integer(v)
	case "pattern":
		s.Pattern, err = str(v)
	case "maxItems":
		s.MaxItems, err = integer(v)
	case "minItems":
		s.MinItems, err = integer(v)
	case "uniqueItems":
		s.UniqueItems, err = boolean(v)
	case "maxProperties":
		s.MaxProperties, err = integer(v)
	case "minProperties":
		s.MinProperties, err = integer(v)
	case "allOf":
		s.AllOf, err = schemaList(v)
	case "anyOf":
		s.AnyOf, err = schemaList(v)
	case "oneOf":
		s.OneOf, err = schemaList(v)
	case "not":
		if v != nil {
			s.Not, err = fromValue(v)
		}
	case "x-kubernetes-preserve-unknown-fields":
		s.PreserveUnknownFields, err = boolean(v)
	case "x-kubernetes-embedded-resource":
		s.EmbeddedResource, err = boolean(v)
	case "x-kubernetes-int-or-string":
		s.IntOrString, err = boolean(v)
	case "x-kubernetes-list-type":
		s.ListType, err = str(v)
	case "x-kubernetes-list-map-keys":
		s.ListMapKeys, err = strList(v)
	case "x-kubernetes-map-type":
		s.MapType, err = str(v)
	case "x-kubernetes-patch-strategy":
		s.PatchStrategy, err = str(v)
	case "x-kubernetes-patch-merge-key":
		s.PatchMergeKey, err = str(v)
	case "x-kubesandbox-proto":
		s.Proto, err = str(v)
	}
	return err
}

func str(v any) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return t, nil
	}
	return "", fmt.Errorf("expected a string, got %T", v)
}

func boolean(v any) (bool, error) {
	switch t := v.(type) {
	case nil:
		return false, nil
	case bool:
		return t, nil
	}
	return false, fmt.Errorf("expected a boolean, got %T", v)
}

func float(v any) (*float64, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case int64:
		f := float64(t)
		return &f, nil
	case float64:
		return &t, nil
	}
	return nil, fmt.Errorf("expected a number, got %T", v)
}

func integer(v any) (*int64, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case int64:
		return &t, nil
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			n := int64(t)
			return &n, nil
		}
	}
	return nil, fmt.Errorf("expected an integer, got %v", v)
}

func strList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array of strings, got %T", v)
	}
	out := make([]string, len(l))
	for i, e := range l {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("expected an array of strings, got %T at %d", e, i)
		}
		out[i] = s
	}
	return out, nil
}

func schemaMap(v any) (map[string]*Schema, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("expected an object, got %T", v)
	}
	out := make(map[string]*Schema, len(m))
	for k, e := range m {
		if e == nil {
			out[k] = nil
			continue
		}
		s, err := fromValue(e)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

func schemaList(v any) ([]*Schema, error) {
	if v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expected an array, got %T", v)
	}
	out := make([]*Schema, len(l))
	for i, e := range l {
		if e == nil {
			continue
		}
		s, err := fromValue(e)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = s
	}
	return out, nil
}
