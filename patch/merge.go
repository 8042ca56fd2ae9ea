package patch

import (
	"encoding/json"

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
// The real server uses json-patch v4's MergePatch; v5 differs only for a
// patch that is null or a scalar (v5 returns it, v4 fails with "Invalid
// JSON Patch"), which is decided here before v5 runs. Under Ignore an array
// patch replaces the document (the server then fails to decode it).
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
	out, err := mergeV5(original, patch)
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

// mergeV5 calls the library; a panic in it becomes ErrBadJSONPatch.
func mergeV5(original, patch []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, jsonpatch.ErrBadJSONPatch
		}
	}()
	return jsonpatch.MergePatch(original, patch)
}
