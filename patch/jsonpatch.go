package patch

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// JSONPatch applies an RFC 6902 patch as kube-apiserver does, with the
// server's default field validation (Warn); warnings are dropped.
//
//	JSONPatch([]byte(`{"spec":{"replicas":2}}`),
//	          []byte(`[{"op":"replace","path":"/spec/replicas","value":4}]`))
//	→ {"spec":{"replicas":4}}
//
// Errors: *InvalidJSONError, *DecodeError, *TooManyOperationsError (the
// patch cannot be read) and *OperationError (an operation failed: nothing
// is applied).
func JSONPatch(original, patch []byte) ([]byte, error) {
	r, err := JSONPatchWith(original, patch, Options{})
	if err != nil {
		return nil, err
	}
	return r.Object, nil
}

// v4Operation and v4Patch have the shapes of gopkg.in/evanphx/json-patch.v4's
// Operation and Patch, which the real server decodes the body into; their
// names are rewritten in decoding errors.
type v4Operation map[string]*json.RawMessage
type v4Patch []v4Operation

var v4TypeNames = strings.NewReplacer("patch.v4Patch", "jsonpatch.Patch", "patch.v4Operation", "jsonpatch.Operation")

// JSONPatchWith is JSONPatch with options, returning strict-decoding
// findings too.
//
// The real server applies JSON patches with json-patch v4. This engine
// uses v5 and rewrites operations where the two differ, so the outcome is
// v4's:
//   - "replace" of a missing object key succeeds and adds the key;
//   - "add"/"replace" without "value" set null;
//   - "add", "remove", "move" and "copy" on the whole document (path "")
//     and "move"/"copy" from "" fail.
func JSONPatchWith(original, patch []byte, opts Options) (Result, error) {
	if !json.Valid(patch) {
		return Result{}, &InvalidJSONError{}
	}
	var res Result
	if opts.strict() {
		se, err := strictDecode(patch, shapeOpList)
		if err != nil {
			return Result{}, &DecodeError{Message: "error decoding patch: " + err.Error()}
		}
		for _, e := range se {
			res.StrictErrors = append(res.StrictErrors, "json patch "+e)
		}
	}
	var ops v4Patch
	if err := json.Unmarshal(patch, &ops); err != nil {
		return Result{}, &DecodeError{Message: v4TypeNames.Replace(err.Error())}
	}
	if len(ops) > MaxJSONPatchOperations {
		return Result{}, &TooManyOperationsError{Got: len(ops)}
	}
	out, err := applyV4(original, ops)
	if err != nil {
		return Result{}, err
	}
	res.Object = out
	if len(res.StrictErrors) > 0 {
		res.PatchValue = sortedJSON(out)
	}
	return res, nil
}

// applyV4 applies ops with v4's semantics (see JSONPatchWith). Runs of
// operations go to the v5 library together. A "replace" whose last token
// is an array index (or "-") needs to know whether its parent is an object
// (v4: set the key) or an array (v4: replace the element); that is read
// from a decoded snapshot of the document, which is refreshed (the pending
// run applied first) only when an operation since the snapshot may have
// changed that parent.
//
// Example: 10000 times {"op":"replace","path":"/spec/tags/0"} read one
// snapshot: replacing /spec/tags/0 cannot change what /spec/tags is.
func applyV4(doc []byte, ops v4Patch) ([]byte, error) {
	if len(doc) == 0 {
		return doc, nil
	}
	var (
		batch   []map[string]json.RawMessage
		dirty   [][]string // paths changed since the snapshot
		snap    any
		hasSnap bool
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		out, err := applyV5(doc, batch)
		if err != nil {
			return &OperationError{Err: err}
		}
		doc, batch, dirty, hasSnap = out, nil, nil, false
		return nil
	}
	for _, op := range ops {
		o, kind, path, err := rewriteOp(op)
		if err != nil {
			return nil, &OperationError{Err: err}
		}
		segs := pointerSegments(path)
		switch kind {
		case "replace":
			if len(segs) > 0 {
				last := segs[len(segs)-1]
				_, numErr := strconv.Atoi(last)
				isObj := numErr != nil && last != "-"
				if !isObj {
					parent := segs[:len(segs)-1]
					if touches(dirty, parent) {
						if err := flush(); err != nil {
							return nil, err
						}
					}
					if !hasSnap {
						snap, hasSnap = decodeSnapshot(doc), true
					}
					isObj = isObject(snap, parent)
				}
				if isObj {
					o["op"] = json.RawMessage(`"add"`)
				}
			}
			dirty = append(dirty, segs)
		case "add", "remove", "copy":
			dirty = append(dirty, parentOf(segs))
		case "move":
			from, _ := stringField(op, "from")
			dirty = append(dirty, parentOf(segs), parentOf(pointerSegments(from)))
		}
		batch = append(batch, o)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return doc, nil
}

// pointerSegments splits a JSON pointer into decoded tokens ("" → none).
func pointerSegments(path string) []string {
	parts := strings.Split(path, "/")
	if len(parts) < 2 {
		return nil
	}
	parts = parts[1:]
	for i, p := range parts {
		parts[i] = decodePointerToken(p)
	}
	return parts
}

func parentOf(segs []string) []string {
	if len(segs) == 0 {
		return segs
	}
	return segs[:len(segs)-1]
}

// touches reports whether a change at one of the dirty paths may change
// the value at path (a dirty path is a prefix of it).
func touches(dirty [][]string, path []string) bool {
	for _, d := range dirty {
		if len(d) > len(path) {
			continue
		}
		prefix := true
		for i := range d {
			if d[i] != path[i] {
				prefix = false
				break
			}
		}
		if prefix {
			return true
		}
	}
	return false
}

func decodeSnapshot(doc []byte) any {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// isObject walks parent the way v4's findObject does and reports whether
// it ends on a JSON object.
func isObject(cur any, parent []string) bool {
	for _, p := range parent {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil {
				return false
			}
			if i < 0 {
				i += len(c)
			}
			if i < 0 || i >= len(c) {
				return false
			}
			cur = c[i]
		default:
			return false
		}
	}
	_, ok := cur.(map[string]any)
	return ok
}

var errUnsupported = &simpleError{"operation not supported the way the real server applies it"}

type simpleError struct{ s string }

func (e *simpleError) Error() string { return e.s }

// rewriteOp checks one operation against v4's rules and returns it in a
// form v5 applies identically.
func rewriteOp(op v4Operation) (o map[string]json.RawMessage, kind, path string, err error) {
	if op == nil {
		return nil, "", "", &simpleError{"Unexpected kind: unknown"}
	}
	o = make(map[string]json.RawMessage, len(op))
	for k, v := range op {
		if v == nil {
			o[k] = json.RawMessage("null")
		} else {
			o[k] = *v
		}
	}
	kind, ok := stringField(op, "op")
	if !ok {
		return nil, "", "", &simpleError{"Unexpected kind: unknown"}
	}
	o["op"], _ = json.Marshal(kind)
	path, ok = stringField(op, "path")
	if !ok {
		return nil, "", "", &simpleError{"operation missing path field"}
	}
	switch kind {
	case "add", "replace":
		if _, has := op["value"]; !has {
			o["value"] = json.RawMessage("null")
		}
		if kind == "add" && path == "" {
			return nil, "", "", errUnsupported
		}
	case "remove":
		if path == "" {
			return nil, "", "", errUnsupported
		}
	case "move", "copy":
		from, ok := stringField(op, "from")
		if !ok || from == "" || path == "" {
			return nil, "", "", errUnsupported
		}
	case "test":
	default:
		return nil, "", "", &simpleError{"Unexpected kind: " + kind}
	}
	return o, kind, path, nil
}

// stringField reads a string member; a missing, null or non-string member
// is !ok, as in v4.
func stringField(op v4Operation, k string) (string, bool) {
	raw := op[k]
	if raw == nil {
		return "", false
	}
	var s string
	if err := json.Unmarshal(*raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func applyV5(doc []byte, ops []map[string]json.RawMessage) (out []byte, err error) {
	// The library boundary: a panic in it must not reach the user (in
	// WebAssembly it would end the program); it fails the patch instead.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &simpleError{"json patch library failure"}
		}
	}()
	b, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(b)
	if err != nil {
		return nil, err
	}
	o := jsonpatch.NewApplyOptions()
	o.EscapeHTML = false
	o.SupportNegativeIndices = true
	o.AllowMissingPathOnRemove = false
	o.EnsurePathExistsOnAdd = false
	return p.ApplyWithOptions(doc, o)
}

var pointerDecoder = strings.NewReplacer("~1", "/", "~0", "~")

func decodePointerToken(s string) string { return pointerDecoder.Replace(s) }

// sortedJSON re-encodes a document with sorted keys and HTML escaping, as
// Go's encoding/json marshals the v4 library's maps.
func sortedJSON(b []byte) string {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return string(b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(b)
	}
	return string(out)
}
