package builtin

import (
	"crypto/rsa"
	"math/big"
)

// rsaPKIX is the DER SubjectPublicKeyInfo of an RSA public key, byte for
// byte what x509.MarshalPKIXPublicKey writes (x509_test.go compares them),
// without linking crypto/x509 into the browser build. Its SHA-256 is the
// "kid" of the service-account tokens, as kube computes it.
//
//	SEQUENCE { SEQUENCE { OID rsaEncryption, NULL },
//	           BIT STRING { SEQUENCE { INTEGER n, INTEGER e } } }
func rsaPKIX(pub *rsa.PublicKey) []byte {
	key := derTLV(0x30, append(derInt(pub.N), derInt(big.NewInt(int64(pub.E)))...))
	alg := []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00}
	bits := derTLV(0x03, append([]byte{0}, key...))
	return derTLV(0x30, append(alg, bits...))
}

// derInt is a non-negative INTEGER (a leading zero byte when the high bit
// is set).
func derInt(v *big.Int) []byte {
	b := v.Bytes()
	if len(b) == 0 || b[0]&0x80 != 0 {
		b = append([]byte{0}, b...)
	}
	return derTLV(0x02, b)
}

// derTLV is tag, DER length, value.
func derTLV(tag byte, v []byte) []byte {
	out := []byte{tag}
	switch n := len(v); {
	case n < 0x80:
		out = append(out, byte(n))
	case n < 0x100:
		out = append(out, 0x81, byte(n))
	case n < 0x10000:
		out = append(out, 0x82, byte(n>>8), byte(n))
	default:
		out = append(out, 0x83, byte(n>>16), byte(n>>8), byte(n))
	}
	return append(out, v...)
}
