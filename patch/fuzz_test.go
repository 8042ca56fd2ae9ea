package patch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

const fuzzDoc = `{"metadata":{"name":"w1","labels":{"app":"demo"}},"spec":{"replicas":2,"tags":["a","b"],"ports":[{"name":"http","port":80}]}}`

func FuzzJSONPatch(f *testing.F) {
	f.Add([]byte(fuzzDoc), []byte(`[{"op":"replace","path":"/spec/replicas","value":4}]`))
	f.Add([]byte(fuzzDoc), []byte(`[{"op":"test","path":"/spec/tags/0","value":"a"},{"op":"remove","path":"/spec/tags/0"}]`))
	f.Add([]byte(fuzzDoc), []byte(`[{"op":"move","from":"/spec/tags","path":"/spec/x"},{"op":"copy","from":"/spec","path":"/spec2"}]`))
	f.Add([]byte(`[]`), []byte(`[{"op":"replace","path":"","value":[1]}]`))
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		out, err := JSONPatch(original, patch)
		if err != nil {
			if ToAPIError(err) == nil {
				t.Fatalf("error without a status: %v", err)
			}
			return
		}
		if json.Valid(original) && len(original) > 0 && !json.Valid(out) {
			t.Fatalf("invalid output %q", out)
		}
	})
}

func FuzzMergePatch(f *testing.F) {
	f.Add([]byte(fuzzDoc), []byte(`{"metadata":{"labels":{"app":null,"x":"y"}},"spec":{"tags":["c"]}}`))
	f.Add([]byte(fuzzDoc), []byte(`null`))
	f.Add([]byte(fuzzDoc), []byte(`[1,{"a":null}]`))
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		out, err := MergePatch(original, patch)
		if err != nil {
			if ToAPIError(err) == nil {
				t.Fatalf("error without a status: %v", err)
			}
			return
		}
		if json.Valid(original) && !json.Valid(out) {
			t.Fatalf("invalid output %q", out)
		}
		// The map-based merge agrees with the library's (v5) wherever
		// both sides are objects, up to key order.
		if firstByte(original) != '{' || firstByte(patch) != '{' {
			return
		}
		lib, err := mergeV5(original, patch)
		if err != nil {
			return
		}
		a, errA := decodeNumbers(out)
		b, errB := decodeNumbers(lib)
		if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
			t.Fatalf("map merge and json-patch v5 differ:\n ours %s\n v5   %s", out, lib)
		}
	})
}

func FuzzStrategicMergePatch(f *testing.F) {
	orig := `{"name":"n","mergingList":[{"name":"a","value":"1"},{"name":"b"}],"mergingIntList":[1,2,3],"simpleMap":{"k":"v"},"retainKeysMap":{"name":"r","value":"v"}}`
	f.Add([]byte(orig), []byte(`{"mergingList":[{"name":"c"},{"$patch":"delete","name":"a"}],"$setElementOrder/mergingList":[{"name":"c"},{"name":"b"}]}`))
	f.Add([]byte(orig), []byte(`{"$deleteFromPrimitiveList/mergingIntList":[2],"mergingIntList":[5]}`))
	f.Add([]byte(orig), []byte(`{"retainKeysMap":{"$retainKeys":["name"],"name":"x"},"simpleMap":{"$patch":"replace"}}`))
	f.Add([]byte(orig), []byte(`{"mergingList":[{"$patch":"replace"},{"name":"z"}],"nonMergingList":null}`))
	f.Add([]byte(orig), []byte(`{}`))
	s := mergeItemSchema()
	f.Fuzz(func(t *testing.T, original, patch []byte) {
		out, err := StrategicMergePatch(original, patch, s)
		if err != nil {
			if ToAPIError(err) == nil {
				t.Fatalf("error without a status: %v", err)
			}
		} else if !json.Valid(out) {
			t.Fatalf("invalid output %q", out)
		}
		// An empty patch leaves a valid object unchanged.
		if o, err := jsonx.DecodeObject(original); err == nil {
			same, err := StrategicMergePatch(original, []byte(`{}`), s)
			if err != nil {
				t.Fatalf("empty patch: %v", err)
			}
			want, _ := jsonx.Marshal(o)
			if !bytes.Equal(same, want) {
				t.Fatalf("empty patch changed %s into %s", want, same)
			}
		}
	})
}
