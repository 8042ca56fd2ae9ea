package apiserver

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Admin is the user of RequireToken's token: envtest's admin, user "admin"
// in group system:masters (controller-runtime's envtest provisions it with
// a client certificate, ControlPlane.AddUser), plus system:authenticated,
// which kube-apiserver adds to every authenticated user. A kind/kubeadm
// admin kubeconfig is "kubernetes-admin" in kubeadm:cluster-admins; the
// test mode stands in for envtest, so it is envtest's user that
// `kubectl auth whoami`, the review APIs and admission (request.userInfo)
// see.
func Admin() resource.User {
	return resource.User{"username": "admin", "groups": []any{"system:masters", "system:authenticated"}}
}

// userKey keys the authenticated user in a request's context.
type userKey struct{}

// withUser is r carrying u as its authenticated user.
func withUser(r *http.Request, u resource.User) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), userKey{}, u))
}

// bearerToken is the token of an "Authorization: Bearer TOKEN" header, as
// kube's bearertoken authenticator reads it (scheme in any case, an empty
// token is no token); ok is false without one.
func bearerToken(r *http.Request) (string, bool) {
	parts := strings.SplitN(strings.TrimSpace(r.Header.Get("Authorization")), " ", 3)
	if len(parts) < 2 || !strings.EqualFold(parts[0], "bearer") || parts[1] == "" {
		return "", false
	}
	return parts[1], true
}

// RequireToken serves h only to requests that carry a bearer token it
// accepts — token itself (the kubeconfig's, as kube-apiserver's
// --token-auth-file; the request is Admin's) or a service account token
// this server issued (serviceaccounts/token) and that has not expired —
// and answers every other request 401 {"kind":"Status",...,"message":
// "Unauthorized","reason":"Unauthorized","code":401}, as kube-apiserver
// does without anonymous access. /healthz, /livez, /readyz and /version
// stay open to a request without credentials, as RBAC's
// system:public-info-viewer leaves them to anyone; a token the server does
// not know is 401 there too (authentication comes before authorization).
//
// Example: http.ListenAndServeTLS(addr, cert, key, apiserver.RequireToken(srv, "s3cret", time.Now))
//
// Who a request is (request.user) does not change what it may do:
// everything is allowed.
func RequireToken(h http.Handler, token string, now func() time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearerToken(r)
		switch {
		case ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1:
			h.ServeHTTP(w, withUser(r, Admin()))
		case ok:
			if u, sa := builtin.TokenUser(got, now()); sa {
				h.ServeHTTP(w, withUser(r, u))
				return
			}
			writeError(w, apierr.Unauthorized())
		case isHealthPath(r.URL.Path) || r.URL.Path == "/version" || r.URL.Path == "/version/":
			h.ServeHTTP(w, r)
		default:
			writeError(w, apierr.Unauthorized())
		}
	})
}

// authenticate is who r is, as kube-apiserver's authentication and
// impersonation filters decide it: the user RequireToken found, else the
// service account of a bearer token this server issued
// (serviceaccounts/token) that has not expired, else — without a bearer
// token — system:anonymous; then whom its Impersonate-* headers name
// (impersonate.go), as everyone may impersonate here. A bearer token the
// server does not know is 401: kube-apiserver answers it so even with
// anonymous access on (the bearer token authenticator fails the request
// rather than passing it to the anonymous one), and so does this server
// (the browser sends no token).
func (s *Server) authenticate(r *http.Request) (*http.Request, error) {
	if _, done := r.Context().Value(userKey{}).(resource.User); !done {
		if tok, ok := bearerToken(r); ok {
			u, ok := builtin.TokenUser(tok, s.now())
			if !ok {
				return r, apierr.Unauthorized()
			}
			r = withUser(r, u)
		}
	}
	u, ok, err := impersonated(r.Header)
	if err != nil {
		return r, err
	}
	if ok {
		r = withUser(r, u)
	}
	return r, nil
}

// user is who the request is (resource.User, a copy the caller may keep):
// see Server.authenticate.
func (q *request) user() resource.User {
	if u, ok := q.r.Context().Value(userKey{}).(resource.User); ok {
		return jsonx.DeepCopy(u).(resource.User)
	}
	return resource.Anonymous()
}
