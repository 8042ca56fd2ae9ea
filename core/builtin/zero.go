package builtin

import "github.com/kubesandbox/kubesandbox/core/jsonx"

// ZeroObject returns a fresh copy of the typed zero object of a built-in
// kind as the real server's JSON encoding writes it, with apiVersion and
// kind set, or nil for a kind that is not built in. For example
// ZeroObject("Pod") is
//
//	{"apiVersion":"v1","kind":"Pod","metadata":{},"spec":{"containers":null},"status":{}}
//
// The real field manager diffs a created object against this value, so
// structs Go always writes ("spec", "status") exist in both and their "."
// markers are not owned by the creator.
func ZeroObject(kind string) map[string]any {
	src, ok := zeroObjects[kind]
	if !ok {
		return nil
	}
	obj, err := jsonx.DecodeObject([]byte(src))
	if err != nil {
		return nil // ruled out by the package's tests
	}
	return obj
}

// ZeroObjectFor is ZeroObject for the kind of one API version: a kind
// name two groups share (core/v1 and events.k8s.io/v1 Event) is told apart
// by apiVersion.
func ZeroObjectFor(apiVersion, kind string) map[string]any {
	if _, ok := zeroObjects[apiVersion+"/"+kind]; ok {
		return ZeroObject(apiVersion + "/" + kind)
	}
	return ZeroObject(kind)
}
