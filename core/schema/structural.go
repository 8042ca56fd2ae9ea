package schema

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateStructural reports why s is not a structural schema, with the
// apiextensions-apiserver's messages (schema.ValidateStructural), sorted
// by message as the server sorts them. path is where the schema sits in
// the CRD, e.g. field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"):
//
//	spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
//
// Covered: type required (root, fields, items) unless preserve-unknown-fields
// or int-or-string, object at the root, items required for arrays,
// additionalProperties at the root, embedded resources, metadata at the root
// (only name and generateName), keywords forbidden inside allOf/anyOf/oneOf/not,
// the int-or-string patterns, pattern compilation and $ref. Not covered: the
// completeness rule (every field under a junctor also specified outside).
func ValidateStructural(s *Schema, path *field.Path) field.ErrorList {
	errs := structuralInvariants(s, levelRoot, path, 0)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

type level int

const (
	levelRoot level = iota
	levelItem
	levelField
)

func structuralInvariants(s *Schema, lvl level, p *field.Path, depth int) field.ErrorList {
	if s == nil || depth > 1000 {
		return nil
	}
	var errs field.ErrorList
	if s.Ref != "" {
		errs = append(errs, field.Forbidden(p.Child("$ref"), "$ref is not supported"))
	}
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, field.Required(p.Child("items"), "must be specified"))
	}
	errs = append(errs, structuralInvariants(s.Items, levelItem, p.Child("items"), depth+1)...)
	for _, k := range sortedSchemaKeys(s.Properties) {
		errs = append(errs, structuralInvariants(s.Properties[k], levelField, p.Child("properties").Key(k), depth+1)...)
	}
	if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
		if lvl == levelRoot {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		errs = append(errs, structuralInvariants(s.AdditionalProperties, levelField, p.Child("additionalProperties"), depth+1)...)
	}
	if s.IntOrString && s.PreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.IntOrString && s.EmbeddedResource {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	errs = append(errs, valueValidation(s, isIntOrStringAnyOf(s.AnyOf), isIntOrStringAllOf(s), p, depth)...)

	checkMetadata := lvl == levelRoot || s.EmbeddedResource
	if s.EmbeddedResource && s.Type != "object" {
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	} else if s.Type == "" && !s.IntOrString && !s.PreserveUnknownFields {
		switch lvl {
		case levelRoot:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty at the root"))
		case levelItem:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified array items"))
		case levelField:
			errs = append(errs, field.Required(p.Child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.EmbeddedResource && (s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil) {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == levelRoot && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
	for _, name := range []string{"kind", "apiVersion"} {
		if sub, ok := s.Properties[name]; ok && checkMetadata && sub != nil && sub.Type != "string" {
			errs = append(errs, field.Invalid(p.Child("properties").Key(name).Child("type"), sub.Type, "must be string"))
		}
	}
	if meta, ok := s.Properties["metadata"]; ok && meta != nil {
		mp := p.Child("properties").Key("metadata")
		if checkMetadata && meta.Type != "object" {
			errs = append(errs, field.Invalid(mp.Child("type"), meta.Type, "must be object"))
		}
		if lvl == levelRoot && !onlyNameAndGenerateName(meta) {
			errs = append(errs, field.Forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.EmbeddedResource && !s.PreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameAndGenerateName tells whether a root metadata schema restricts
// nothing but name and generateName (its type and default are ignored).
func onlyNameAndGenerateName(m *Schema) bool {
	c := *m
	c.Type, c.Default = "", nil
	_, hasName := c.Properties["name"]
	_, hasGen := c.Properties["generateName"]
	if (hasName && hasGen && len(c.Properties) == 2) || ((hasName || hasGen) && len(c.Properties) == 1) {
		c.Properties = nil
	}
	return isZero(&c)
}

func isZero(s *Schema) bool {
	b, err := s.MarshalJSON()
	return err == nil && string(b) == "{}"
}

func isIntOrStringAnyOf(l []*Schema) bool {
	return len(l) == 2 && onlyType(l[0], "integer") && onlyType(l[1], "string")
}

// onlyType tells whether s is exactly {"type": t}.
func onlyType(s *Schema, t string) bool {
	if s == nil || s.Type != t {
		return false
	}
	c := *s
	c.Type = ""
	return isZero(&c)
}

func isIntOrStringAllOf(s *Schema) bool {
	return len(s.AllOf) >= 1 && s.AllOf[0] != nil && isIntOrStringAnyOf(s.AllOf[0].AnyOf)
}

func valueValidation(s *Schema, skipAnyOf, skipFirstAllOfAnyOf bool, p *field.Path, depth int) field.ErrorList {
	var errs field.ErrorList
	if !skipAnyOf {
		for i, sub := range s.AnyOf {
			errs = append(errs, nested(sub, false, p.Child("anyOf").Index(i), depth+1)...)
		}
	}
	for i, sub := range s.AllOf {
		errs = append(errs, nested(sub, skipFirstAllOfAnyOf && i == 0, p.Child("allOf").Index(i), depth+1)...)
	}
	for i, sub := range s.OneOf {
		errs = append(errs, nested(sub, false, p.Child("oneOf").Index(i), depth+1)...)
	}
	if s.Not != nil {
		errs = append(errs, nested(s.Not, false, p.Child("not"), depth+1)...)
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			errs = append(errs, field.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// nested checks a schema under allOf/anyOf/oneOf/not, where only value
// validations may appear.
func nested(s *Schema, skipAnyOf bool, p *field.Path, depth int) field.ErrorList {
	if s == nil || depth > 1000 {
		return nil
	}
	errs := valueValidation(s, skipAnyOf, false, p, depth)
	errs = append(errs, nested(s.Items, false, p.Child("items"), depth+1)...)
	for _, k := range sortedSchemaKeys(s.Properties) {
		errs = append(errs, nested(s.Properties[k], false, p.Child("properties").Key(k), depth+1)...)
	}
	forbid := func(cond bool, name, msg string) {
		if cond {
			errs = append(errs, field.Forbidden(p.Child(name), msg))
		}
	}
	forbid(s.Type != "", "type", "must be empty to be structural")
	if s.AdditionalProperties != nil || s.AdditionalPropertiesBool != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must be undefined to be structural"))
	}
	forbid(s.Default != nil, "default", "must be undefined to be structural")
	forbid(s.Description != "", "description", "must be empty to be structural")
	forbid(s.Nullable, "nullable", "must be false to be structural")
	forbid(s.PreserveUnknownFields, "x-kubernetes-preserve-unknown-fields", "must be false to be structural")
	forbid(s.EmbeddedResource, "x-kubernetes-embedded-resource", "must be false to be structural")
	forbid(s.IntOrString, "x-kubernetes-int-or-string", "must be false to be structural")
	forbid(len(s.ListMapKeys) > 0, "x-kubernetes-list-map-keys", "must be empty to be structural")
	forbid(s.ListType != "", "x-kubernetes-list-type", "must be undefined to be structural")
	forbid(s.MapType != "", "x-kubernetes-map-type", "must be undefined to be structural")
	if _, ok := s.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}
