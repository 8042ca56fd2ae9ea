// Package protobuf decodes Kubernetes protobuf request bodies
// (Content-Type: application/vnd.kubernetes.protobuf) of built-in kinds
// into the JSON object the typed JSON encoding of the same Go value gives,
// and encodes such objects (and lists, Status, watch frames) back into the
// bytes kube-apiserver answers (encode.go), without importing k8s.io: the
// message layouts come from the generated schemas (schema.Schema.Proto,
// see reference/gen/proto.go) and meta.json.
//
// A body is the four bytes "k8s\x00" followed by a runtime.Unknown:
//
//	message Unknown {
//	  optional TypeMeta typeMeta = 1;   // {apiVersion = 1, kind = 2}
//	  optional bytes raw = 2;           // the object's own message
//	  optional string contentEncoding = 3;
//	  optional string contentType = 4;
//	}
//
// so a ConfigMap {"metadata":{"name":"x"},"data":{"a":"b"}} arrives as
//
//	6b 38 73 00                      k8s\0
//	0a 0f 0a 02 "v1" 12 09 "ConfigMap"   typeMeta
//	12 ..                            raw: 0a 03 0a 01 "x" (metadata.name)
//	                                      12 06 0a 01 "a" 12 01 "b" (data)
//	1a 00 22 00                      contentEncoding, contentType
package protobuf

import (
	"bytes"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// ContentType is the media type of Kubernetes protobuf bodies.
const ContentType = "application/vnd.kubernetes.protobuf"

// Prefix starts every Kubernetes protobuf body.
var Prefix = []byte{'k', '8', 's', 0}

// Unknown is the envelope of a body (runtime.Unknown).
type Unknown struct {
	APIVersion      string
	Kind            string
	Raw             []byte
	ContentEncoding string
	ContentType     string
}

// DecodeEnvelope checks the prefix and decodes the envelope, with the real
// serializer's error texts ("empty data", "empty body", "provided data
// does not appear to be a protobuf message, expected prefix [107 56 115 0]").
func DecodeEnvelope(body []byte) (*Unknown, error) {
	switch {
	case len(body) == 0:
		return nil, &Error{Code: ErrEmpty, Msg: "empty data"}
	case len(body) < len(Prefix) || !bytes.Equal(body[:len(Prefix)], Prefix):
		return nil, &Error{Code: ErrNotProtobuf, Msg: sprintf("provided data does not appear to be a protobuf message, expected prefix %v", Prefix)}
	case len(body) == len(Prefix):
		return nil, &Error{Code: ErrEmpty, Msg: "empty body"}
	}
	data := body[len(Prefix):]
	u := &Unknown{}
	for i := 0; i < len(data); {
		f, j, err := next(data, i, "Unknown")
		if err != nil {
			return nil, err
		}
		i = j
		if f.num > 4 {
			continue
		}
		if f.typ != wireBytes {
			return nil, wrongWireType(f.typ, [...]string{"", "TypeMeta", "Raw", "ContentEncoding", "ContentType"}[f.num])
		}
		switch f.num {
		case 1:
			if err := u.typeMeta(f.b); err != nil {
				return nil, err
			}
		case 2:
			u.Raw = append(u.Raw[:0], f.b...)
		case 3:
			u.ContentEncoding = string(f.b)
		case 4:
			u.ContentType = string(f.b)
		}
	}
	return u, nil
}

// typeMeta merges a TypeMeta message {apiVersion = 1, kind = 2} into u.
func (u *Unknown) typeMeta(data []byte) error {
	for i := 0; i < len(data); {
		f, j, err := next(data, i, "TypeMeta")
		if err != nil {
			return err
		}
		i = j
		if f.num > 2 {
			continue
		}
		if f.typ != wireBytes {
			return wrongWireType(f.typ, [...]string{"", "APIVersion", "Kind"}[f.num])
		}
		if f.num == 1 {
			u.APIVersion = string(f.b)
		} else {
			u.Kind = string(f.b)
		}
	}
	return nil
}

func wrongWireType(typ int, goName string) *Error {
	return malformed("proto: wrong wireType = %d for field %s", typ, goName)
}

// DecodeToJSONObject decodes a protobuf body (envelope and object) of the
// type whose generated schema is s, e.g. builtin.Definition(
// "io.k8s.api.core.v1.ConfigMap"), into the object the typed JSON
// encoding gives, with apiVersion and kind from the envelope (left out
// when the envelope has none, as the JSON encoding omits them).
func DecodeToJSONObject(body []byte, s *schema.Schema) (map[string]any, error) {
	u, err := DecodeEnvelope(body)
	if err != nil {
		return nil, err
	}
	return u.Decode(s)
}

// Decode decodes the enveloped object (u.Raw) of the type whose generated
// schema is s, and sets apiVersion and kind from the envelope when it has
// them. Callers that word envelope and object errors differently (the real
// server does) call DecodeEnvelope and then Decode.
func (u *Unknown) Decode(s *schema.Schema) (map[string]any, error) {
	name := u.Kind
	if name == "" {
		name = "Object"
	}
	obj, err := decodeMessage(u.Raw, s, name)
	if err != nil {
		return nil, err
	}
	if u.APIVersion != "" {
		obj["apiVersion"] = validUTF8(u.APIVersion)
	}
	if u.Kind != "" {
		obj["kind"] = validUTF8(u.Kind)
	}
	return obj, nil
}

// DecodeMessage decodes one message (no envelope) of the type whose
// generated schema is s into its typed JSON object.
func DecodeMessage(raw []byte, s *schema.Schema) (map[string]any, error) {
	return decodeMessage(raw, s, "Object")
}
