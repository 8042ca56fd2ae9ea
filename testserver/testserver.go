// Package testserver starts kubesandbox's API server in-process for Go
// tests, the way controller-runtime's envtest starts kube-apiserver and
// etcd — in milliseconds, without binaries. It depends on nothing but the
// standard library and kubesandbox's core: no client-go.
//
// The test mode is envtest's: no controllers (nothing changes objects
// under a test: no garbage collector, no Deployment → ReplicaSet → Pods,
// no scheduler, no kubelets, no PodDisruptionBudget status), HTTPS with a
// self-signed certificate the kubeconfig trusts, and a bearer token the
// server requires.
//
//	func TestMyController(t *testing.T) {
//		srv := testserver.StartT(t, testserver.Options{})
//		os.WriteFile(kubeconfigPath, srv.Kubeconfig(), 0o600)
//		cfg, _ := clientcmd.RESTConfigFromKubeConfig(srv.Kubeconfig()) // client-go
//		...
//	}
//
// Every Server is its own cluster (its own store, namespaces default,
// kube-system, kube-public, kube-node-lease); Stop ends it.
package testserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

// Options configure a Server. The zero value is envtest's mode: HTTPS,
// a random token, no controllers, 127.0.0.1 on a free port.
type Options struct {
	// Addr is where to listen (default "127.0.0.1:0": a free port).
	Addr string
	// Controllers runs the in-process controllers (garbage collector,
	// workloads, PodDisruptionBudget status ...) with Nodes simulated
	// Nodes, scheduler and kubelets — a living cluster instead of a bare
	// control plane.
	Controllers bool
	Nodes       int
	// PlainHTTP serves http:// without a token (client-go treats plain
	// HTTP configs specially; prefer the default).
	PlainHTTP bool
	// Token is the bearer token the server requires and the kubeconfig
	// carries (default: random). Ignored with PlainHTTP.
	Token string
	// CEL evaluates CRD validation rules and ValidatingAdmissionPolicies
	// (github.com/kubesandbox/kubesandbox/cel/engine.New()); nil: stored,
	// not evaluated.
	CEL cel.Engine
}

// Server is a running API server.
type Server struct {
	// URL is https://127.0.0.1:PORT (http:// with PlainHTTP).
	URL string
	// CAData is the PEM certificate the server presents (self-signed, for
	// 127.0.0.1, ::1 and localhost); nil with PlainHTTP.
	CAData []byte
	// Token is the bearer token; "" with PlainHTTP.
	Token string
	// API is the handler, for tests that want to look inside.
	API *apiserver.Server

	http *http.Server
	done chan struct{}
}

// Start starts a Server; it runs until Stop or ctx ends.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	so := apiserver.Options{CEL: opts.CEL}
	if opts.Controllers {
		so.Controllers = controllers.StarterWith(controllers.Options{Nodes: opts.Nodes})
	}
	api := apiserver.New(so)
	s := &Server{API: api, done: make(chan struct{})}
	var h http.Handler = api
	if opts.PlainHTTP {
		s.URL = "http://" + ln.Addr().String()
	} else {
		cert, certPEM, err := selfSigned()
		if err != nil {
			ln.Close()
			return nil, err
		}
		s.CAData = certPEM
		s.Token = opts.Token
		if s.Token == "" {
			s.Token = randomToken()
		}
		h = apiserver.RequireToken(api, s.Token, time.Now)
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
		s.URL = "https://" + ln.Addr().String()
	}
	s.http = &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.http.Serve(ln)
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.Stop()
		case <-s.done:
		}
	}()
	return s, nil
}

// StartT starts a Server for a test or benchmark and stops it when the
// test ends; a failure to start fails the test.
func StartT(t testing.TB, opts Options) *Server {
	t.Helper()
	s, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

// Stop closes the listener and open connections (watches end) and the
// controllers, and waits for the server to finish.
func (s *Server) Stop() error {
	err := s.http.Close()
	<-s.done
	s.API.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Kubeconfig is a kubeconfig for the server: its URL, its CA and token,
// context "kubesandbox", namespace default.
func (s *Server) Kubeconfig() []byte {
	cluster := "    insecure-skip-tls-verify: true\n"
	user := "{}"
	if s.CAData != nil {
		cluster = "    certificate-authority-data: " + base64.StdEncoding.EncodeToString(s.CAData) + "\n"
		user = "\n    token: " + s.Token
	}
	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: kubesandbox
  cluster:
    server: %s
%susers:
- name: kubesandbox
  user: %s
contexts:
- name: kubesandbox
  context:
    cluster: kubesandbox
    user: kubesandbox
    namespace: default
current-context: kubesandbox
`, s.URL, cluster, user)
}

// Client is an http.Client that trusts the server (no token: add the
// Authorization header yourself).
func (s *Server) Client() *http.Client {
	if s.CAData == nil {
		return &http.Client{}
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CAData)
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
}

// selfSigned makes a P-256 certificate for the loopback names, valid for a
// year, that is its own CA.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "kubesandbox-apiserver"},
		NotBefore:    now.Add(-time.Minute), NotAfter: now.Add(365 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, certPEM, nil
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
