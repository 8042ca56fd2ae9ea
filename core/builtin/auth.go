package builtin

import (
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// The authentication.k8s.io and authorization.k8s.io review APIs
// (`kubectl auth whoami`, `kubectl auth can-i`, webhooks' TokenReview and
// SubjectAccessReview): virtual, create-only resources answered as
// kube-apiserver v1.37.2 answers them with --authorization-mode=AlwaysAllow
// and anonymous authentication (pkg/registry/authentication,
// pkg/registry/authorization; answers compared with the oracle).
//
// Who a request is (resource.User) comes from its bearer token: a service
// account token the sandbox issued (serviceaccounts/token) is its service
// account, as kube's service account authenticator makes it; a request
// without one is what a real server makes of a request without
// credentials: user "system:anonymous" in group "system:unauthenticated".
// Everything is allowed whoever asks.

func init() { catalogue = append(catalogue, reviewCatalogue...) }

var createOnly = []string{"create"}

func review(group, plural, kind string, namespaced bool, answer func(resource.Object, string, resource.User) (resource.Object, error)) entry {
	return entry{def: "io.k8s.api." + strings.TrimSuffix(group, ".k8s.io") + ".v1." + kind, res: resource.Resource{
		Group: group, Version: "v1", Resource: plural, Singular: plural[:len(plural)-1], Kind: kind,
		Namespaced: namespaced, Verbs: createOnly, NoGeneration: true,
		Hooks: resource.Hooks{Answer: answer},
	}}
}

var reviewCatalogue = []entry{
	review("authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false, answerSelfSubjectReview),
	review("authentication.k8s.io", "tokenreviews", "TokenReview", false, answerTokenReview),
	review("authorization.k8s.io", "localsubjectaccessreviews", "LocalSubjectAccessReview", true, accessReview(true, true)),
	review("authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false, accessReview(false, false)),
	review("authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false, answerSelfSubjectRulesReview),
	review("authorization.k8s.io", "subjectaccessreviews", "SubjectAccessReview", false, accessReview(true, false)),
}

// answerSelfSubjectReview: a new object, the creation time and the user
// who asks (`kubectl auth whoami`).
func answerSelfSubjectReview(_ resource.Object, now string, user resource.User) (resource.Object, error) {
	return resource.Object{
		"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview",
		"metadata": map[string]any{"creationTimestamp": now},
		"status":   map[string]any{"userInfo": user},
	}, nil
}

// answerTokenReview: a service account token this server issued
// (serviceaccounts/token, satoken.go) authenticates as its service account,
// for the audiences asked (the issuer when none); any other token does not.
func answerTokenReview(obj resource.Object, now string, _ resource.User) (resource.Object, error) {
	spec := child(obj, "spec")
	tok := str(spec, "token")
	if tok == "" {
		return nil, apierr.BadRequest("token is required for TokenReview in authentication")
	}
	t, err := time.Parse(time.RFC3339, now)
	if err != nil {
		t = time.Now()
	}
	user, auds, err := serviceAccountUser(tok, t, jsonx.Strings(spec["audiences"]))
	if err != nil {
		obj["status"] = map[string]any{"user": map[string]any{}, "error": err.Error()}
		return obj, nil
	}
	obj["status"] = map[string]any{"authenticated": true, "user": user, "audiences": auds}
	return obj, nil
}

// answerSelfSubjectRulesReview: everything, everywhere (a new object: the
// spec is not echoed).
func answerSelfSubjectRulesReview(obj resource.Object, _ string, _ resource.User) (resource.Object, error) {
	if str(child(obj, "spec"), "namespace") == "" {
		return nil, apierr.BadRequest("no namespace on request")
	}
	all := []any{"*"}
	return resource.Object{
		"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectRulesReview",
		"metadata": map[string]any{}, "spec": map[string]any{},
		"status": map[string]any{
			"resourceRules":    []any{map[string]any{"verbs": all, "apiGroups": all, "resources": all}},
			"nonResourceRules": []any{map[string]any{"verbs": all, "nonResourceURLs": all}},
			"incomplete":       false,
		},
	}, nil
}

// nonResourceValue is how the validation prints a NonResourceAttributes
// (the internal type, without JSON tags).
type nonResourceValue struct{ Path, Verb string }

// accessReview answers (Local/Self)SubjectAccessReviews: validated as
// pkg/apis/authorization/validation does (field and label selector
// requirements and "metadata must be empty" are not checked), then
// allowed.
func accessReview(subject, local bool) func(resource.Object, string, resource.User) (resource.Object, error) {
	return func(obj resource.Object, _ string, _ resource.User) (resource.Object, error) {
		spec := child(obj, "spec")
		ra, nra := child(spec, "resourceAttributes"), child(spec, "nonResourceAttributes")
		var nraValue any
		if nra != nil {
			nraValue = nonResourceValue{Path: str(nra, "path"), Verb: str(nra, "verb")}
		}
		specPath := field.NewPath("spec")
		var errs field.ErrorList
		if (ra == nil) == (nra == nil) {
			errs = append(errs, field.Invalid(specPath, nraValue, "exactly one of nonResourceAttributes or resourceAttributes must be specified"))
		}
		if subject && str(spec, "user") == "" && len(listOf(spec["groups"])) == 0 {
			errs = append(errs, field.Invalid(specPath.Child("user"), str(spec, "user"), "at least one of user or group must be specified"))
		}
		if local {
			if ns := metaStr(obj, "namespace"); ra != nil && str(ra, "namespace") != ns {
				errs = append(errs, field.Invalid(field.NewPath("spec.resourceAttributes.namespace"), str(ra, "namespace"), "must match metadata.namespace"))
			}
			if nra != nil {
				errs = append(errs, field.Invalid(field.NewPath("spec.nonResourceAttributes"), nraValue, "disallowed on this kind of request"))
			}
		}
		if len(errs) > 0 {
			return nil, apierr.Invalid(apierr.GK{Group: "authorization.k8s.io"}, "", errs)
		}
		obj["status"] = map[string]any{"allowed": true}
		return obj, nil
	}
}
