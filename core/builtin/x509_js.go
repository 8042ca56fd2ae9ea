//go:build js

package builtin

import "errors"

// checkCSRDER in the browser checks only that the request is one DER
// SEQUENCE whose length is the block's: crypto/x509 (≈50 KB brotli in the
// wasm) is left out, so a request with a bad signature or inner structure
// is accepted there (README, "Not built yet"). Natively: x509_native.go.
func checkCSRDER(der []byte) error {
	if len(der) < 2 || der[0] != 0x30 {
		return errors.New("x509: malformed certificate request")
	}
	n, hdr := int(der[1]), 2
	if n&0x80 != 0 {
		k := n & 0x7f
		if k == 0 || k > 3 || len(der) < 2+k {
			return errors.New("x509: malformed certificate request")
		}
		n, hdr = 0, 2+k
		for _, b := range der[2 : 2+k] {
			n = n<<8 | int(b)
		}
	}
	if hdr+n != len(der) {
		return errors.New("x509: trailing data")
	}
	return nil
}
