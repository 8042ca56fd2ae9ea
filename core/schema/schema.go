// Package schema is the one schema model of kubesandbox.
//
// A *Schema node serves three readers at once:
//   - validation, defaulting and pruning (OpenAPI v3 keywords, as in a
//     CustomResourceDefinition's structural schema);
//   - server-side apply (x-kubernetes-list-type, -list-map-keys, -map-type);
//   - strategic merge patch (x-kubernetes-patch-strategy, -patch-merge-key),
//     which only built-in types carry.
//
// The JSON form is the OpenAPI v3 form, so a CRD's openAPIV3Schema decodes
// straight into it. Built-in schemas are generated (see reference/) into a
// document of named definitions that refer to each other with "$ref"; Load
// links those references into a pointer graph, which may be cyclic.
package schema

// Schema is one node of a structural schema.
type Schema struct {
	Ref         string `json:"$ref,omitempty"`
	Type        string `json:"type,omitempty"` // object, array, string, integer, number, boolean; "" = any
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Nullable    bool   `json:"nullable,omitempty"`

	Properties           map[string]*Schema `json:"properties,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"` // map values; see UnmarshalJSON for the boolean form
	Items                *Schema            `json:"items,omitempty"`
	Required             []string           `json:"required,omitempty"`

	Enum    []any `json:"enum,omitempty"`
	Default any   `json:"default,omitempty"`

	Maximum          *float64 `json:"maximum,omitempty"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty"`
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty"`
	MultipleOf       *float64 `json:"multipleOf,omitempty"`
	MaxLength        *int64   `json:"maxLength,omitempty"`
	MinLength        *int64   `json:"minLength,omitempty"`
	Pattern          string   `json:"pattern,omitempty"`
	MaxItems         *int64   `json:"maxItems,omitempty"`
	MinItems         *int64   `json:"minItems,omitempty"`
	UniqueItems      bool     `json:"uniqueItems,omitempty"`
	MaxProperties    *int64   `json:"maxProperties,omitempty"`
	MinProperties    *int64   `json:"minProperties,omitempty"`

	AllOf []*Schema `json:"allOf,omitempty"`
	AnyOf []*Schema `json:"anyOf,omitempty"`
	OneOf []*Schema `json:"oneOf,omitempty"`
	Not   *Schema   `json:"not,omitempty"`

	// Kubernetes extensions.
	PreserveUnknownFields bool     `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	EmbeddedResource      bool     `json:"x-kubernetes-embedded-resource,omitempty"`
	IntOrString           bool     `json:"x-kubernetes-int-or-string,omitempty"`
	ListType              string   `json:"x-kubernetes-list-type,omitempty"` // atomic, set, map
	ListMapKeys           []string `json:"x-kubernetes-list-map-keys,omitempty"`
	MapType               string   `json:"x-kubernetes-map-type,omitempty"` // granular, atomic

	// Strategic merge patch metadata (built-in types only).
	PatchStrategy string `json:"x-kubernetes-patch-strategy,omitempty"` // merge, replace, retainKeys, "merge,retainKeys"
	PatchMergeKey string `json:"x-kubernetes-patch-merge-key,omitempty"`

	// Proto describes the protobuf message of a generated built-in
	// definition: its fields' numbers, wire kinds and JSON presence, in
	// the compact form documented in reference/gen/proto.go, e.g.
	// "metadata=1oz,spec=2oz,status=3oz". Read by core/protobuf.
	Proto string `json:"x-kubesandbox-proto,omitempty"`

	// AdditionalPropertiesBool keeps the boolean form of additionalProperties
	// ("additionalProperties": true or false). It is nil when the keyword is
	// absent or given as a schema (then AdditionalProperties is set).
	// UnmarshalJSON and MarshalJSON translate it.
	AdditionalPropertiesBool *bool `json:"-"`
}
