package corev1

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ConfigMap, Secret, ServiceAccount and Namespace. On update the real
// XxxUpdate functions run the create checks again, ObjectMeta included
// (after the generic server's checks), so the hooks repeat ValidateObjectMeta
// there.

const maxSecretSize = 1 * 1024 * 1024

var (
	immutableWhenSet = "field is immutable when `immutable` is set"
	metaPath         = field.NewPath("metadata")
)

// ValidateConfigMap is ValidateConfigMap / ValidateConfigMapUpdate.
func ValidateConfigMap(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	if old != nil {
		if Bool(old, "immutable") {
			if !Bool(obj, "immutable") {
				errs = append(errs, field.Forbidden(field.NewPath("immutable"), immutableWhenSet))
			}
			for _, k := range []string{"data", "binaryData"} {
				if !mapsEqual(Obj(obj, k), Obj(old, k)) {
					errs = append(errs, field.Forbidden(field.NewPath(k), immutableWhenSet))
				}
			}
		}
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)...)
	}
	data, bin := Obj(obj, "data"), Obj(obj, "binaryData")
	total := 0
	for _, k := range Keys(data) {
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, m))
		}
		if _, dup := bin[k]; dup {
			errs = append(errs, field.Invalid(field.NewPath("data").Key(k), k, "duplicate of key present in binaryData"))
		}
		s, _ := data[k].(string)
		total += len(s)
	}
	for _, k := range Keys(bin) {
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(field.NewPath("binaryData").Key(k), k, m))
		}
		total += decodedLen(bin[k])
	}
	if total > maxSecretSize {
		errs = append(errs, field.TooLong(field.NewPath(""), "", maxSecretSize))
	}
	return errs
}

// mapsEqual is reflect.DeepEqual on the Go maps: nil and empty differ.
func mapsEqual(a, b map[string]any) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func decodedLen(v any) int {
	s, _ := v.(string)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return len(s)
	}
	return len(b)
}

// secretData is the internal Secret's data: data decoded, stringData
// merged over it (the v1 conversion does that before validation).
func secretData(obj map[string]any) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range Obj(obj, "data") {
		s, _ := v.(string)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b = []byte(s)
		}
		out[k] = b
	}
	for k, v := range Obj(obj, "stringData") {
		s, _ := v.(string)
		out[k] = []byte(s)
	}
	if len(out) == 0 && !Has(obj, "data") && !Has(obj, "stringData") {
		return nil
	}
	return out
}

// ValidateSecret is ValidateSecret / ValidateSecretUpdate.
func ValidateSecret(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	if old != nil {
		if t, ot := Str(obj, "type"), Str(old, "type"); t != ot {
			errs = append(errs, field.Invalid(field.NewPath("type"), t, FieldImmutableErrorMsg))
		}
		if Bool(old, "immutable") {
			if !Bool(obj, "immutable") {
				errs = append(errs, field.Forbidden(field.NewPath("immutable"), immutableWhenSet))
			}
			if nd, od := secretData(obj), secretData(old); !reflect.DeepEqual(nd, od) {
				errs = append(errs, field.Forbidden(field.NewPath("data"), immutableWhenSet))
			}
		}
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)...)
	}
	dp := field.NewPath("data")
	data := secretData(obj)
	total := 0
	for _, k := range Keys(data) {
		for _, m := range IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(dp.Key(k), k, m))
		}
		total += len(data[k])
	}
	if total > maxSecretSize {
		errs = append(errs, field.TooLong(dp, "", maxSecretSize))
	}
	switch Str(obj, "type") {
	case "kubernetes.io/service-account-token":
		if StrMap(Obj(obj, "metadata"), "annotations")["kubernetes.io/service-account.name"] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key("kubernetes.io/service-account.name"), ""))
		}
	case "kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson":
		key := ".dockercfg"
		if Str(obj, "type") == "kubernetes.io/dockerconfigjson" {
			key = ".dockerconfigjson"
		}
		b, ok := data[key]
		if !ok {
			errs = append(errs, field.Required(dp.Key(key), ""))
			break
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			errs = append(errs, field.Invalid(dp.Key(key), "<secret contents redacted>", err.Error()))
		}
	case "kubernetes.io/basic-auth":
		_, u := data["username"]
		_, p := data["password"]
		if !u && !p {
			errs = append(errs, field.Required(dp.Key("username"), ""), field.Required(dp.Key("password"), ""))
		}
	case "kubernetes.io/ssh-auth":
		if len(data["ssh-privatekey"]) == 0 {
			errs = append(errs, field.Required(dp.Key("ssh-privatekey"), ""))
		}
	case "kubernetes.io/tls":
		for _, k := range []string{"tls.crt", "tls.key"} {
			if _, ok := data[k]; !ok {
				errs = append(errs, field.Required(dp.Key(k), ""))
			}
		}
	}
	return errs
}

// ValidateServiceAccount is ValidateServiceAccount(Update): metadata only.
func ValidateServiceAccount(obj, old map[string]any) field.ErrorList {
	if old == nil {
		return nil
	}
	return validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)
}

// ValidateNamespace is ValidateNamespace (spec.finalizers) on create;
// ValidateNamespaceUpdate checks metadata only.
func ValidateNamespace(obj, old map[string]any) field.ErrorList {
	if old != nil {
		return nil
	}
	var errs field.ErrorList
	p := field.NewPath("spec", "finalizers")
	for _, f := range Strs(Obj(obj, "spec"), "finalizers") {
		for _, m := range validation.IsQualifiedName(f) {
			errs = append(errs, field.Invalid(p, f, m))
		}
		if !strings.Contains(f, "/") && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion" {
			errs = append(errs, field.Invalid(p, f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}
