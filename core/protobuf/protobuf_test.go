package protobuf

import (
	"errors"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// pb builds protobuf bytes by hand.
type pb []byte

func (b pb) varint(v uint64) pb {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}
func (b pb) tag(num, typ int) pb           { return b.varint(uint64(num<<3 | typ)) }
func (b pb) bytes(num int, v []byte) pb    { return append(b.tag(num, 2).varint(uint64(len(v))), v...) }
func (b pb) str(num int, s string) pb      { return b.bytes(num, []byte(s)) }
func (b pb) msg(num int, m pb) pb          { return b.bytes(num, m) }
func (b pb) int(num int, v int64) pb       { return b.tag(num, 0).varint(uint64(v)) }
func (b pb) entry(num int, k, v string) pb { return b.msg(num, pb{}.str(1, k).str(2, v)) }
func (b pb) fixed64(v uint64) pb {
	for i := 0; i < 8; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func envelope(apiVersion, kind string, raw pb) []byte {
	return append([]byte("k8s\x00"), pb{}.msg(1, pb{}.str(1, apiVersion).str(2, kind)).bytes(2, raw).str(3, "").str(4, "")...)
}

func def(t *testing.T, name string) *schema.Schema {
	t.Helper()
	s := builtin.Definition("io.k8s." + name)
	if s == nil {
		t.Fatalf("no definition %s", name)
	}
	return s
}

func decodeString(t *testing.T, body []byte, s *schema.Schema) string {
	t.Helper()
	obj, err := DecodeToJSONObject(body, s)
	if err != nil {
		t.Fatalf("DecodeToJSONObject: %v", err)
	}
	b, err := jsonx.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDecode(t *testing.T) {
	meta := pb{}.str(1, "x").str(2, "").str(3, "default").int(7, 0).msg(8, nil)
	for _, tc := range []struct {
		name, def string
		body      []byte
		want      string
	}{
		{"configmap as kubectl create sends it", "api.core.v1.ConfigMap",
			envelope("v1", "ConfigMap", pb{}.msg(1, meta).entry(2, "a", "b")),
			`{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{"name":"x","namespace":"default"}}`},
		{"no typeMeta: no apiVersion, kind", "api.core.v1.ConfigMap",
			append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.msg(1, meta))...),
			`{"metadata":{"name":"x","namespace":"default"}}`},
		{"repeated message fields merge; later scalars win", "api.core.v1.ConfigMap",
			envelope("v1", "ConfigMap", pb{}.msg(1, pb{}.str(1, "a")).msg(1, pb{}.str(3, "ns")).msg(1, pb{}.str(1, "b"))),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","namespace":"ns"}}`},
		{"unknown fields are skipped", "api.core.v1.ConfigMap",
			envelope("v1", "ConfigMap", pb{}.int(99, 7).str(98, "x").tag(97, 1).varint(0).append(0, 0, 0, 0, 0, 0, 0).tag(96, 5).append(1, 2, 3, 4).tag(95, 3).int(1, 1).tag(95, 4)),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`},
		{"deployment replicas, int-or-string, quantities, time", "api.apps.v1.Deployment",
			envelope("apps/v1", "Deployment", pb{}.
				msg(1, pb{}.str(1, "d").msg(8, pb{}.int(1, 1714557600).int(2, 5))).
				msg(2, pb{}.int(1, 2).msg(4, pb{}.str(1, "RollingUpdate").msg(2, pb{}.msg(1, pb{}.int(1, 1).str(3, "25%")).msg(2, pb{}.int(2, 1)))))),
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"creationTimestamp":"2024-05-01T10:00:00Z","name":"d"},` +
				`"spec":{"replicas":2,"selector":null,"strategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"},"type":"RollingUpdate"},"template":{"metadata":{},"spec":{"containers":null}}},"status":{}}`},
		{"negative int32 is a ten-byte varint", "api.autoscaling.v1.Scale",
			envelope("autoscaling/v1", "Scale", pb{}.msg(2, pb{}.int(1, -1))),
			`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{},"spec":{"replicas":-1},"status":{"replicas":0}}`},
		{"packed repeated int64", "api.core.v1.PodSecurityContext",
			append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.bytes(4, pb{}.varint(1000).varint(2000)))...),
			`{"supplementalGroups":[1000,2000]}`},
		{"invalid UTF-8 becomes U+FFFD per byte", "api.core.v1.ConfigMap",
			envelope("v1", "ConfigMap", pb{}.entry(2, "k", "a\xff\xfeb")),
			"{\"apiVersion\":\"v1\",\"data\":{\"k\":\"a\uFFFD\uFFFDb\"},\"kind\":\"ConfigMap\",\"metadata\":{}}"},
		{"secret data is base64; missing map value is empty", "api.core.v1.Secret",
			envelope("v1", "Secret", pb{}.msg(2, pb{}.str(1, "k").bytes(2, []byte{0, 0xff})).msg(2, pb{}.str(1, "e"))),
			`{"apiVersion":"v1","data":{"e":"","k":"AP8="},"kind":"Secret","metadata":{}}`},
		{"delete options", "apimachinery.pkg.apis.meta.v1.DeleteOptions",
			envelope("v1", "DeleteOptions", pb{}.int(1, 0).msg(2, pb{}.str(1, "u").str(2, "5")).str(4, "Foreground").str(5, "All")),
			`{"apiVersion":"v1","dryRun":["All"],"gracePeriodSeconds":0,"kind":"DeleteOptions","preconditions":{"resourceVersion":"5","uid":"u"},"propagationPolicy":"Foreground"}`},
		{"managedFields fieldsV1 is embedded JSON", "api.core.v1.ConfigMap",
			envelope("v1", "ConfigMap", pb{}.msg(1, pb{}.msg(17, pb{}.str(1, "m").str(2, "Update").msg(7, pb{}.str(1, `{"f:data":{}}`))))),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"managedFields":[{"fieldsV1":{"f:data":{}},"manager":"m","operation":"Update"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeString(t, tc.body, def(t, tc.def)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func (b pb) append(x ...byte) pb { return append(b, x...) }

func TestDecodeErrors(t *testing.T) {
	cm := "api.core.v1.ConfigMap"
	for _, tc := range []struct {
		name, def string
		body      []byte
		code      ErrorCode
		msg       string
	}{
		{"empty", cm, nil, ErrEmpty, "empty data"},
		{"prefix only", cm, []byte("k8s\x00"), ErrEmpty, "empty body"},
		{"json body", cm, []byte(`{"kind":"ConfigMap"}`), ErrNotProtobuf, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"},
		{"short", cm, []byte("k8s"), ErrNotProtobuf, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"},
		{"truncated envelope", cm, []byte("k8s\x00\x12\x05ab"), ErrMalformed, "unexpected EOF"},
		{"envelope field of wrong wire type", cm, append([]byte("k8s\x00"), pb{}.int(2, 1)...), ErrMalformed, "proto: wrong wireType = 0 for field Raw"},
		{"illegal tag", cm, append([]byte("k8s\x00"), 0x00), ErrMalformed, "proto: Unknown: illegal tag 0 (wire type 0)"},
		{"end group", cm, envelope("v1", "ConfigMap", pb{}.tag(3, 4)), ErrMalformed, "proto: ConfigMap: wiretype end group for non-group"},
		{"varint overflow", cm, envelope("v1", "ConfigMap", pb{}.tag(99, 0).append(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)), ErrMalformed, "proto: integer overflow"},
		{"negative length", cm, envelope("v1", "ConfigMap", pb{}.tag(1, 2).varint(1<<63)), ErrMalformed, "proto: negative length found during unmarshaling"},
		{"wire type 6", cm, envelope("v1", "ConfigMap", pb{}.tag(99, 6)), ErrMalformed, "proto: illegal wireType 6"},
		{"string as varint", cm, envelope("v1", "ConfigMap", pb{}.msg(1, pb{}.int(1, 5))), ErrMalformed, "proto: wrong wireType = 0 for field Name"},
		{"bad int-or-string type", "api.core.v1.ServicePort", append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.msg(4, pb{}.int(1, 7)))...), ErrInvalidValue, "impossible IntOrString.Type"},
		{"empty quantity text", "api.core.v1.ResourceRequirements", append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.msg(1, pb{}.str(1, "cpu").msg(2, pb{}.str(1, ""))))...), ErrInvalidValue, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"bad embedded JSON", cm, envelope("v1", "ConfigMap", pb{}.msg(1, pb{}.msg(17, pb{}.msg(7, pb{}.str(1, "{"))))), ErrInvalidValue, ""},
		{"CRD schema: additionalProperties of a wrong wire type", "apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation", append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.msg(1, pb{}.int(30, 1)))...), ErrMalformed, "proto: wrong wireType = 0 for field AdditionalProperties"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeToJSONObject(tc.body, def(t, tc.def))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if pe.Code != tc.code || (tc.msg != "" && pe.Msg != tc.msg) {
				t.Errorf("err = %d %q, want %d %q", pe.Code, pe.Msg, tc.code, tc.msg)
			}
		})
	}
}

func TestDepthLimit(t *testing.T) {
	// A self-referencing description nests as deep as the bytes do.
	s := &schema.Schema{Proto: "next=1op"}
	s.Properties = map[string]*schema.Schema{"next": s}
	var raw pb
	for i := 0; i < MaxDepth+5; i++ {
		raw = pb{}.msg(1, raw)
	}
	_, err := DecodeMessage(raw, s)
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != ErrUnsupported {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
	if _, err := DecodeMessage(pb{}.msg(1, pb{}.msg(1, nil)), s); err != nil {
		t.Fatalf("shallow: %v", err)
	}
}

func TestBadDescription(t *testing.T) {
	for _, d := range []string{"a", "a=1", "a=1sq", "a=0sz", "=1sz", "a=1sz,a=1sz", "@1(a=2sz", "a=1sz)", "a=1?z", "@x()"} {
		t.Run(d, func(t *testing.T) {
			_, err := DecodeMessage(nil, &schema.Schema{Proto: d})
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != ErrSchema {
				t.Fatalf("err = %v, want ErrSchema", err)
			}
		})
	}
}

// TestEveryDefinitionHasAValidDescription parses every generated
// description and decodes its empty message.
func TestEveryDefinitionHasAValidDescription(t *testing.T) {
	defs, err := builtin.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range defs {
		if s.Proto == "" {
			continue
		}
		if _, err := tableOf(s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, r := range builtin.Resources() {
		if _, err := DecodeMessage(nil, r.SchemaOf()); err != nil && r.Kind != "CustomResourceDefinition" {
			t.Errorf("%s: %v", r.Kind, err)
		}
	}
}

// TestEncode spells out a few encodings by hand (reference/roundtrip
// compares every kind with the real serializer).
func TestEncode(t *testing.T) {
	// every non-pointer ObjectMeta field, creationTimestamp as the empty
	// Timestamp of the zero time
	meta := func(name string) pb {
		return pb{}.str(1, name).str(2, "").str(3, "").str(4, "").str(5, "").str(6, "").int(7, 0).msg(8, nil)
	}
	for _, tc := range []struct {
		name, def string
		obj       string
		want      []byte
	}{
		{"ConfigMap", "api.core.v1.ConfigMap", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"b":"2","a":"1"}}`,
			envelope("v1", "ConfigMap", pb{}.msg(1, meta("x")).entry(2, "a", "1").entry(2, "b", "2"))},
		{"negative int32 takes ten bytes", "api.autoscaling.v1.Scale", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"s"},"spec":{"replicas":-1}}`,
			envelope("autoscaling/v1", "Scale", pb{}.msg(1, meta("s")).msg(2, pb{}.int(1, -1)).msg(3, pb{}.int(1, 0).str(2, "")))},
		{"quantities canonical", "api.core.v1.ResourceQuota", `{"metadata":{"name":"q"},"spec":{"hard":{"cpu":"0.5","memory":1000}}}`,
			envelope("", "", pb{}.msg(1, meta("q")).msg(2, pb{}.msg(1, pb{}.str(1, "cpu").msg(2, pb{}.str(1, "500m"))).msg(1, pb{}.str(1, "memory").msg(2, pb{}.str(1, "1k")))).msg(3, nil))},
		{"Time in seconds, pointer absent", "api.core.v1.Namespace", `{"metadata":{"name":"n","creationTimestamp":"2024-05-01T10:00:00Z"},"spec":{}}`,
			envelope("", "", pb{}.msg(1, pb{}.str(1, "n").str(2, "").str(3, "").str(4, "").str(5, "").str(6, "").int(7, 0).msg(8, pb{}.int(1, 1714557600).int(2, 0))).msg(2, nil).msg(3, pb{}.str(1, "")))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := jsonx.DecodeObject([]byte(tc.obj))
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeObject(obj, def(t, tc.def))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(tc.want) {
				t.Errorf("got  % x\nwant % x", got, tc.want)
			}
		})
	}
}

// TestDecodeSchemaProps: a CRD's openAPIV3Schema and the JSON forms of its
// wrappers (the bytes of every form are compared with the real codec in
// reference/roundtrip).
func TestDecodeSchemaProps(t *testing.T) {
	str := pb{}.str(5, "string")
	for _, tc := range []struct {
		name string
		msg  pb
		want string
	}{
		{"type", pb{}.str(5, "object"), `{"openAPIV3Schema":{"type":"object"}}`},
		{"items as a schema", pb{}.msg(24, pb{}.msg(1, str)), `{"openAPIV3Schema":{"items":{"type":"string"}}}`},
		{"items as a list", pb{}.msg(24, pb{}.msg(2, str).msg(2, nil)), `{"openAPIV3Schema":{"items":[{"type":"string"},{}]}}`},
		{"additionalProperties false", pb{}.msg(30, pb{}.int(1, 0)), `{"openAPIV3Schema":{"additionalProperties":false}}`},
		{"additionalProperties schema", pb{}.msg(30, pb{}.int(1, 1).msg(2, str)), `{"openAPIV3Schema":{"additionalProperties":{"type":"string"}}}`},
		{"dependencies", pb{}.msg(32, pb{}.str(1, "a").msg(2, pb{}.str(2, "b"))).msg(32, pb{}.str(1, "c").msg(2, pb{}.msg(1, str))),
			`{"openAPIV3Schema":{"dependencies":{"a":["b"],"c":{"type":"string"}}}}`},
		{"properties, enum, maximum", pb{}.msg(29, pb{}.str(1, "p").msg(2, str)).msg(20, pb{}.str(1, `"x"`)).tag(9, 1).fixed64(0x4000000000000000),
			`{"openAPIV3Schema":{"enum":["x"],"maximum":2,"properties":{"p":{"type":"string"}}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := append([]byte("k8s\x00"), pb{}.bytes(2, pb{}.msg(1, tc.msg))...)
			if got := decodeString(t, body, def(t, "apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceValidation")); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
