// Package storage validates and defaults storage.k8s.io/v1 StorageClasses
// as kube-apiserver v1.37.2 does (k8s.io/kubernetes
// pkg/apis/storage/{v1,validation}, pkg/registry/storage/storageclass).
//
// The strategy's update runs ValidateStorageClass (ObjectMeta included)
// before ValidateStorageClassUpdate (ObjectMetaUpdate, immutable fields),
// so the catalogue marks the kind NoKindMetaChecks and this checks metadata
// itself, in that order.
package storage

import (
	"reflect"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

var metaPath = field.NewPath("metadata")

// DefaultStorageClass is SetDefaults_StorageClass.
func DefaultStorageClass(obj map[string]any) {
	if obj["reclaimPolicy"] == nil {
		obj["reclaimPolicy"] = "Delete"
	}
	if obj["volumeBindingMode"] == nil {
		obj["volumeBindingMode"] = "Immediate"
	}
}

// ValidateStorageClass is ValidateStorageClass, and on update
// ValidateStorageClassUpdate after it.
//
//	provisioner: "" → provisioner: Required value
func ValidateStorageClass(obj, old map[string]any) field.ErrorList {
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), false, validation.NameIsDNSSubdomain, metaPath)
	prov := Str(obj, "provisioner")
	if prov == "" {
		errs = append(errs, field.Required(field.NewPath("provisioner"), ""))
	} else {
		lower := strings.ToLower(prov)
		for _, m := range validation.IsQualifiedName(lower) {
			errs = append(errs, field.Invalid(field.NewPath("provisioner"), lower, m))
		}
	}
	errs = append(errs, validateParameters(StrMap(obj, "parameters"), field.NewPath("parameters"))...)
	if rp := Str(obj, "reclaimPolicy"); rp != "" && rp != "Delete" && rp != "Retain" {
		errs = append(errs, field.NotSupported(field.NewPath("reclaimPolicy"), rp, []string{"Delete", "Retain"}))
	}
	if !Has(obj, "volumeBindingMode") {
		errs = append(errs, field.Required(field.NewPath("volumeBindingMode"), ""))
	} else if m := Str(obj, "volumeBindingMode"); m != "Immediate" && m != "WaitForFirstConsumer" {
		errs = append(errs, field.NotSupported(field.NewPath("volumeBindingMode"), m, []string{"Immediate", "WaitForFirstConsumer"}))
	}
	errs = append(errs, validateTopologies(Objs(obj, "allowedTopologies"), field.NewPath("allowedTopologies"))...)
	if old == nil {
		return errs
	}
	errs = append(errs, validation.ValidateObjectMetaUpdate(Obj(obj, "metadata"), Obj(old, "metadata"), metaPath)...)
	if !SemanticEqual(obj["parameters"], old["parameters"]) {
		errs = append(errs, field.Invalid(field.NewPath("parameters"), orEmptyMap(obj["parameters"]), FieldImmutableErrorMsg))
	}
	for _, k := range []string{"provisioner", "reclaimPolicy", "volumeBindingMode"} {
		if !reflect.DeepEqual(obj[k], old[k]) {
			errs = append(errs, field.Invalid(field.NewPath(k), obj[k], FieldImmutableErrorMsg))
		}
	}
	return errs
}

// orEmptyMap: a nil map[string]string prints as null.
func orEmptyMap(v any) any {
	if v == nil {
		return nil
	}
	return v
}

func validateParameters(params map[string]string, p *field.Path) field.ErrorList {
	if len(params) > 512 {
		return field.ErrorList{field.TooLong(p, "", 512)}
	}
	var errs field.ErrorList
	total := 0
	for _, k := range Keys(params) {
		if k == "" {
			errs = append(errs, field.Invalid(p, k, "field can not be empty."))
		}
		total += len(k) + len(params[k])
	}
	if total > 256*1024 {
		errs = append(errs, field.TooLong(p, "", 256*1024))
	}
	return errs
}

// validateTopologies is validateAllowedTopologies, down to its quirk: the
// list of seen terms starts with one nil entry per term, so a term without
// expressions is reported once per term.
func validateTopologies(terms []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := make([]map[string]map[string]bool, len(terms))
	for i, term := range terms {
		ip := p.Index(i)
		exprs := map[string]map[string]bool{}
		ep := ip.Child("matchLabelExpressions")
		for j, req := range Objs(term, "matchLabelExpressions") {
			rp := ep.Index(j)
			vals := map[string]bool{}
			vs := Strs(req, "values")
			if len(vs) == 0 {
				errs = append(errs, field.Required(rp.Child("values"), ""))
			}
			for k, v := range vs {
				if vals[v] {
					errs = append(errs, field.Duplicate(rp.Child("values").Index(k), v))
				}
				vals[v] = true
			}
			errs = append(errs, ValidateLabelName(Str(req, "key"), rp.Child("key"))...)
			if _, dup := exprs[Str(req, "key")]; dup {
				errs = append(errs, field.Duplicate(rp.Child("key"), Str(req, "key")))
			}
			exprs[Str(req, "key")] = vals
		}
		for _, t := range seen {
			if sameTerm(exprs, t) {
				errs = append(errs, field.Duplicate(ip.Child("matchLabelExpressions"), ""))
			}
		}
		seen = append(seen, exprs)
	}
	return errs
}

func sameTerm(a, b map[string]map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || len(av) != len(bv) {
			return false
		}
		for v := range av {
			if !bv[v] {
				return false
			}
		}
	}
	return true
}
