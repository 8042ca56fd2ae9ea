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

	for _, c := range []struct{ name, token, want string }{
		{"service account token", tok, robot},
		{"no token", "", anonymous},
		{"a token for another audience", vault, anonymous},
		{"a token the server did not sign", tok[:len(tok)-4] + "AAAA", anonymous},
		{"not a token", "s3cret", anonymous},
	} {
		t.Run("whoami/"+c.name, func(t *testing.T) {
			code, out := doAs(t, s, c.token, "POST", ssrPath, `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`)
			if code != 201 {
				t.Fatalf("%d %v", code, out)
			}
			if got := jsonOf(out["status"].(map[string]any)["userInfo"]); got != c.want {
				t.Fatalf("userInfo %s\nwant     %s", got, c.want)
			}
		})
	}

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
		for _, c := range []struct {
			token string
			code  int
		}{{tok, 201}, {"s3cret", 201}, {vault, 401}, {"", 401}, {"nope", 401}} {
			if code, out := doAs(t, h, c.token, "POST", ssrPath, `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`); code != c.code {
				t.Errorf("token %.12q: %d %v, want %d", c.token, code, out, c.code)
			}
		}
	})
}
