package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// MergePatch applies an RFC 7386 JSON merge patch as kube-apiserver does,
// with the server's default field validation (Warn); warnings are dropped.
//
//	MergePatch([]byte(`{"labels":{"app":"demo","tier":"web"},"tags":["a","b"]}`),
//	           []byte(`{"labels":{"tier":null,"stage":"prod"},"tags":["c"]}`))
//	→ {"labels":{"app":"demo","stage":"prod"},"tags":["c"]}
//
// Errors: *InvalidJSONError, *DecodeError (a patch that is not an object,
// under Warn/Strict) and *InvalidMergePatchError (null or a scalar).
func MergePatch(original, patch []byte) ([]byte, error) {
	r, err := MergePatchWith(original, patch, Options{})
	if err != nil {
		return nil, err
	}
	return r.Object, nil
}

// MergePatchWith is MergePatch with options, returning strict-decoding
// findings (duplicate fields) too.
//
// The real server uses json-patch v4's MergePatch, which merges Go maps.
// v5 keeps each object's keys in a slice and looks them up linearly, so a
// patch adding n keys costs O(n²): 100,000 keys took ~25 s, and a 3 MiB
// body holds ~250,000 — one request could stall the single-threaded core
// in a browser for minutes. So the merge below is v4's algorithm on maps
// (mergeV4), linear; it is checked against the apimachinery goldens, the
// differential tests and, by FuzzMergePatch, against v5 wherever v4 and v5
// agree. A patch that is null or a scalar fails with "Invalid JSON Patch"
// as in v4. Under Ignore an array patch replaces the document (the server
// then fails to decode it).
func MergePatchWith(original, patch []byte, opts Options) (Result, error) {
	if !json.Valid(patch) {
		return Result{}, &InvalidJSONError{}
	}
	var res Result
	if opts.strict() {
		se, err := strictDecode(patch, shapeMap)
		if err != nil {
			return Result{}, &DecodeError{Message: "error decoding patch: " + err.Error()}
		}
		res.StrictErrors = se
	}
	switch firstByte(patch) {
	case '{', '[':
	default: // null, a string, a number, a boolean
		return Result{}, &InvalidMergePatchError{}
	}
	out, err := mergeV4(original, patch)
	if err != nil {
		if err == jsonpatch.ErrBadJSONPatch {
			return Result{}, &InvalidMergePatchError{}
		}
		return Result{}, err
	}
	res.Object = out
	if len(res.StrictErrors) > 0 {
		res.PatchValue = sortedJSON(out)
	}
	return res, nil
}

// firstByte is the first byte of a JSON text that is not white space.
func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// mergeV5 calls the library; a panic in it becomes ErrBadJSONPatch. Kept
// as the fuzz oracle for mergeV4.
func mergeV5(original, patch []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, jsonpatch.ErrBadJSONPatch
		}
	}()
	return jsonpatch.MergePatch(original, patch)
}

// mergeV4 is json-patch v4's MergePatch on decoded values (numbers kept
// as their text), e.g.
//
//	doc   {"a":{"b":1,"c":2},"d":[1]}
//	patch {"a":{"b":null,"e":{"f":null,"g":3}},"d":{"x":null}}
//	→     {"a":{"c":2,"e":{"g":3}},"d":{}}
//
// A patch object merges into a document object key by key: null deletes;
// an object merges into an object; anything else replaces, with the nulls
// inside a new value's objects pruned (discardNullValuesFromPatch, shared
// with the strategic merge patch; v4 prunes only where the document
// had no object to merge into). A document that is not an object is
// replaced by the patch, as in v4; a patch that is an array replaces the
// document (its objects' nulls pruned).
func mergeV4(original, patch []byte) ([]byte, error) {
	p, err := decodeNumbers(patch)
	if err != nil {
		return nil, jsonpatch.ErrBadJSONPatch
	}
	pm, isObj := p.(map[string]any)
	if !isObj {
		if _, isList := p.([]any); isList {
			discardNullValuesFromPatch(p) // v4: the array patch, nulls pruned inside its objects
			return json.Marshal(p)
		}
		return nil, jsonpatch.ErrBadJSONPatch
	}
	d, err := decodeNumbers(original)
	if err != nil {
		return nil, jsonpatch.ErrBadJSONDoc
	}
	if d == nil {
		return nil, jsonpatch.ErrBadJSONDoc // v4: a null document
	}
	dm, ok := d.(map[string]any)
	if !ok {
		// v4 fails to read a non-object document as one, and then
		// returns the patch with its nulls pruned.
		discardNullValuesFromPatch(pm)
		return json.Marshal(pm)
	}
	mergeObjects(dm, pm)
	return json.Marshal(dm)
}

func mergeObjects(doc, patch map[string]any) {
	for k, v := range patch {
		if v == nil {
			delete(doc, k)
			continue
		}
		cur, ok := doc[k]
		if !ok || cur == nil {
			discardNullValuesFromPatch(v)
			doc[k] = v
			continue
		}
		doc[k] = mergeValue(cur, v)
	}
}

// mergeValue is v4's merge(cur, patch) for a key both sides have.
func mergeValue(cur, patch any) any {
	cm, ok := cur.(map[string]any)
	if !ok {
		discardNullValuesFromPatch(patch)
		return patch
	}
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	mergeObjects(cm, pm)
	return cm
}

// decodeNumbers parses one JSON value, numbers as json.Number (their text
// survives the round trip, as v4's raw messages do).
func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
}
