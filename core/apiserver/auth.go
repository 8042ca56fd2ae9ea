package apiserver

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// RequireToken serves h only to requests that carry a bearer token it
// accepts — token itself (the kubeconfig's, as kube-apiserver's
// --token-auth-file) or a service account token this server issued
// (serviceaccounts/token) and that has not expired — and answers every
// other request 401 {"kind":"Status",...,"message":"Unauthorized",
// "reason":"Unauthorized","code":401}, as kube-apiserver does without
// anonymous access. /healthz, /livez, /readyz and /version stay open, as
// RBAC's system:public-info-viewer leaves them to anyone.
//
// Example: http.ListenAndServeTLS(addr, cert, key, apiserver.RequireToken(srv, "s3cret", time.Now))
//
// Who a request is (request.user) does not change what it may do:
// everything is allowed.
func RequireToken(h http.Handler, token string, now func() time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isHealthPath(r.URL.Path) || r.URL.Path == "/version" || r.URL.Path == "/version/" {
			h.ServeHTTP(w, r)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		got = strings.TrimSpace(got)
		if ok && got != "" {
			_, sa := builtin.TokenUser(got, now())
			if sa || subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1 {
				h.ServeHTTP(w, r)
				return
			}
		}
		writeError(w, apierr.Unauthorized())
	})
}

// user is who the request is (resource.User): the service account of a
// bearer token this server issued (serviceaccounts/token) that has not
// expired, else anonymous — also for the kubeconfig's token of
// RequireToken, which is a password to the server rather than a user, and
// for a token the server does not know (a real server answers that 401;
// without RequireToken this one serves it as anonymous).
func (q *request) user() resource.User {
	if tok, ok := strings.CutPrefix(q.r.Header.Get("Authorization"), "Bearer "); ok {
		if u, ok := builtin.TokenUser(strings.TrimSpace(tok), q.s.now()); ok {
			return u
		}
	}
	return resource.Anonymous()
}
