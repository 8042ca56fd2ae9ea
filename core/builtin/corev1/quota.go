package corev1

import (
	"encoding/json"
	"slices"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateResourceQuota is ValidateResourceQuota (create) and
// ValidateResourceQuotaUpdate without their metadata checks (the server's
// generic ones come first, as the real ones do): each hard resource a quota
// resource with a non-negative (integer, for counts) value, scopes and the
// scope selector known and fitting the resources, and scopes immutable;
// on update, also ValidateResourceQuotaStatusUpdate's status.hard and
// status.used checks (the sandbox has one Validate hook for both writes).
//
//	spec: {hard: {pods: 1.5, gpus: 1}, scopes: [BestEffort, NotBestEffort]}
//	→ spec.hard[gpus]: Invalid value: "gpus": must be a standard resource type or fully qualified
//	  spec.hard[gpus]: Invalid value: "gpus": must be a standard resource for quota
//	  spec.hard[pods]: Invalid value: "1500m": must be an integer
//	  spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes
func ValidateResourceQuota(obj, old map[string]any) field.ErrorList {
	spec := Obj(obj, "spec")
	sp := field.NewPath("spec")
	errs := validateQuotaResources(Obj(spec, "hard"), sp.Child("hard"))
	hard := Keys(Obj(spec, "hard"))
	scopes := Strs(spec, "scopes")
	scopesVal := jsonValue(spec["scopes"])
	if len(scopes) > 0 {
		p := sp.Child("scopes")
		for _, s := range scopes {
			if !isQuotaScope(s) {
				errs = append(errs, field.Invalid(p, scopesVal, "unsupported scope"))
			}
			for _, k := range hard {
				if isQuotaResource(k) && !scopeFits(s, k) {
					errs = append(errs, field.Invalid(p, scopesVal, "unsupported scope applied to resource"))
				}
			}
		}
		errs = append(errs, conflictingScopes(scopes, p, scopesVal)...)
	}
	if sel, ok := spec["scopeSelector"].(map[string]any); ok {
		p := sp.Child("scopeSelector", "matchExpressions")
		var names []string
		for _, req := range Objs(sel, "matchExpressions") {
			name, op := Str(req, "scopeName"), Str(req, "operator")
			if !isQuotaScope(name) {
				errs = append(errs, field.Invalid(p.Child("scopeName"), name, "unsupported scope"))
			}
			for _, k := range hard {
				if isQuotaResource(k) && !scopeFits(name, k) {
					errs = append(errs, field.Invalid(p, goScopeSelector(sel), "unsupported scope applied to resource"))
				}
			}
			switch name {
			case "BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity":
				if op != "Exists" {
					errs = append(errs, field.Invalid(p.Child("operator"), op,
						"must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"))
				}
			}
			switch vals := List(req, "values"); op {
			case "In", "NotIn":
				if len(vals) == 0 {
					errs = append(errs, field.Required(p.Child("values"), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"))
				}
			case "Exists", "DoesNotExist":
				if len(vals) != 0 {
					errs = append(errs, field.Invalid(p.Child("values"), jsonValue(req["values"]), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"))
				}
			default:
				errs = append(errs, field.Invalid(p.Child("operator"), op, "not a valid selector operator"))
			}
			names = append(names, name)
		}
		errs = append(errs, conflictingScopes(names, p, scopesVal)...)
	}
	if old != nil {
		// ValidateResourceQuotaStatusUpdate: what a status write checks (a
		// write of the main resource keeps the stored status, which passed)
		st := Obj(obj, "status")
		errs = append(errs, validateQuotaResources(Obj(st, "hard"), field.NewPath("status", "hard"))...)
		errs = append(errs, validateQuotaResources(Obj(st, "used"), field.NewPath("status", "used"))...)
		a, b := slices.Clone(scopes), Strs(Obj(old, "spec"), "scopes")
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(slices.Compact(a), slices.Compact(b)) {
			errs = append(errs, field.Invalid(sp.Child("scopes"), scopesVal, FieldImmutableErrorMsg))
		}
	}
	return errs
}

// validateQuotaResources checks a quota's resource list (spec.hard,
// status.hard, status.used): ValidateResourceQuotaResourceName and
// ValidateResourceQuantityValue per entry.
func validateQuotaResources(m map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range Keys(m) {
		kp := p.Key(k)
		errs = append(errs, validatePlainResourceName(k, kp)...)
		if !strings.Contains(k, "/") && !isQuotaResource(k) {
			errs = append(errs, field.Invalid(kp, k, "must be a standard resource for quota"))
		}
		errs = append(errs, validateQuantityValue(k, m[k], kp)...)
	}
	return errs
}

func conflictingScopes(scopes []string, p *field.Path, v any) field.ErrorList {
	var errs field.ErrorList
	for _, pair := range [][2]string{{"BestEffort", "NotBestEffort"}, {"Terminating", "NotTerminating"}} {
		if slices.Contains(scopes, pair[0]) && slices.Contains(scopes, pair[1]) {
			errs = append(errs, field.Invalid(p, v, "conflicting scopes"))
		}
	}
	return errs
}

var quotaResources = []string{"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
	"requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims",
	"configmaps", "services.nodeports", "services.loadbalancers"}

func isQuotaResource(k string) bool {
	return slices.Contains(quotaResources, k) || strings.HasPrefix(k, "hugepages-") || strings.HasPrefix(k, "requests.hugepages-")
}

func isQuotaScope(s string) bool {
	switch s {
	case "Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "VolumeAttributesClass", "CrossNamespacePodAffinity":
		return true
	}
	return false
}

// scopeFits is IsResourceQuotaScopeValidForResource.
func scopeFits(scope, res string) bool {
	switch scope {
	case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity":
		switch res {
		case "pods", "cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory":
			return true
		}
		return false
	case "BestEffort":
		return res == "pods"
	case "VolumeAttributesClass":
		return res == "persistentvolumeclaims" || res == "requests.storage"
	}
	return true
}

// goScopeSelector renders a scope selector as the internal struct prints
// in a field error: {"MatchExpressions":[{"ScopeName":…,"Operator":…,"Values":…}]}.
func goScopeSelector(sel map[string]any) json.RawMessage {
	type req struct {
		ScopeName, Operator string
		Values              []string
	}
	var out struct{ MatchExpressions []req }
	for _, r := range Objs(sel, "matchExpressions") {
		var vals []string
		if r["values"] != nil {
			vals = append([]string{}, Strs(r, "values")...)
		}
		out.MatchExpressions = append(out.MatchExpressions, req{Str(r, "scopeName"), Str(r, "operator"), vals})
	}
	b, _ := json.Marshal(out)
	return b
}

// jsonValue is a decoded value as a field error prints it (null when unset).
func jsonValue(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
