package protobuf

import (
	"errors"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// FuzzDecode decodes arbitrary bodies as every built-in kind and as
// DeleteOptions: no panic, every error an *Error, every result a JSON
// object that survives a JSON round trip unchanged and an encoding (where
// the kind encodes) that decodes back to it. The seeds under
// testdata/fuzz/FuzzDecode are real client-go encodings (written by
// reference/roundtrip with KUBESANDBOX_WRITE_SEEDS=1) plus hand-made ones.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("k8s\x00"))
	f.Add(envelope("v1", "ConfigMap", pb{}.msg(1, pb{}.str(1, "x")).entry(2, "a", "b")))
	f.Add(envelope("v1", "Pod", pb{}.msg(2, pb{}.msg(2, pb{}.str(1, "c").msg(8, pb{}.msg(1, pb{}.str(1, "cpu").msg(2, pb{}.str(1, "1"))))))))
	var schemas []*schema.Schema
	for _, r := range builtin.Resources() {
		schemas = append(schemas, r.SchemaOf())
	}
	schemas = append(schemas, builtin.Definition("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, s := range schemas {
			obj, err := DecodeToJSONObject(body, s)
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is a %T, not *Error", err, err)
				}
				continue
			}
			b, err := jsonx.Marshal(obj)
			if err != nil {
				t.Fatalf("result does not encode: %v", err)
			}
			again, err := jsonx.DecodeObject(b)
			if err != nil {
				t.Fatalf("result does not decode: %v", err)
			}
			if !reflect.DeepEqual(again, obj) {
				t.Fatalf("JSON round trip changes the result\n%#v\n%#v", obj, again)
			}
			if !Encodable(s) {
				continue
			}
			enc, err := EncodeObject(obj, s)
			if err != nil {
				t.Fatalf("decoded object does not encode: %v\n%s", err, b)
			}
			back, err := DecodeToJSONObject(enc, s)
			if err != nil {
				t.Fatalf("encoding does not decode: %v", err)
			}
			if !reflect.DeepEqual(back, obj) {
				t.Fatalf("decode(encode(obj)) != obj\n%#v\n%#v", obj, back)
			}
		}
	})
}
