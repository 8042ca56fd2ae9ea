package apiserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"strings"
	"testing"
)

// CertificateSigningRequests (core/builtin/csr.go): create validation,
// the requester recorded, /approval and /status as kube-apiserver v1.37.2's
// strategies treat them.

const csrPath = "/apis/certificates.k8s.io/v1/certificatesigningrequests"

func csrRequest(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane", Organization: []string{"dev"}}}, key)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
}

func csrJSON(name, request, signer, usages string) string {
	return `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"` + name + `"},"spec":{"request":"` + request +
		`","signerName":"` + signer + `","usages":` + usages + `,"username":"root","groups":["system:masters"]},"status":{"conditions":[{"type":"Approved","status":"True"}]}}`
}

func TestCertificateSigningRequest(t *testing.T) {
	s := New(Options{})
	req := csrRequest(t)
	notPEM := base64.StdEncoding.EncodeToString([]byte("hello"))
	for _, c := range []struct {
		name, body string
		code       int
		message    string
	}{
		{"not a CSR", csrJSON("bad", notPEM, "example.com/signer", `["client auth"]`), 422, `spec.request: Invalid value: "aGVsbG8=": PEM block type must be CERTIFICATE REQUEST`},
		{"no usages", csrJSON("bad", req, "example.com/signer", `[]`), 422, `CertificateSigningRequest.certificates.k8s.io "bad" is invalid: spec.usages: Required value`},
		{"unknown usage", csrJSON("bad", req, "example.com/signer", `["fly"]`), 422, `spec.usages[0]: Unsupported value: "fly": supported values:`},
		{"legacy signer", csrJSON("bad", req, "kubernetes.io/legacy-unknown", `["client auth"]`), 422, `spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version`},
		{"signer without path", csrJSON("bad", req, "example", `["client auth"]`), 422, `spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form 'example.com/signer-name'`},
		{"signer one-label domain", csrJSON("bad", req, "example/x", `["client auth"]`), 422, `spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, "POST", csrPath, hooksJSON, c.body)
			msg, _ := out["message"].(string)
			if code != c.code || !strings.Contains(msg, c.message) {
				t.Fatalf("%d %q, want %d %q", code, msg, c.code, c.message)
			}
		})
	}

	created := mustDo(t, s, 201, "POST", csrPath, hooksJSON, csrJSON("jane", req, "kubernetes.io/kube-apiserver-client", `["client auth"]`))
	spec, _ := created["spec"].(map[string]any)
	if spec["username"] != "system:anonymous" || jsonOf(spec["groups"]) != `["system:unauthenticated"]` || jsonOf(created["status"]) != `{}` {
		t.Errorf("requester or status not reset: %v %v", spec, created["status"])
	}
	if _, ok := metaOf(created)["generation"]; ok {
		t.Errorf("generation set: %v", metaOf(created))
	}
	steps := []struct {
		name, method, path, body string
		code                     int
		message                  string
	}{
		{"status may not approve", "PUT", csrPath + "/jane/status", `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"jane"},"status":{"conditions":[{"type":"Approved","status":"True"}]}}`,
			422, `status.conditions: Forbidden: updates may not add a condition of type "Approved"`},
		{"approval status False", "PUT", csrPath + "/jane/approval", `{"metadata":{"name":"jane"},"status":{"conditions":[{"type":"Approved","status":"False"}]}}`,
			422, `status.conditions[0].status: Unsupported value: "False": supported values: "True"`},
		{"approve", "PUT", csrPath + "/jane/approval", `{"metadata":{"name":"jane"},"status":{"conditions":[{"type":"Approved","status":"True","reason":"KubectlApprove","message":"This CSR was approved by kubectl certificate approve."}]}}`, 200, ""},
		{"deny as well", "PUT", csrPath + "/jane/approval", `{"metadata":{"name":"jane"},"status":{"conditions":[{"type":"Approved","status":"True"},{"type":"Denied","status":"True"}]}}`,
			422, `status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive`},
		{"unapprove", "PUT", csrPath + "/jane/approval", `{"metadata":{"name":"jane"},"status":{"conditions":[]}}`,
			422, `status.conditions: Forbidden: updates may not remove a condition of type "Approved"`},
		{"stale resourceVersion", "PUT", csrPath + "/jane/approval", `{"metadata":{"name":"jane","resourceVersion":"1"},"status":{"conditions":[{"type":"Approved","status":"True"}]}}`,
			409, `Operation cannot be fulfilled on certificatesigningrequests.certificates.k8s.io "jane": the object has been modified; please apply your changes to the latest version and try again`},
		{"approval is not deleted", "DELETE", csrPath + "/jane/approval", "", 405, `delete is not supported on resources of kind "certificatesigningrequests/approval.certificates.k8s.io"`},
	}
	for _, c := range steps {
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, c.method, c.path, hooksJSON, c.body)
			msg, _ := out["message"].(string)
			if code != c.code || !strings.Contains(msg, c.message) {
				t.Fatalf("%d %q, want %d %q", code, msg, c.code, c.message)
			}
		})
	}
	got := mustDo(t, s, 200, "GET", csrPath+"/jane/approval", "", "")
	conds, _ := got["status"].(map[string]any)["conditions"].([]any)
	if len(conds) != 1 {
		t.Fatalf("conditions %v", conds)
	}
	c := conds[0].(map[string]any)
	if c["type"] != "Approved" || c["reason"] != "KubectlApprove" || c["lastUpdateTime"] == nil || c["lastTransitionTime"] == nil {
		t.Errorf("condition %v", c)
	}
	// a main update changes metadata only
	upd := mustDo(t, s, 200, "PUT", csrPath+"/jane", hooksJSON, `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"jane","labels":{"a":"b"}},"spec":{"signerName":"example.com/other","usages":["server auth"],"request":"`+req+`"}}`)
	if upd["spec"].(map[string]any)["signerName"] != "kubernetes.io/kube-apiserver-client" || len(upd["status"].(map[string]any)["conditions"].([]any)) != 1 || metaOf(upd)["labels"] == nil {
		t.Errorf("update %v", upd)
	}
}
