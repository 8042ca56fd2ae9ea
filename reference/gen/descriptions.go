package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/util"
	"k8s.io/kube-openapi/pkg/validation/spec"
	kubeopenapi "k8s.io/kubernetes/pkg/generated/openapi"
)

// Descriptions is the documentation of the generated definitions and of
// the built-in kinds' list types, as the real server publishes it in
// /openapi/v2 and /openapi/v3: per definition, an OpenAPI fragment that
// core/openapi merges into the definition it writes (builtin.Descriptions
// documents the format), e.g.
//
//	"io.k8s.api.apps.v1.DeploymentStrategy": {
//	  "description": "DeploymentStrategy describes how to replace existing pods with new ones.",
//	  "properties": {"type": {"description": "Type of deployment. …", "enum": ["Recreate", "RollingUpdate"]}, …}}
//
// It holds descriptions, enums (the server's OpenAPIEnums feature, on by
// default, publishes them and keeps the "Possible enum values" paragraph
// of a description), required lists, and for a list kind the default of
// its properties ("metadata": {} — the kinds' own defaults are in
// schemas.json). The source is the OpenAPI definitions kube-apiserver
// itself serves (k8s.io/kubernetes/pkg/generated/openapi, and
// apiextensions-apiserver's for the CustomResourceDefinition types). A
// description on array items or map values is an error: the documents
// carry none, and it is a sign the format misses something.
func Descriptions(schemas Document) (map[string]any, error) {
	ref := func(path string) spec.Ref { return spec.MustCreateRef(path) }
	all := kubeopenapi.GetOpenAPIDefinitions(ref)
	for k, v := range apiextensionsopenapi.GetOpenAPIDefinitions(ref) {
		if _, ok := all[k]; !ok {
			all[k] = v
		}
	}
	byName := make(map[string]common.OpenAPIDefinition, len(all))
	for key, def := range all {
		// keys are Go paths ("k8s.io/api/core/v1.Pod") or, for the types
		// with an OpenAPIModelName method, already the served name
		name := key
		if strings.Contains(key, "/") {
			name = util.ToRESTFriendlyName(key)
		}
		byName[name] = def
	}
	out := map[string]any{}
	add := func(name string, props map[string]bool, list bool) error {
		def, ok := byName[name]
		if !ok {
			return fmt.Errorf("%s: no OpenAPI definition", name)
		}
		f := map[string]any{}
		if d := def.Schema.Description; d != "" {
			f["description"] = d
		}
		if r := def.Schema.Required; len(r) > 0 {
			f["required"] = r
		}
		pf := map[string]any{}
		for p, ps := range def.Schema.Properties {
			if !props[p] {
				continue
			}
			if deeper(ps) {
				return fmt.Errorf("%s.%s: a description below the property", name, p)
			}
			m := map[string]any{}
			if ps.Description != "" {
				m["description"] = ps.Description
			}
			if ps.Enum != nil {
				m["enum"] = ps.Enum
			}
			if ps.Items != nil && ps.Items.Schema != nil && ps.Items.Schema.Enum != nil {
				m["items"] = map[string]any{"enum": ps.Items.Schema.Enum}
			}
			if v := ps.AdditionalProperties; v != nil && v.Schema != nil && v.Schema.Enum != nil {
				m["additionalProperties"] = map[string]any{"enum": v.Schema.Enum}
			}
			if list && ps.Default != nil {
				m["default"] = ps.Default
			}
			if len(m) > 0 {
				pf[p] = m
			}
		}
		if len(pf) > 0 {
			f["properties"] = pf
		}
		if len(f) > 0 {
			out[name] = f
		}
		return nil
	}
	// the apimachinery definitions core/openapi writes beside the generated
	// ones (its index.go's metaJSON)
	// and the IntOrString, Quantity, FieldsV1 and RawExtension definitions
	// it refers to (emit.go's primitives)
	for _, name := range []string{"ListMeta", "Status", "StatusDetails", "StatusCause", "DeleteOptions", "Preconditions", "Patch",
		"io.k8s.apimachinery.pkg.util.intstr.IntOrString", "io.k8s.apimachinery.pkg.api.resource.Quantity", "FieldsV1",
		"io.k8s.apimachinery.pkg.runtime.RawExtension"} {
		if !strings.HasPrefix(name, "io.") {
			name = "io.k8s.apimachinery.pkg.apis.meta.v1." + name
		}
		props := map[string]bool{}
		for p := range byName[name].Schema.Properties {
			props[p] = true
		}
		if err := add(name, props, false); err != nil {
			return nil, err
		}
	}
	for name, s := range schemas.Definitions {
		props := map[string]bool{}
		for p := range s.Properties {
			props[p] = true
		}
		if err := add(name, props, false); err != nil {
			return nil, err
		}
		if _, ok := byName[name+"List"]; ok && s.Properties["metadata"] != nil {
			if err := add(name+"List", map[string]bool{"items": true, "metadata": true}, true); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// deeper reports a description on a property's items or values.
func deeper(ps spec.Schema) bool {
	if ps.Items != nil && ps.Items.Schema != nil && ps.Items.Schema.Description != "" {
		return true
	}
	v := ps.AdditionalProperties
	return v != nil && v.Schema != nil && v.Schema.Description != ""
}

// MarshalDescriptions renders the descriptions compactly (keys sorted)
// with a trailing newline.
func MarshalDescriptions(d map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
