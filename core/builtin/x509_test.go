//go:build !js

package builtin

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"testing"
)

// rsaPKIX writes what crypto/x509 writes, for the key sizes a token signer
// might use.
func TestRSAPKIXIsX509s(t *testing.T) {
	for _, bits := range []int{1024, 2048, 3072} {
		key, err := rsa.GenerateKey(rand.Reader, bits)
		if err != nil {
			t.Fatal(err)
		}
		want, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		if got := rsaPKIX(&key.PublicKey); !bytes.Equal(got, want) {
			t.Errorf("%d bits: rsaPKIX = %x\nwant %x", bits, got, want)
		}
	}
}
