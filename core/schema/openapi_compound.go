package schema

import (
	"fmt"
	"slices"
)

// Validators of compound values: arrays, objects and the junctors
// (anyOf, oneOf, allOf, not), as kube-openapi runs them.

func validateSlice(s *Schema, path string, data []any) result {
	var res result
	if s.Items != nil {
		for i, v := range data {
			res.merge(validate(s.Items, fmt.Sprintf("%s[%d]", path, i), v))
		}
	}
	size := int64(len(data))
	if s.MinItems != nil && size < *s.MinItems {
		res.add(verr{code: codeMinItems, name: path, value: size, msg: fmt.Sprintf("%s in %s should have at least %d items", path, in, *s.MinItems)})
	}
	if s.MaxItems != nil && size > *s.MaxItems {
		res.add(verr{code: codeMaxItems, name: path, value: size, max: *s.MaxItems, msg: fmt.Sprintf("%s in %s should have at most %d items", path, in, *s.MaxItems)})
	}
	if s.UniqueItems {
		for i := range data {
			for j := 0; j < i; j++ {
				if deepEqualJSON(data[i], data[j]) {
					res.add(verr{code: codeUnique, name: path, msg: fmt.Sprintf("%s in %s shouldn't contain duplicates", path, in)})
				}
			}
		}
	}
	res.match++
	return res
}

func validateObject(s *Schema, path string, data map[string]any) result {
	var res result
	n := int64(len(data))
	if s.MinProperties != nil && n < *s.MinProperties {
		res.add(verr{code: codeTooFewProperties, name: path, value: n, msg: fmt.Sprintf("%s in %s should have at least %d properties", path, in, *s.MinProperties)})
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		res.add(verr{code: codeTooManyProperties, name: path, value: n, max: *s.MaxProperties, msg: fmt.Sprintf("%s in %s should have at most %d properties", path, in, *s.MaxProperties)})
	}
	var buf [16]string // the keys of most objects, without a heap allocation
	keys := buf[:0]
	for k := range data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if s.AdditionalPropertiesBool != nil && !*s.AdditionalPropertiesBool {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.add(verr{code: codeUnallowedProperty, name: path, value: k, msg: fmt.Sprintf("%s.%s in %s is a forbidden property", path, k, in)})
			}
		}
	} else if s.AdditionalProperties != nil {
		for _, k := range keys {
			if _, ok := s.Properties[k]; !ok {
				res.merge(validate(s.AdditionalProperties, path+"."+k, data[k]))
			}
		}
	}
	for _, k := range keys {
		if p, ok := s.Properties[k]; ok {
			name := k
			if path != "" {
				name = path + "." + k
			}
			res.merge(validate(p, name, data[k]))
		}
	}
	for _, k := range s.Required {
		if _, ok := data[k]; !ok {
			res.add(verr{code: codeRequired, name: path + "." + k, msg: fmt.Sprintf("%s in %s is required", path+"."+k, in)})
		}
	}
	return res
}

func validateSchemaProps(s *Schema, path string, data any) result {
	var main result
	if len(s.AnyOf) > 0 {
		var best, firstOK *result
		ok := false
		for _, sub := range s.AnyOf {
			r := validate(sub, path, data)
			if r.valid() {
				best, ok, firstOK = nil, true, &r
				break
			}
			if best == nil || r.match > best.match {
				best = &r
			}
		}
		if !ok {
			main.add(verr{composite: true, code: codeComposite, msg: fmt.Sprintf("%q must validate at least one schema (anyOf)", path)})
		}
		if best != nil {
			main.merge(*best)
		} else if firstOK != nil {
			main.merge(*firstOK)
		}
	}
	if len(s.OneOf) > 0 {
		var best, firstOK *result
		validated := 0
		for _, sub := range s.OneOf {
			r := validate(sub, path, data)
			if r.valid() {
				validated++
				best = nil
				if firstOK == nil {
					firstOK = &r
				}
				continue
			}
			if validated == 0 && (best == nil || r.match > best.match) {
				best = &r
			}
		}
		if validated != 1 {
			more := "Found none valid"
			if validated > 1 {
				more = fmt.Sprintf("Found %d valid alternatives", validated)
			}
			main.add(verr{composite: true, code: codeComposite, msg: fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", path, more)})
			if best != nil {
				main.merge(*best)
			}
		} else if firstOK != nil {
			main.merge(*firstOK)
		}
	}
	if len(s.AllOf) > 0 {
		validated := 0
		for _, sub := range s.AllOf {
			r := validate(sub, path, data)
			if r.valid() {
				validated++
			}
			main.merge(r)
		}
		if validated != len(s.AllOf) {
			more := ""
			if validated == 0 {
				more = ". None validated"
			}
			main.add(verr{composite: true, code: codeComposite, msg: fmt.Sprintf("%q must validate all the schemas (allOf)%s", path, more)})
		}
	}
	if s.Not != nil {
		if validate(s.Not, path, data).valid() {
			main.add(verr{composite: true, code: codeComposite, msg: fmt.Sprintf("%q must not validate the schema (not)", path)})
		}
	}
	main.match++
	return main
}
