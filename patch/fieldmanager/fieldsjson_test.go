package fieldmanager

import (
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

var fieldsV1Samples = []string{
	`{"f:data":{".":{},"f:key-0":{},"f:key-1":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`,
	`{"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{}}}}}}`,
	`{"f:metadata":{"f:finalizers":{"v:\"a/b\"":{}}}}`,
	`{}`,
	`{"f:a":{}, "f:b":{}}`,        // whitespace: jsonx.Decode's
	`{"f:a":{},"f:a":{"f:b":{}}}`, // a repeated key: jsonx.Decode's
	`{"f:a":1}`,
	`{"f:\u00e9":{}}`,
	"{\"f:\xff\":{}}",
	`{"f:a":{}`,
	`{"f:a":{}}x`,
	`[]`,
	``,
}

// TestDecodeFieldsV1IsDecode: the field set reader gives what
// jsonx.Decode gives — the maps, or an error — for sets as ToJSON writes
// them and for what it never writes.
func TestDecodeFieldsV1IsDecode(t *testing.T) {
	for _, in := range fieldsV1Samples {
		t.Run(in, func(t *testing.T) { sameAsDecode(t, []byte(in)) })
	}
}

func FuzzDecodeFieldsV1(f *testing.F) {
	for _, in := range fieldsV1Samples {
		f.Add([]byte(in))
	}
	f.Fuzz(sameAsDecode)
}

func sameAsDecode(t *testing.T, b []byte) {
	got, gotErr := decodeFieldsV1(b)
	want, wantErr := jsonx.Decode(b)
	if (gotErr != nil) != (wantErr != nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: got %#v, %v; jsonx.Decode: %#v, %v", b, got, gotErr, want, wantErr)
	}
}
