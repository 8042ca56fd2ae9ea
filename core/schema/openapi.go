package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// This file is the value validator kube-apiserver runs for custom
// resources: k8s.io/kube-openapi/pkg/validation/validate, as configured by
// the apiextensions-apiserver (body parameter "in body", formats limited to
// the ones CRDs support). Its errors are then turned into field errors the
// way apiextensions' kubeOpenAPIResultToFieldErrors does. For example the
// value -1 against {"type":"integer","minimum":0} at spec.replicas gives
//
//	spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0
//
// Paths are kept as kube-openapi builds them ("spec.ports[0].name"; a key
// of an additionalProperties map is appended with a dot).

// Error codes of kube-openapi's errors package.
const (
	codeComposite   = 422
	codeInvalidType = 600 + iota
	codeRequired
	codeTooLong
	codeTooShort
	codePattern
	codeEnum
	codeMultipleOf
	codeMax
	codeMin
	codeUnique
	codeMaxItems
	codeMinItems
	codeNoAdditionalItems
	codeTooFewProperties
	codeTooManyProperties
	codeUnallowedProperty
	codeFailedAllPatternProps
	codeMultipleOfMustBePositive
)

const in = "body"

// verr is one kube-openapi error. composite marks the errors that are not
// *errors.Validation (anyOf/oneOf/allOf/not summaries).
type verr struct {
	code      int
	name      string
	value     any
	values    []any
	max       int64
	msg       string
	composite bool
}

// result mirrors kube-openapi's Result: errors (unique by message) and the
// match count that selects the best failing branch of anyOf/oneOf.
type result struct {
	errs  []verr
	match int
}

func (r *result) add(es ...verr) {
	for _, e := range es {
		dup := false
		for _, o := range r.errs {
			if o.msg == e.msg {
				dup = true
				break
			}
		}
		if !dup {
			r.errs = append(r.errs, e)
		}
	}
}

func (r *result) merge(o result) {
	r.add(o.errs...)
	r.match += o.match
}

func (r result) valid() bool { return len(r.errs) == 0 }

func one(e verr) result { return result{errs: []verr{e}} }

// ValidateValue validates value against s as kube-openapi does at the root
// of a request body, and returns the field errors the API server reports.
func ValidateValue(s *Schema, value any) field.ErrorList {
	r := validate(s, "", value)
	var errs field.ErrorList
	for _, e := range r.errs {
		errs = append(errs, toFieldError(e))
	}
	return errs
}

func toFieldError(e verr) *field.Error {
	if e.composite {
		return &field.Error{Type: field.TypeInvalid, Field: "<nil>", BadValue: "", Detail: e.msg}
	}
	path := "<nil>"
	if e.name != "" && e.name != "." {
		path = strings.TrimPrefix(e.name, ".")
	}
	value := e.value
	switch e.code {
	case codeRequired:
		return &field.Error{Type: field.TypeRequired, Field: path, BadValue: ""}
	case codeEnum:
		values := make([]string, 0, len(e.values))
		for _, v := range e.values {
			if s, ok := v.(string); ok {
				values = append(values, s)
			} else {
				b, _ := json.Marshal(v)
				values = append(values, string(b))
			}
		}
		fe := field.NotSupported(nil, value, values)
		fe.Field = path
		return fe
	case codeTooLong:
		if value == nil {
			value = ""
		}
		return &field.Error{Type: field.TypeTooLong, Field: path, BadValue: value,
			Detail: fmt.Sprintf("may not be more than %d bytes", e.max)}
	case codeMaxItems, codeTooManyProperties:
		n, _ := value.(int64)
		return &field.Error{Type: field.TypeTooMany, Field: path, BadValue: int(n),
			Detail: fmt.Sprintf("must have at most %d items", e.max)}
	case codeInvalidType:
		if value == nil {
			value = ""
		}
		return &field.Error{Type: field.TypeTypeInvalid, Field: path, BadValue: value, Detail: e.msg}
	}
	if value == nil {
		value = ""
	}
	return &field.Error{Type: field.TypeInvalid, Field: path, BadValue: value, Detail: e.msg}
}

// kind classifies a decoded JSON value like reflect.Kind does for
// kube-openapi.
type kind int

const (
	kNil kind = iota
	kBool
	kInt
	kFloat
	kString
	kSlice
	kMap
	kOther
)

func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kNil
	case bool:
		return kBool
	case int64, int, int32:
		return kInt
	case float64, float32:
		return kFloat
	case string:
		return kString
	case []any:
		return kSlice
	case map[string]any:
		return kMap
	}
	return kOther
}

func asInt64(v any) int64 {
	switch t := v.(type) {
	case int64:
		return t
	case int:
		return int64(t)
	case int32:
		return int64(t)
	}
	return 0
}

func asFloat64(v any) float64 {
	switch t := v.(type) {
	case float64:
		return t
	case float32:
		return float64(t)
	case int64, int, int32:
		return float64(asInt64(v))
	}
	return 0
}

// floatToInt64 converts like Go's int64(f) on amd64, but defined for every input.
func floatToInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return math.MinInt64
	case f >= math.MaxInt64:
		return math.MinInt64
	case f < math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// schemaTypes is the list of allowed types: x-kubernetes-int-or-string
// means integer or string.
func schemaTypes(s *Schema) []string {
	if s.IntOrString {
		return []string{"integer", "string"}
	}
	if s.Type != "" {
		return []string{s.Type}
	}
	return nil
}

func contains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

func validate(s *Schema, path string, data any) result {
	var res result
	if s == nil {
		return res
	}
	format := effectiveFormat(s)
	if data == nil {
		res.merge(validateType(s, format, path, nil))
		res.merge(validateEnum(s, path, nil))
		return res
	}
	k := kindOf(data)
	step := func(r result) {
		res.merge(r)
		res.match++
	}
	if len(schemaTypes(s)) > 0 || format != "" {
		step(validateType(s, format, path, data))
	}
	step(validateSchemaProps(s, path, data))
	if k == kString {
		step(validateString(s, path, data.(string)))
		if format != "" && knownFormat(format) {
			step(validateFormat(format, path, data.(string)))
		}
	}
	if k == kInt || k == kFloat {
		step(validateNumber(s, path, data))
	}
	if k == kSlice {
		step(validateSlice(s, path, data.([]any)))
	}
	step(validateEnum(s, path, data))
	if k == kMap {
		step(validateObject(s, path, data.(map[string]any)))
	}
	res.match++
	return res
}

func invalidType(path, typeName string, value any) verr {
	var msg string
	if s, ok := value.(string); ok {
		msg = fmt.Sprintf("%s in %s must be of type %s: %q", path, in, typeName, s)
	} else {
		msg = fmt.Sprintf("%s in %s must be of type %s", path, in, typeName)
	}
	return verr{code: codeInvalidType, name: path, value: value, msg: msg}
}

func validateType(s *Schema, format, path string, data any) result {
	types := schemaTypes(s)
	res := result{match: 1}
	if data == nil {
		if len(types) > 0 && !contains(types, "null") && !s.Nullable {
			return one(invalidType(path, strings.Join(types, ","), "null"))
		}
		return res
	}
	k := kindOf(data)
	var schType, dataFormat string
	switch k {
	case kBool:
		schType = "boolean"
	case kString:
		schType = "string"
	case kInt:
		schType, dataFormat = "integer", "int64"
	case kFloat:
		schType, dataFormat = "number", "float64"
	case kSlice:
		schType = "array"
	case kMap:
		schType = "object"
	}
	isFloatInt := schType == "number" && isJSONInteger(asFloat64(data)) && contains(types, "integer")
	isIntFloat := schType == "integer" && contains(types, "number")
	if k != kString && k != kSlice && format != "" &&
		!(contains(types, schType) || dataFormat == format || isFloatInt || isIntFloat) {
		return one(invalidType(path, format, dataFormat))
	}
	if !(contains(types, "number") || contains(types, "integer")) && format != "" && (k == kString || k == kSlice) {
		return res
	}
	if !(contains(types, schType) || isFloatInt || isIntFloat) {
		return one(invalidType(path, strings.Join(types, ","), schType))
	}
	return res
}

// isJSONInteger is swag.IsFloat64AJSONInteger.
func isJSONInteger(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -(1<<53) || f > 1<<53 {
		return false
	}
	g := math.Trunc(f)
	if f == g {
		return true
	}
	diff := math.Abs(f - g)
	if g == 0 {
		return diff < 1e-9*math.SmallestNonzeroFloat64
	}
	return diff/math.Min(math.Abs(f)+math.Abs(g), math.MaxFloat64) < 1e-9
}

func validateEnum(s *Schema, path string, data any) result {
	if len(s.Enum) == 0 {
		return result{}
	}
	for _, e := range s.Enum {
		if enumMatches(data, e) {
			return result{}
		}
	}
	msg := fmt.Sprintf("%s in %s should be one of %v", path, in, fmtValues(s.Enum))
	return one(verr{code: codeEnum, name: path, value: data, values: s.Enum, msg: msg})
}

// fmtValues renders a []any as fmt's %v does for decoded JSON.
func fmtValues(v []any) string { return fmt.Sprintf("%v", v) }

// enumMatches is reflect's "data converted to the enum value's type is
// deeply equal to it", including its quirks (int64 97 converts to "a", a
// float is truncated when compared to an integer).
func enumMatches(data, e any) bool {
	if data == nil || e == nil {
		return false
	}
	switch ev := e.(type) {
	case string:
		switch d := data.(type) {
		case string:
			return d == ev
		case int64:
			if d < 0 || d > utf8.MaxRune || (d >= 0xD800 && d <= 0xDFFF) {
				return string(utf8.RuneError) == ev
			}
			return string(rune(d)) == ev
		}
	case int64:
		switch kindOf(data) {
		case kInt:
			return asInt64(data) == ev
		case kFloat:
			return floatToInt64(asFloat64(data)) == ev
		}
	case float64:
		switch kindOf(data) {
		case kInt, kFloat:
			return asFloat64(data) == ev
		}
	case bool:
		d, ok := data.(bool)
		return ok && d == ev
	case map[string]any, []any:
		return deepEqualJSON(data, e)
	}
	return false
}

func deepEqualJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !deepEqualJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !deepEqualJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func validateString(s *Schema, path, data string) result {
	n := int64(utf8.RuneCountInString(data))
	if s.MaxLength != nil && n > *s.MaxLength {
		return one(verr{code: codeTooLong, name: path, value: data, max: *s.MaxLength,
			msg: fmt.Sprintf("%s in %s should be at most %d chars long", path, in, *s.MaxLength)})
	}
	if s.MinLength != nil && n < *s.MinLength {
		return one(verr{code: codeTooShort, name: path, value: data,
			msg: fmt.Sprintf("%s in %s should be at least %d chars long", path, in, *s.MinLength)})
	}
	if s.Pattern != "" {
		re, err := compileRegexp(s.Pattern)
		if err != nil {
			p := fmt.Sprintf("%s, but pattern is invalid: %s", s.Pattern, err.Error())
			return one(verr{code: codePattern, name: path, value: data, msg: fmt.Sprintf("%s in %s should match '%s'", path, in, p)})
		}
		if !re.MatchString(data) {
			return one(verr{code: codePattern, name: path, value: data, msg: fmt.Sprintf("%s in %s should match '%s'", path, in, s.Pattern)})
		}
	}
	return result{}
}

var regexpCache sync.Map // pattern -> *regexp.Regexp or error

func compileRegexp(p string) (*regexp.Regexp, error) {
	if v, ok := regexpCache.Load(p); ok {
		if re, ok := v.(*regexp.Regexp); ok {
			return re, nil
		}
		return nil, v.(error)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		regexpCache.Store(p, err)
		return nil, err
	}
	regexpCache.Store(p, re)
	return re, nil
}

func validateFormat(format, path, data string) result {
	if checkFormat(format, data) {
		return result{}
	}
	return one(invalidType(path, format, data))
}

func validateNumber(s *Schema, path string, data any) result {
	var res result
	isInt := kindOf(data) == kInt
	if s.MultipleOf != nil {
		f := *s.MultipleOf
		if isInt && floatToInt64(f) > 0 {
			factor := floatToInt64(f)
			if v := asInt64(data); v%factor != 0 {
				res.add(verr{code: codeMultipleOf, name: path, value: v, msg: fmt.Sprintf("%s in %s should be a multiple of %v", path, in, factor)})
			}
		} else if isInt && floatToInt64(f) < 0 {
			res.add(verr{code: codeMultipleOfMustBePositive, name: path, value: floatToInt64(f),
				msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, floatToInt64(f))})
		} else if f < 0 {
			res.add(verr{code: codeMultipleOfMustBePositive, name: path, value: f,
				msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, f)})
		} else if f != 0 {
			v := asFloat64(data)
			var mult float64
			if f < 1 {
				mult = 1 / f * v
			} else {
				mult = v / f
			}
			if !isJSONInteger(mult) {
				res.add(verr{code: codeMultipleOf, name: path, value: v, msg: fmt.Sprintf("%s in %s should be a multiple of %v", path, in, f)})
			}
		}
	}
	bound := func(limit *float64, exclusive bool, isMax bool) {
		if limit == nil {
			return
		}
		word := map[[2]bool]string{
			{true, false}: "less than or equal to", {true, true}: "less than",
			{false, false}: "greater than or equal to", {false, true}: "greater than",
		}[[2]bool{isMax, exclusive}]
		code := codeMin
		if isMax {
			code = codeMax
		}
		var fail bool
		var shown any
		if isInt {
			v, l := asInt64(data), floatToInt64(*limit)
			if isMax {
				fail = v > l || (exclusive && v == l)
			} else {
				fail = v < l || (exclusive && v == l)
			}
			shown = l
		} else {
			v, l := asFloat64(data), *limit
			if isMax {
				fail = v > l || (exclusive && v == l)
			} else {
				fail = v < l || (exclusive && v == l)
			}
			shown = l
		}
		if fail {
			res.add(verr{code: code, name: path, value: data, msg: fmt.Sprintf("%s in %s should be %s %v", path, in, word, shown)})
		}
	}
	bound(s.Minimum, s.ExclusiveMinimum, false)
	bound(s.Maximum, s.ExclusiveMaximum, true)
	res.match++
	return res
}
