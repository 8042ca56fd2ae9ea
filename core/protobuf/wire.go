package protobuf

import (
	"encoding/binary"
	"fmt"
)

// Wire types of the protobuf encoding.
const (
	wireVarint     = 0
	wireFixed64    = 1
	wireBytes      = 2
	wireStartGroup = 3
	wireEndGroup   = 4
	wireFixed32    = 5
)

// The texts of the errors gogo-generated Unmarshal methods return, which
// the real server puts into its 400 BadRequest.
var (
	errUnexpectedEOF = &Error{Code: ErrMalformed, Msg: "unexpected EOF"}
	errIntOverflow   = &Error{Code: ErrMalformed, Msg: "proto: integer overflow"}
	errInvalidLength = &Error{Code: ErrMalformed, Msg: "proto: negative length found during unmarshaling"}
	errEndOfGroup    = &Error{Code: ErrMalformed, Msg: "proto: unexpected end of group"}
)

func malformed(format string, args ...any) *Error {
	return &Error{Code: ErrMalformed, Msg: fmt.Sprintf(format, args...)}
}

// varint reads a base-128 varint at data[i:], as gogo does: at most ten
// bytes (a longer one is an integer overflow).
func varint(data []byte, i int) (uint64, int, error) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if shift >= 64 {
			return 0, i, errIntOverflow
		}
		if i >= len(data) {
			return 0, i, errUnexpectedEOF
		}
		b := data[i]
		i++
		v |= uint64(b&0x7F) << shift
		if b < 0x80 {
			return v, i, nil
		}
	}
}

// length reads a length prefix at data[i:] and returns the end of the
// bytes it announces.
func length(data []byte, i int) (int, int, error) {
	v, i, err := varint(data, i)
	if err != nil {
		return 0, i, err
	}
	n := int(v)
	if n < 0 {
		return 0, i, errInvalidLength
	}
	end := i + n
	if end < 0 {
		return 0, i, errInvalidLength
	}
	if end > len(data) {
		return 0, i, errUnexpectedEOF
	}
	return i, end, nil
}

// wireField is one field read off the wire: number, wire type and value
// (v for varint and fixed types, b for length-delimited ones).
type wireField struct {
	num int
	typ int
	v   uint64
	b   []byte
}

// next reads the field starting at data[i:] and returns it with the index
// after it. msg names the message in error texts, e.g.
// "proto: Pod: illegal tag 0 (wire type 0)". A group (wire type 3) is
// skipped whole and returned without a value.
func next(data []byte, i int, msg string) (wireField, int, error) {
	start := i
	tag, i, err := varint(data, i)
	if err != nil {
		return wireField{}, i, err
	}
	f := wireField{num: int(int32(tag >> 3)), typ: int(tag & 7)}
	if f.typ == wireEndGroup {
		return f, i, malformed("proto: %s: wiretype end group for non-group", msg)
	}
	if f.num <= 0 {
		return f, i, malformed("proto: %s: illegal tag %d (wire type %d)", msg, f.num, f.typ)
	}
	switch f.typ {
	case wireVarint:
		f.v, i, err = varint(data, i)
	case wireFixed64:
		if i+8 > len(data) {
			return f, i, errUnexpectedEOF
		}
		f.v = binary.LittleEndian.Uint64(data[i:])
		i += 8
	case wireFixed32:
		if i+4 > len(data) {
			return f, i, errUnexpectedEOF
		}
		f.v = uint64(binary.LittleEndian.Uint32(data[i:]))
		i += 4
	case wireBytes:
		var s, e int
		s, e, err = length(data, i)
		if err == nil {
			f.b, i = data[s:e], e
		}
	case wireStartGroup:
		var n int
		n, err = skip(data[start:])
		i = start + n
	default:
		err = malformed("proto: illegal wireType %d", f.typ)
	}
	return f, i, err
}

// skip returns the length of the field (tag included) at the start of
// data, as gogo's skipGenerated does for unknown fields.
func skip(data []byte) (int, error) {
	i, depth := 0, 0
	for i < len(data) {
		tag, j, err := varint(data, i)
		if err != nil {
			return 0, err
		}
		i = j
		switch typ := int(tag & 7); typ {
		case wireVarint:
			if _, i, err = varint(data, i); err != nil {
				return 0, err
			}
		case wireFixed64:
			i += 8
		case wireBytes:
			v, j, err := varint(data, i)
			if err != nil {
				return 0, err
			}
			n := int(v)
			if n < 0 {
				return 0, errInvalidLength
			}
			i = j + n
		case wireStartGroup:
			depth++
		case wireEndGroup:
			if depth == 0 {
				return 0, errEndOfGroup
			}
			depth--
		case wireFixed32:
			i += 4
		default:
			return 0, malformed("proto: illegal wireType %d", typ)
		}
		if i < 0 {
			return 0, errInvalidLength
		}
		if depth == 0 {
			if i > len(data) {
				return 0, errUnexpectedEOF
			}
			return i, nil
		}
	}
	return 0, errUnexpectedEOF
}
