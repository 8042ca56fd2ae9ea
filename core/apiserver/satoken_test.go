package apiserver

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// serviceaccounts/token (core/builtin/satoken.go) and TokenReview of the
// tokens it signs, compared with kube-apiserver v1.37.2's TokenREST.

const saPath = "/api/v1/namespaces/default/serviceaccounts"

func tokenClaimsOf(t *testing.T, tok string) map[string]any {
	t.Helper()
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWS: %q", tok)
	}
	h, _ := base64.RawURLEncoding.DecodeString(parts[0])
	if !strings.HasPrefix(string(h), `{"alg":"RS256","kid":"`) {
		t.Errorf("header %s", h)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(b, &claims); err != nil {
		t.Fatal(err)
	}
	return claims
}

func TestServiceAccountToken(t *testing.T) {
	s := New(Options{})
	sa := mustDo(t, s, 201, "POST", saPath, hooksJSON, `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"robot"}}`)
	saUID := metaOf(sa)["uid"]
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"runner"},"spec":{"serviceAccountName":"robot","containers":[{"name":"app","image":"nginx"}]}}`)
	mustDo(t, s, 201, "POST", podsPath, hooksJSON, podJSON) // web, service account default
	for _, c := range []struct {
		name, sa, body  string
		code            int
		reason, message string
	}{
		{"too short", "robot", `{"spec":{"expirationSeconds":60}}`, 422, "Invalid",
			`TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes`},
		{"name mismatch", "robot", `{"metadata":{"name":"other"}}`, 422, "Invalid",
			`TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified`},
		{"uid mismatch", "robot", `{"metadata":{"uid":"nope"}}`, 409, "Conflict", ""},
		{"no such service account", "nope", `{}`, 404, "NotFound", `serviceaccounts "nope" not found`},
		{"bound to a missing pod", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"gone"}}}`, 404, "NotFound", `pods "gone" not found`},
		{"bound to another account's pod", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"web"}}}`, 400, "BadRequest",
			`cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.`},
		{"bound to a ConfigMap", "robot", `{"spec":{"boundObjectRef":{"kind":"ConfigMap","apiVersion":"v1","name":"x"}}}`, 400, "BadRequest",
			"cannot bind token to object of type /v1, Kind=ConfigMap"},
		{"bound pod uid mismatch", "robot", `{"spec":{"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"runner","uid":"x"}}}`, 409, "Conflict",
			`Operation cannot be fulfilled on Pod "runner": the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := do(t, s, "POST", saPath+"/"+c.sa+"/token", hooksJSON, c.body)
			if code != c.code || out["reason"] != c.reason || (c.message != "" && out["message"] != c.message) {
				t.Fatalf("%d %v, want %d %s %q", code, out, c.code, c.reason, c.message)
			}
		})
	}

	t.Run("issued and reviewed", func(t *testing.T) {
		tr := mustDo(t, s, 201, "POST", saPath+"/robot/token", hooksJSON, `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest"}`)
		spec, _ := tr["spec"].(map[string]any)
		if jsonOf(spec) != `{"audiences":["https://kubernetes.default.svc.cluster.local"],"boundObjectRef":null,"expirationSeconds":3600}` {
			t.Errorf("spec %s", jsonOf(spec))
		}
		if m := metaOf(tr); m["name"] != "robot" || m["namespace"] != "default" || m["uid"] != saUID || m["creationTimestamp"] == nil {
			t.Errorf("metadata %v", m)
		}
		st, _ := tr["status"].(map[string]any)
		tok, _ := st["token"].(string)
		claims := tokenClaimsOf(t, tok)
		exp, iat := claims["exp"].(float64), claims["iat"].(float64)
		if exp-iat != 3600 || claims["nbf"] != iat || claims["iss"] != "https://kubernetes.default.svc.cluster.local" ||
			claims["sub"] != "system:serviceaccount:default:robot" || claims["jti"] == nil ||
			jsonOf(claims["kubernetes.io"]) != jsonOf(map[string]any{"namespace": "default", "serviceaccount": map[string]any{"name": "robot", "uid": saUID}}) {
			t.Errorf("claims %s", jsonOf(claims))
		}
		rv := mustDo(t, s, 201, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", hooksJSON, `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":"`+tok+`"}}`)
		want := `{"audiences":["https://kubernetes.default.svc.cluster.local"],"authenticated":true,"user":{"extra":{"authentication.kubernetes.io/credential-id":["JTI=` + claims["jti"].(string) +
			`"]},"groups":["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"],"uid":"` + saUID.(string) + `","username":"system:serviceaccount:default:robot"}}`
		if got := jsonOf(rv["status"]); got != want {
			t.Errorf("review\n%s\nwant\n%s", got, want)
		}
		rv = mustDo(t, s, 201, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", hooksJSON, `{"spec":{"token":"`+tok+`","audiences":["vault"]}}`)
		if jsonOf(rv["status"]) != `{"error":"invalid bearer token","user":{}}` {
			t.Errorf("another audience: %s", jsonOf(rv["status"]))
		}
		forged := tok[:len(tok)-4] + "AAAA"
		rv = mustDo(t, s, 201, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", hooksJSON, `{"spec":{"token":"`+forged+`"}}`)
		if jsonOf(rv["status"]) != `{"error":"invalid bearer token","user":{}}` {
			t.Errorf("forged: %s", jsonOf(rv["status"]))
		}
	})

	t.Run("bound to a pod", func(t *testing.T) {
		mustDo(t, s, 201, "POST", podsPath+"/runner/binding", hooksJSON, binding("runner", "n1"))
		pod := mustDo(t, s, 200, "GET", podsPath+"/runner", "", "")
		tr := mustDo(t, s, 201, "POST", saPath+"/robot/token", hooksJSON, `{"spec":{"expirationSeconds":7200,"audiences":["vault"],"boundObjectRef":{"kind":"Pod","apiVersion":"v1","name":"runner"}}}`)
		st, _ := tr["status"].(map[string]any)
		claims := tokenClaimsOf(t, st["token"].(string))
		k8s, _ := claims["kubernetes.io"].(map[string]any)
		if jsonOf(k8s["pod"]) != jsonOf(map[string]any{"name": "runner", "uid": metaOf(pod)["uid"]}) || jsonOf(k8s["node"]) != `{"name":"n1"}` ||
			jsonOf(claims["aud"]) != `["vault"]` || claims["exp"].(float64)-claims["iat"].(float64) != 7200 {
			t.Errorf("claims %s", jsonOf(claims))
		}
		rv := mustDo(t, s, 201, "POST", "/apis/authentication.k8s.io/v1/tokenreviews", hooksJSON, `{"spec":{"token":"`+st["token"].(string)+`","audiences":["vault"]}}`)
		extra := jsonOf(rv["status"].(map[string]any)["user"].(map[string]any)["extra"])
		if !strings.Contains(extra, `"authentication.kubernetes.io/pod-name":["runner"]`) || !strings.Contains(extra, `"authentication.kubernetes.io/node-name":["n1"]`) {
			t.Errorf("extra %s", extra)
		}
	})
}
