//go:build !js

package builtin

import "crypto/x509"

// checkCSRDER parses a certificate request and checks its signature, as
// kube's ParseCSR and CheckSignature do. Natively crypto/x509 does it; the
// browser build (x509_js.go) leaves crypto/x509 out (≈50 KB brotli).
func checkCSRDER(der []byte) error {
	req, err := x509.ParseCertificateRequest(der)
	if err != nil {
		return err
	}
	return req.CheckSignature()
}
