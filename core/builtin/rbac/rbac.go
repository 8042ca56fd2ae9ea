// Package rbac validates and defaults the rbac.authorization.k8s.io/v1
// kinds (Role, ClusterRole, RoleBinding, ClusterRoleBinding) as
// kube-apiserver v1.37.2 does (k8s.io/kubernetes pkg/apis/rbac/{v1,validation}).
// They are stored and validated only: authorization stays off.
//
// Their validation checks metadata in its own order (ObjectMeta, the
// rules, then ObjectMetaUpdate on update), so the catalogue marks them
// NoKindMetaChecks and these functions check metadata themselves.
package rbac

import (
	"encoding/json"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

const group = "rbac.authorization.k8s.io"

var metaPath = field.NewPath("metadata")

// Name is ValidateRBACName: a path segment.
func Name(name string, prefix bool) []string { return validation.IsPathSegmentName(name) }

func meta(obj, old map[string]any, namespaced bool, body field.ErrorList) field.ErrorList {
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), namespaced, Name, metaPath)
	errs = append(errs, body...)
	if old != nil {
		errs = append(errs, validation.ValidateObjectMetaUpdate(Obj(obj, "metadata"), Obj(old, "metadata"), metaPath)...)
	}
	return errs
}

// ValidateRole is ValidateRole / ValidateRoleUpdate.
//
//	rules: [{resources: [pods]}] → rules[0].verbs: Required value: verbs must contain at least one value
func ValidateRole(obj, old map[string]any) field.ErrorList {
	return meta(obj, old, true, validateRules(obj, true))
}

// ValidateClusterRole is ValidateClusterRole / ValidateClusterRoleUpdate.
func ValidateClusterRole(obj, old map[string]any) field.ErrorList {
	errs := validateRules(obj, false)
	lax := false
	if old != nil {
		for i, s := range Objs(Obj(old, "aggregationRule"), "clusterRoleSelectors") {
			lax = lax || len(ValidateLabelSelector(s, field.NewPath("x").Index(i))) > 0
		}
	}
	if Has(obj, "aggregationRule") {
		p := field.NewPath("aggregationRule", "clusterRoleSelectors")
		sels := Objs(Obj(obj, "aggregationRule"), "clusterRoleSelectors")
		if len(sels) == 0 {
			errs = append(errs, field.Required(p, "at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		for i, s := range sels {
			if lax {
				errs = append(errs, ValidateLabelSelectorLax(s, p.Index(i))...)
			} else {
				errs = append(errs, ValidateLabelSelector(s, p.Index(i))...)
			}
			if _, ok := AsSelector(s); !ok {
				errs = append(errs, field.Invalid(p.Index(i), nil, "invalid label selector."))
			}
		}
	}
	return meta(obj, old, false, errs)
}

func validateRules(obj map[string]any, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	for i, r := range Objs(obj, "rules") {
		p := field.NewPath("rules").Index(i)
		if len(List(r, "verbs")) == 0 {
			errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
		}
		if urls := List(r, "nonResourceURLs"); len(urls) > 0 {
			v := Strs(r, "nonResourceURLs")
			if namespaced {
				errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), v, "namespaced rules cannot apply to non-resource URLs"))
			}
			if len(List(r, "apiGroups")) > 0 || len(List(r, "resources")) > 0 || len(List(r, "resourceNames")) > 0 {
				errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), v, "rules cannot apply to both regular resources and non-resource URLs"))
			}
			continue
		}
		if len(List(r, "apiGroups")) == 0 {
			errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
		}
		if len(List(r, "resources")) == 0 {
			errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
		}
	}
	return errs
}

// ValidateRoleBinding is ValidateRoleBinding / ValidateRoleBindingUpdate.
func ValidateRoleBinding(obj, old map[string]any) field.ErrorList {
	return validateBinding(obj, old, true)
}

// ValidateClusterRoleBinding is ValidateClusterRoleBinding(Update).
func ValidateClusterRoleBinding(obj, old map[string]any) field.ErrorList {
	return validateBinding(obj, old, false)
}

func validateBinding(obj, old map[string]any, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	ref := Obj(obj, "roleRef")
	rp := field.NewPath("roleRef")
	if g := Str(ref, "apiGroup"); g != group {
		errs = append(errs, field.NotSupported(rp.Child("apiGroup"), g, []string{group}))
	}
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	if k := Str(ref, "kind"); k != "ClusterRole" && (!namespaced || k != "Role") {
		errs = append(errs, field.NotSupported(rp.Child("kind"), k, kinds))
	}
	if n := Str(ref, "name"); n == "" {
		errs = append(errs, field.Required(rp.Child("name"), ""))
	} else {
		for _, m := range Name(n, false) {
			errs = append(errs, field.Invalid(rp.Child("name"), n, m))
		}
	}
	for i, s := range Objs(obj, "subjects") {
		errs = append(errs, validateSubject(s, namespaced, field.NewPath("subjects").Index(i))...)
	}
	errs = meta(obj, old, namespaced, errs)
	if old != nil {
		oref := Obj(old, "roleRef")
		if Str(ref, "apiGroup") != Str(oref, "apiGroup") || Str(ref, "kind") != Str(oref, "kind") || Str(ref, "name") != Str(oref, "name") {
			v := `{"APIGroup":` + quote(Str(ref, "apiGroup")) + `,"Kind":` + quote(Str(ref, "kind")) + `,"Name":` + quote(Str(ref, "name")) + `}`
			errs = append(errs, field.Invalid(rp, json.RawMessage(v), FieldImmutableErrorMsg))
		}
	}
	return errs
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func validateSubject(s map[string]any, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	name := Str(s, "name")
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	g := Str(s, "apiGroup")
	switch k := Str(s, "kind"); k {
	case "ServiceAccount":
		if name != "" {
			for _, m := range validation.NameIsDNSSubdomain(name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), name, m))
			}
		}
		if g != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), g, []string{""}))
		}
		if !namespaced && Str(s, "namespace") == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		}
	case "User", "Group":
		if g != group {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), g, []string{group}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), k, []string{"ServiceAccount", "User", "Group"}))
	}
	return errs
}

// DefaultBinding is SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding
// and SetDefaults_Subject: the RBAC group where none is given.
func DefaultBinding(obj map[string]any) {
	ref := Obj(obj, "roleRef")
	if ref == nil {
		ref = map[string]any{}
		obj["roleRef"] = ref
	}
	if Str(ref, "apiGroup") == "" {
		ref["apiGroup"] = group
	}
	for _, s := range Objs(obj, "subjects") {
		if Str(s, "apiGroup") == "" {
			switch Str(s, "kind") {
			case "User", "Group":
				s["apiGroup"] = group
			}
		}
	}
}
