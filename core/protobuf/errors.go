package protobuf

import "fmt"

// ErrorCode classifies an Error.
type ErrorCode int

const (
	// ErrEmpty: the body is empty or only the "k8s\x00" prefix.
	ErrEmpty ErrorCode = iota + 1
	// ErrNotProtobuf: the body lacks the "k8s\x00" prefix.
	ErrNotProtobuf
	// ErrMalformed: the bytes are not a valid encoding of the message.
	ErrMalformed
	// ErrInvalidValue: well-formed, but a value has no JSON form (an
	// IntOrString of an unknown type, embedded JSON that does not parse).
	ErrInvalidValue
	// ErrUnsupported: a type this package does not decode (a CRD's
	// openAPIV3Schema), or nesting deeper than MaxDepth.
	ErrUnsupported
	// ErrSchema: the schema has no (valid) protobuf description; a bug of
	// the caller or of the generated schemas, not of the request.
	ErrSchema
)

// Error is a failure to decode a protobuf body. Msg is the text the real
// server's decoder gives where it is known ("empty body", "unexpected
// EOF", "proto: wrong wireType = 0 for field Name", ...): the apiserver
// answers 400 BadRequest with it.
type Error struct {
	Code ErrorCode
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
