package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Who a request is: a service account token this server issued
// (serviceaccounts/token) makes the request its service account's, as
// kube-apiserver's service account authenticator does
// (pkg/serviceaccount: username system:serviceaccount:NS:NAME, the
// account's uid, groups system:serviceaccounts, system:serviceaccounts:NS
// and system:authenticated, the token's JTI and bound objects as extra);
// SelfSubjectReview (`kubectl auth whoami`) and a CSR's requester show it.
// Without a token, or with one the server did not issue, it is
// system:anonymous.

// doAs is do with an Authorization: Bearer token.
func doAs(t *testing.T, h http.Handler, token, method, path, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

const ssrPath = "/apis/authentication.k8s.io/v1/selfsubjectreviews"

func TestTokenIdentity(t *testing.T) {
	s := New(Options{})
	sa := mustDo(t, s, 201, "POST", saPath, hooksJSON, `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"robot"}}`)
	uid := metaOf(sa)["uid"].(string)
	tr := mustDo(t, s, 201, "POST", saPath+"/robot/token", hooksJSON, `{}`)
	tok := tr["status"].(map[string]any)["token"].(string)
	jti := tokenClaimsOf(t, tok)["jti"].(string)
	vault := mustDo(t, s, 201, "POST", saPath+"/robot/token", hooksJSON, `{"spec":{"audiences":["vault"]}}`)["status"].(map[string]any)["token"].(string)
	robot := `{"extra":{"authentication.kubernetes.io/credential-id":["JTI=` + jti + `"]},"groups":["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"],"uid":"` +
		uid + `","username":"system:serviceaccount:default:robot"}`
	anonymous := `{"groups":["system:unauthenticated"],"username":"system:anonymous"}`

	unauthorized := `{"apiVersion":"v1","code":401,"kind":"Status","message":"Unauthorized","metadata":{},"reason":"Unauthorized","status":"Failure"}`
	for _, c := range []struct {
		name, token string
		code        int
		want        string
	}{
		{"service account token", tok, 201, robot},
		{"no token", "", 201, anonymous},
		// kube's bearer token authenticator fails a token no authenticator
		// accepts (401), even with anonymous access on.
		{"a token for another audience", vault, 401, unauthorized},
		{"a token the server did not sign", tok[:len(tok)-4] + "AAAA", 401, unauthorized},
		{"not a token", "s3cret", 401, unauthorized},
	} {
		t.Run("whoami/"+c.name, func(t *testing.T) {
			code, out := doAs(t, s, c.token, "POST", ssrPath, `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`)
			got := jsonOf(out)
			if code == 201 {
				got = jsonOf(out["status"].(map[string]any)["userInfo"])
			}
			if code != c.code || got != c.want {
				t.Fatalf("%d %s\nwant %d %s", code, got, c.code, c.want)
			}
		})
	}
	t.Run("an unknown token is 401 on every path", func(t *testing.T) {
		for _, path := range []string{"/healthz", "/version", "/api", "/api/v1/namespaces"} {
			if code, out := doAs(t, s, "s3cret", "GET", path, ""); code != 401 || jsonOf(out) != unauthorized {
				t.Errorf("%s: %d %s", path, code, jsonOf(out))
			}
		}
	})
	t.Run("Authorization that is not a bearer token is anonymous", func(t *testing.T) {
		for _, h := range []string{"Basic YTpi", "Bearer ", "Bearer"} {
			req := httptest.NewRequest("POST", ssrPath, strings.NewReader(`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", h)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			var out map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &out)
			if rec.Code != 201 || jsonOf(out["status"].(map[string]any)["userInfo"]) != anonymous {
				t.Errorf("%q: %d %s", h, rec.Code, rec.Body)
			}
		}
	})

	t.Run("a CSR records its requester", func(t *testing.T) {
		code, out := doAs(t, s, tok, "POST", csrPath, csrJSON("robot-csr", csrRequest(t), "example.com/signer", `["client auth"]`))
		if code != 201 {
			t.Fatalf("%d %v", code, out)
		}
		spec := out["spec"].(map[string]any)
		got := jsonOf(map[string]any{"username": spec["username"], "uid": spec["uid"], "groups": spec["groups"], "extra": spec["extra"]})
		if got != robot {
			t.Fatalf("requester %s\nwant      %s", got, robot)
		}
		code, out = doAs(t, s, "", "POST", csrPath, csrJSON("anon-csr", csrRequest(t), "example.com/signer", `["client auth"]`))
		spec = out["spec"].(map[string]any)
		if code != 201 || spec["username"] != "system:anonymous" || spec["uid"] != nil || spec["extra"] != nil || jsonOf(spec["groups"]) != `["system:unauthenticated"]` {
			t.Fatalf("%d spec %s", code, jsonOf(spec))
		}
	})

	t.Run("RequireToken accepts issued tokens, not others", func(t *testing.T) {
		h := RequireToken(s, "s3cret", time.Now)
		admin := `{"groups":["system:masters","system:authenticated"],"username":"admin"}`
		for _, c := range []struct {
			name, token string
			code        int
			user        string
		}{
			{"service account token", tok, 201, robot},
			{"the kubeconfig's token is envtest's admin", "s3cret", 201, admin},
			{"another audience", vault, 401, ""},
			{"no token", "", 401, ""},
			{"unknown token", "nope", 401, ""},
		} {
			t.Run(c.name, func(t *testing.T) {
				code, out := doAs(t, h, c.token, "POST", ssrPath, `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`)
				if code != c.code {
					t.Fatalf("%d %v, want %d", code, out, c.code)
				}
				if c.user != "" {
					if got := jsonOf(out["status"].(map[string]any)["userInfo"]); got != c.user {
						t.Fatalf("userInfo %s\nwant     %s", got, c.user)
					}
				}
			})
		}
		for _, c := range []struct {
			name, token, path string
			code              int
		}{
			{"health without a token", "", "/readyz", 200},
			{"version without a token", "", "/version", 200},
			{"health with an unknown token", "nope", "/readyz", 401},
		} {
			t.Run(c.name, func(t *testing.T) {
				if code, out := doAs(t, h, c.token, "GET", c.path, ""); code != c.code {
					t.Fatalf("%d %v, want %d", code, out, c.code)
				}
			})
		}
		t.Run("the admin's writes are the admin's", func(t *testing.T) {
			code, out := doAs(t, h, "s3cret", "POST", csrPath, csrJSON("admin-csr", csrRequest(t), "example.com/signer", `["client auth"]`))
			spec, _ := out["spec"].(map[string]any)
			if code != 201 || spec["username"] != "admin" || jsonOf(spec["groups"]) != `["system:masters","system:authenticated"]` {
				t.Fatalf("%d %v", code, out)
			}
		})
	})
}
