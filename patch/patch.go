// Package patch holds the three PATCH engines of the API server as pure
// functions: bytes in, bytes out, plus typed errors.
//
//   - JSONPatch: RFC 6902 (application/json-patch+json)
//   - MergePatch: RFC 7386 (application/merge-patch+json)
//   - StrategicMergePatch: Kubernetes' strategic merge patch
//     (application/strategic-merge-patch+json), driven by a *schema.Schema
//
// Each engine reproduces what kube-apiserver v1.37 does, including the
// quirks of the libraries it uses (gopkg.in/evanphx/json-patch.v4,
// sigs.k8s.io/json and k8s.io/apimachinery/pkg/util/strategicpatch), so
// that a client sees the same result and the same error. ToAPIError turns
// the typed errors into the exact Status the real server answers.
//
// The order of checks in the real PATCH handler is:
//
//  1. the body must be valid JSON (ValidateJSON, 400 "invalid JSON patch"),
//     before the object is even read;
//  2. the patch is decoded (400 BadRequest with the decoder's message);
//  3. the patch is applied (JSON patch failures: 422 with a generic message);
//  4. the patched object is decoded and validated by the server.
//
// The engines do 2 and 3; the server does 1 (with ValidateJSON) and 4.
package patch

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Field validation directives (the fieldValidation query parameter).
const (
	FieldValidationIgnore = "Ignore"
	FieldValidationWarn   = "Warn"
	FieldValidationStrict = "Strict"
)

// Options tune an engine the way PatchOptions tune the real handler.
type Options struct {
	// FieldValidation is Ignore, Warn or Strict. "" means Warn, the
	// server's default. Under Warn and Strict the patch body is first
	// decoded strictly, which changes the text of decoding errors
	// ("error decoding patch: ...") and reports duplicate and unknown
	// fields in Result.StrictErrors.
	FieldValidation string
}

func (o Options) strict() bool {
	return o.FieldValidation == "" || o.FieldValidation == FieldValidationWarn ||
		o.FieldValidation == FieldValidationStrict
}

// Result is a successful patch.
type Result struct {
	// Object is the patched document (JSON).
	Object []byte
	// StrictErrors are the patch body's own strict-decoding problems, as
	// sigs.k8s.io/json words them: `duplicate field "spec.a"`,
	// `json patch unknown field "[0].foo"`. Under Warn they are warnings;
	// under Strict the server adds the object's own unknown fields and
	// fails with StrictDecodingError. Empty under Ignore.
	StrictErrors []string
	// PatchValue is how the real server prints the patch (JSON and merge
	// patch: the patched object; strategic merge patch: the patch map in
	// Go's %+v form) in the value of a strict-decoding Invalid error.
	PatchValue string
}

// ValidateJSON is the handler's first check on a PATCH body of a JSON
// patch type: anything that is not one well-formed JSON value fails with
// 400 "invalid JSON patch" before the object is looked up.
func ValidateJSON(patch []byte) error {
	if !json.Valid(patch) {
		return &InvalidJSONError{}
	}
	return nil
}

// strictDecode walks a valid JSON document the way sigs.k8s.io/json's
// UnmarshalStrict decodes it into a target and returns the strict errors
// (duplicate and unknown fields, in document order) and the first type
// error. shape describes the decoding target.
//
// Example: `{"a":1,"a":2,"l":[{"x":1,"x":2}]}` into map[string]interface{}
// gives [`duplicate field "a"`, `duplicate field "l[0].x"`].
func strictDecode(data []byte, target shape) (strictErrs []string, typeErr error) {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	w := &strictWalker{}
	w.walk(v, "", target, rawOrder(data))
	if w.typeErr != nil {
		return nil, w.typeErr
	}
	return w.strict, nil
}

// shape is the Go type sigs.k8s.io/json decodes into.
type shape int

const (
	shapeAny         shape = iota // interface{}
	shapeMap                      // map[string]interface{}
	shapeOpList                   // []handlers.jsonPatchOp
	shapeOp                       // handlers.jsonPatchOp
	shapeStringField              // a string struct field of jsonPatchOp
)

// jsonKind names a decoded value as encoding/json's UnmarshalTypeError does.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any, *orderedObject:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number:
		return "number"
	}
	return "null"
}

type strictWalker struct {
	strict  []string
	typeErr error
}

func (w *strictWalker) fail(msg string) {
	if w.typeErr == nil {
		w.typeErr = fmt.Errorf("%s", msg)
	}
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func (w *strictWalker) walk(v any, path string, target shape, ord any) {
	switch target {
	case shapeOpList:
		l, ok := v.([]any)
		if !ok {
			if v != nil {
				w.fail("json: cannot unmarshal " + jsonKind(v) + " into Go value of type []handlers.jsonPatchOp")
			}
			return
		}
		ol, _ := ord.([]any)
		for i, e := range l {
			w.walk(e, fmt.Sprintf("%s[%d]", path, i), shapeOp, at(ol, i))
		}
	case shapeOp:
		if v == nil {
			return
		}
		if _, ok := v.(map[string]any); !ok {
			w.fail("json: cannot unmarshal " + jsonKind(v) + " into Go value of type handlers.jsonPatchOp")
			return
		}
		o, _ := ord.(*orderedObject)
		if o == nil {
			return
		}
		seen := map[string]bool{}
		for _, kv := range o.fields {
			p := joinPath(path, kv.key)
			if seen[kv.key] {
				w.strict = append(w.strict, fmt.Sprintf("duplicate field %q", p))
			}
			seen[kv.key] = true
			switch kv.key {
			case "op", "path", "from":
				if s := jsonKind(kv.val); s != "string" && s != "null" {
					w.fail("json: cannot unmarshal " + s + " into Go struct field jsonPatchOp." + kv.key + " of type string")
				}
			case "value":
				w.walk(nil, p, shapeAny, kv.val)
			default:
				w.strict = append(w.strict, fmt.Sprintf("unknown field %q", p))
			}
		}
	case shapeMap:
		if _, ok := v.(map[string]any); !ok {
			if v != nil {
				w.fail("json: cannot unmarshal " + jsonKind(v) + " into Go value of type map[string]interface {}")
			}
			return
		}
		w.walk(nil, path, shapeAny, ord)
	case shapeAny:
		// Only duplicates matter below this point; ord carries the order.
		switch o := ord.(type) {
		case *orderedObject:
			seen := map[string]bool{}
			for _, kv := range o.fields {
				p := joinPath(path, kv.key)
				if seen[kv.key] {
					w.strict = append(w.strict, fmt.Sprintf("duplicate field %q", p))
				}
				seen[kv.key] = true
				w.walk(nil, p, shapeAny, kv.val)
			}
		case []any:
			for i, e := range o {
				w.walk(nil, fmt.Sprintf("%s[%d]", path, i), shapeAny, e)
			}
		}
	}
}

func at(l []any, i int) any {
	if i < len(l) {
		return l[i]
	}
	return nil
}

// orderedObject is a JSON object with its fields in document order,
// duplicates kept.
type orderedObject struct {
	fields []orderedField
}

type orderedField struct {
	key string
	val any // *orderedObject, []any, or a scalar (json.Number, string, bool, nil)
}

// rawOrder re-reads data token by token and keeps object fields in
// document order (duplicates included). data must be valid JSON.
func rawOrder(data []byte) any {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	v, _ := readOrdered(d)
	return v
}

func readOrdered(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &orderedObject{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := readOrdered(d)
			if err != nil {
				return nil, err
			}
			o.fields = append(o.fields, orderedField{k, v})
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		var l []any
		for d.More() {
			v, err := readOrdered(d)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := d.Token()
		return l, err
	}
	return t, nil
}
