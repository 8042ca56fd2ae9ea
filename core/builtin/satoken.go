package builtin

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// serviceaccounts/token (POST an authentication.k8s.io/v1 TokenRequest),
// as kube-apiserver v1.37.2's TokenREST answers it
// (pkg/registry/core/serviceaccount/storage/token.go,
// pkg/serviceaccount/claims.go): `kubectl create token default` prints a
// JWT signed RS256 by the server's own key, with the claims a cluster
// issues, e.g.
//
//	{"aud":["https://kubernetes.default.svc.cluster.local"],"exp":1767229200,"iat":1767225600,
//	 "iss":"https://kubernetes.default.svc.cluster.local","jti":"…",
//	 "kubernetes.io":{"namespace":"default","serviceaccount":{"name":"default","uid":"…"}},
//	 "nbf":1767225600,"sub":"system:serviceaccount:default:default"}
//
// spec.expirationSeconds defaults to 3600 and must be at least 600 (422);
// spec.audiences defaults to the issuer; a boundObjectRef to a Pod (with
// its Node), a Secret or a Node is checked (404, 409 on a UID mismatch,
// 400 for a pod of another service account or another kind) and recorded
// in the claims. The answer is 201 with the TokenRequest and its
// status.token and status.expirationTimestamp.
//
// The signing key (RSA 2048) is made on the first request, not at start
// (in the browser that costs a second or two, once), and lives as long as
// the process: tokens do not survive a restart. TokenReview (auth.go)
// authenticates the tokens it signed.
var serviceAccountToken = resource.Subresource{Name: "token", Kind: "TokenRequest", Group: "authentication.k8s.io", Version: "v1", Def: "io.k8s.api.authentication.v1.TokenRequest",
	Verbs: []string{"create"}, Serve: createToken}

// Issuer is the service account issuer, kube-apiserver's
// --service-account-issuer, and the default audience.
const Issuer = "https://kubernetes.default.svc.cluster.local"

// minTokenSeconds is MinTokenAgeSec.
const minTokenSeconds = 600

var tokenRequestGK = apierr.GK{Group: "authentication.k8s.io", Kind: "TokenRequest"}

// signingKey is made once, on first use; keyMade says whether it was
// (until then no token of ours exists, and none is worth verifying).
var (
	keyMade    atomic.Bool
	signingKey = sync.OnceValues(func() (*rsa.PrivateKey, error) {
		defer keyMade.Store(true)
		return rsa.GenerateKey(rand.Reader, 2048)
	})
)

func createToken(r *resource.SubRequest) (resource.SubAnswer, error) {
	req, err := jsonx.DecodeObject(r.Body)
	if err != nil {
		return resource.SubAnswer{}, apierr.BadRequestf("the object provided is unrecognized (must be of type TokenRequest): %v", err)
	}
	sa := r.Obj
	name, ns, saUID := metaStr(sa, "name"), metaStr(sa, "namespace"), metaStr(sa, "uid")
	m := ensure(req, "metadata")
	if n := str(m, "name"); n != "" && n != name {
		return resource.SubAnswer{}, apierr.Invalid(tokenRequestGK, name, field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), n, "must match the service account name if specified")})
	}
	if n := str(m, "namespace"); n != "" && n != ns {
		return resource.SubAnswer{}, apierr.Invalid(tokenRequestGK, name, field.ErrorList{field.Invalid(field.NewPath("metadata", "namespace"), n, "must match the service account namespace if specified")})
	}
	if u := str(m, "uid"); u != "" && u != saUID {
		return resource.SubAnswer{}, apierr.Conflict(apierr.GR{Group: tokenRequestGK.Group, Resource: tokenRequestGK.Kind}, name,
			fmt.Sprintf("the UID in the token request (%s) does not match the UID of the service account (%s)", u, saUID))
	}
	spec := ensure(req, "spec")
	if len(jsonx.Strings(spec["audiences"])) == 0 {
		spec["audiences"] = []any{Issuer}
	}
	exp, ok := num(spec, "expirationSeconds")
	if !ok {
		exp = 3600
		spec["expirationSeconds"] = exp
	}
	m["name"], m["namespace"], m["uid"], m["creationTimestamp"] = name, ns, saUID, r.Now
	var errs field.ErrorList
	if exp < minTokenSeconds {
		errs = append(errs, field.Invalid(field.NewPath("spec", "expirationSeconds"), exp, "may not specify a duration less than 10 minutes"))
	}
	if exp > 1<<32 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "expirationSeconds"), exp, "may not specify a duration larger than 2^32 seconds"))
	}
	if len(errs) > 0 {
		return resource.SubAnswer{}, apierr.Invalid(tokenRequestGK, "", errs)
	}
	k8s := map[string]any{"namespace": ns, "serviceaccount": map[string]any{"name": name, "uid": saUID}}
	if ref := child(spec, "boundObjectRef"); ref != nil {
		if err := bindToken(r, ns, name, ref, k8s); err != nil {
			return resource.SubAnswer{}, err
		}
	} else {
		spec["boundObjectRef"] = nil
	}
	now, err := time.Parse(time.RFC3339, r.Now)
	if err != nil {
		now = time.Now()
	}
	expiry := now.Add(time.Duration(exp) * time.Second)
	claims := map[string]any{
		"aud": spec["audiences"], "exp": expiry.Unix(), "iat": now.Unix(), "nbf": now.Unix(),
		"iss": Issuer, "jti": uuid.NewString(), "sub": "system:serviceaccount:" + ns + ":" + name, "kubernetes.io": k8s,
	}
	tok, err := signToken(claims)
	if err != nil {
		return resource.SubAnswer{}, apierr.Internal(fmt.Errorf("failed to generate token: %v", err))
	}
	req["apiVersion"], req["kind"] = "authentication.k8s.io/v1", "TokenRequest"
	req["status"] = map[string]any{"token": tok, "expirationTimestamp": expiry.UTC().Format(time.RFC3339)}
	return resource.SubAnswer{Code: http.StatusCreated, Obj: req}, nil
}

// bindToken checks the bound object and records it in the private claims.
func bindToken(r *resource.SubRequest, ns, sa string, ref, k8s map[string]any) error {
	apiVersion, kind, name := str(ref, "apiVersion"), str(ref, "kind"), str(ref, "name")
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	var path string
	switch {
	case group == "" && kind == "Pod":
		path = "/api/v1/namespaces/" + url.PathEscape(ns) + "/pods/" + url.PathEscape(name)
	case group == "" && kind == "Secret":
		path = "/api/v1/namespaces/" + url.PathEscape(ns) + "/secrets/" + url.PathEscape(name)
	case group == "" && kind == "Node":
		path = "/api/v1/nodes/" + url.PathEscape(name)
	default:
		return apierr.BadRequest(fmt.Sprintf("cannot bind token to object of type %s/%s, Kind=%s", group, version, kind))
	}
	obj, err := r.Loopback(http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if kind == "Pod" && str(child(obj, "spec"), "serviceAccountName") != sa {
		return apierr.BadRequest(fmt.Sprintf("cannot bind token for serviceaccount %q to pod running with different serviceaccount name.", sa))
	}
	uid := metaStr(obj, "uid")
	if u := str(ref, "uid"); u != "" && u != uid {
		return apierr.Conflict(apierr.GR{Group: group, Resource: kind}, name, fmt.Sprintf("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", u))
	}
	k8s[strings.ToLower(kind)] = map[string]any{"name": name, "uid": uid}
	if node := str(child(obj, "spec"), "nodeName"); kind == "Pod" && node != "" {
		n := map[string]any{"name": node}
		if o, err := r.Loopback(http.MethodGet, "/api/v1/nodes/"+url.PathEscape(node), nil); err == nil {
			n["uid"] = metaStr(o, "uid")
		}
		k8s["node"] = n
	}
	return nil
}

var b64 = base64.RawURLEncoding

// signToken is a compact JWS, RS256, with the key's id as kid (the
// base64url SHA-256 of its PKIX form, as kube-apiserver's keyIDFromPublicKey).
func signToken(claims map[string]any) (string, error) {
	key, err := signingKey()
	if err != nil {
		return "", err
	}
	der := rsaPKIX(&key.PublicKey)
	kid := sha256.Sum256(der)
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "kid": b64.EncodeToString(kid[:])})
	body, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	signed := b64.EncodeToString(header) + "." + b64.EncodeToString(body)
	sum := sha256.Sum256([]byte(signed))
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signed + "." + b64.EncodeToString(sig), nil
}

// tokenClaims verifies a token this server signed and returns its claims;
// ok is false for anything else (another signer, a malformed token).
func tokenClaims(tok string) (map[string]any, bool) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || !keyMade.Load() {
		return nil, false
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return nil, false
	}
	key, err := signingKey()
	if err != nil {
		return nil, false
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig) != nil {
		return nil, false
	}
	body, err := b64.DecodeString(parts[1])
	if err != nil {
		return nil, false
	}
	claims, err := jsonx.DecodeObject(body)
	return claims, err == nil
}

// serviceAccountUser is the user a valid token of ours authenticates as
// (ServiceAccountInfo.UserInfo plus system:authenticated, as
// pkg/serviceaccount's authenticator makes it), with the token's
// audiences; an error says why it does not authenticate. The objects the
// token is bound to are not checked to still exist.
func serviceAccountUser(tok string, now time.Time, audiences []string) (map[string]any, []any, error) {
	claims, ok := tokenClaims(tok)
	if !ok || str(claims, "iss") != Issuer {
		return nil, nil, fmt.Errorf("invalid bearer token")
	}
	if exp, _ := num(claims, "exp"); now.Unix() > exp {
		return nil, nil, fmt.Errorf("invalid bearer token")
	}
	if len(audiences) == 0 {
		audiences = []string{Issuer}
	}
	var auds []any
	for _, a := range jsonx.Strings(claims["aud"]) {
		if slices.Contains(audiences, a) {
			auds = append(auds, a)
		}
	}
	if len(auds) == 0 {
		return nil, nil, fmt.Errorf("invalid bearer token")
	}
	k8s := child(claims, "kubernetes.io")
	ns := str(k8s, "namespace")
	sa := child(k8s, "serviceaccount")
	user := map[string]any{
		"username": "system:serviceaccount:" + ns + ":" + str(sa, "name"), "uid": str(sa, "uid"),
		"groups": []any{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"},
	}
	extra := map[string]any{}
	if jti := str(claims, "jti"); jti != "" {
		extra["authentication.kubernetes.io/credential-id"] = []any{"JTI=" + jti}
	}
	for _, k := range []string{"pod", "node"} {
		if ref := child(k8s, k); ref != nil {
			extra["authentication.kubernetes.io/"+k+"-name"] = []any{str(ref, "name")}
			if u := str(ref, "uid"); u != "" {
				extra["authentication.kubernetes.io/"+k+"-uid"] = []any{u}
			}
		}
	}
	if len(extra) > 0 {
		user["extra"] = extra
	}
	return user, auds, nil
}

// TokenUser is who a request bearing tok is: the service account of a
// token this process signed (serviceaccounts/token), for the API's
// audience and not expired at now (resource.User); ok is false for any
// other token.
func TokenUser(tok string, now time.Time) (user resource.User, ok bool) {
	user, _, err := serviceAccountUser(tok, now, nil)
	return user, err == nil
}
