package corev1

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

const taintsAnnotation = "scheduler.alpha.kubernetes.io/taints"

// ValidateNode is the node strategy's Validate (ValidateNode) and
// ValidateUpdate (ValidateNode, then ValidateNodeUpdate), their metadata
// checks included (the kind is NoKindMetaChecks). The taints are checked under
// metadata.taints (the real code's path), so twice on update; the status
// (capacity, allocatable, swap, declared features) is the old one on an
// update of the main resource. Example: two taints {key: a, effect:
// NoSchedule} answer `metadata.taints[1]: Duplicate value:
// {"Key":"a","Value":"","Effect":"NoSchedule","TimeAdded":null}: taints
// must be unique by key and effect pair`; podCIDRs [10.0.0.0/24,
// 10.1.0.0/24] answer `spec.podCIDRs: Invalid value:
// ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family`.
func ValidateNode(obj, old map[string]any) field.ErrorList {
	errs := validateNode(obj)
	if old == nil {
		return errs
	}
	return append(errs, ValidateNodeUpdate(obj, old)...)
}

// ValidateNodeUpdate is kube's ValidateNodeUpdate, the node status
// strategy's ValidateUpdate alone: a status write of status.capacity
// {cpu: "-1"} answers `status.capacity.cpu: Invalid value: "-1": must be
// greater than or equal to 0` once (a write of the main resource, which
// runs ValidateNode too, keeps the stored status).
func ValidateNodeUpdate(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	spec, ospec := Obj(obj, "spec"), Obj(old, "spec")
	status := Obj(obj, "status")
	sp := field.NewPath("spec")
	errs = append(errs, validation.ValidateObjectMetaUpdate(Obj(obj, "metadata"), Obj(old, "metadata"), metaPath)...)
	errs = append(errs, nodeAnnotations(obj)...)
	errs = append(errs, nodeResources(status)...)
	errs = append(errs, declaredFeatures(Strs(status, "declaredFeatures"))...)
	seen := map[string]bool{}
	for i, a := range Objs(status, "addresses") {
		k := Str(a, "type") + "\x00" + Str(a, "address")
		if seen[k] {
			errs = append(errs, field.Duplicate(field.NewPath("status", "addresses").Index(i), goJSON("Type", Str(a, "type"), "Address", Str(a, "address"))))
		}
		seen[k] = true
	}
	if was := Strs(ospec, "podCIDRs"); len(was) > 0 {
		now := Strs(spec, "podCIDRs")
		const msg = `node updates may not change podCIDR except from "" to valid`
		if len(now) != len(was) {
			errs = append(errs, field.Forbidden(sp.Child("podCIDRs"), msg))
		} else {
			for i := range was {
				if was[i] != now[i] {
					errs = append(errs, field.Forbidden(sp.Child("podCIDRs"), msg))
				}
			}
		}
	}
	if was, now := Str(ospec, "providerID"), Str(spec, "providerID"); was != "" && now != was {
		msg := "field cannot be modified once set"
		if now == "" {
			msg = "field cannot be cleared once set"
		}
		errs = append(errs, field.Invalid(sp.Child("providerID"), nil, msg))
	}
	errs = append(errs, nodeTaints(Objs(spec, "taints"), metaPath.Child("taints"))...)
	if Str(spec, "externalID") != Str(ospec, "externalID") {
		errs = append(errs, field.Forbidden(sp.Child("externalID"), "may not be updated"))
	}
	return errs
}

// validateNode is ValidateNode past its metadata check.
func validateNode(obj map[string]any) field.ErrorList {
	spec, status := Obj(obj, "spec"), Obj(obj, "status")
	errs := validation.ValidateObjectMeta(Obj(obj, "metadata"), false, validation.NameIsDNSSubdomain, metaPath)
	errs = append(errs, nodeAnnotations(obj)...)
	errs = append(errs, nodeTaints(Objs(spec, "taints"), metaPath.Child("taints"))...)
	errs = append(errs, nodeResources(status)...)
	if sw, ok := Obj(Obj(status, "nodeInfo"), "swap")["capacity"]; ok && sw != nil {
		if n, _ := AsInt(sw); n <= 0 {
			errs = append(errs, field.Invalid(metaPath.Child("nodeSwapStatus", "capacity"), n, IsNotPositiveErrorMsg))
		}
	}
	errs = append(errs, declaredFeatures(Strs(status, "declaredFeatures"))...)
	cidrs := Strs(spec, "podCIDRs")
	p := field.NewPath("spec", "podCIDRs")
	for i, c := range cidrs {
		errs = append(errs, IsValidCIDRForLegacyField(p.Index(i), c, nil)...)
	}
	if len(cidrs) > 1 {
		v4, v6 := false, false
		for i, c := range cidrs {
			pf, ok := ParseCIDRSloppy(c)
			if !ok {
				errs = append(errs, field.InternalError(p, fmt.Errorf("invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[%d]: <nil> (invalid CIDR address: %s)", i, c)))
				v4, v6 = false, false
				break
			}
			v6 = v6 || pf.Addr().Is6()
			v4 = v4 || !pf.Addr().Is6()
		}
		if !(v4 && v6) || len(cidrs) > 2 {
			errs = append(errs, field.Invalid(p, jsonValue(cidrs), "may specify no more than one CIDR for each IP family"))
		}
	}
	return errs
}

// nodeAnnotations is ValidateNodeSpecificAnnotations for the taints
// annotation: a JSON list of taints, checked as spec.taints are.
func nodeAnnotations(obj map[string]any) field.ErrorList {
	v := StrMap(Obj(obj, "metadata"), "annotations")[taintsAnnotation]
	if v == "" {
		return nil
	}
	p := metaPath.Child("annotations")
	var typed []Taint
	if err := json.Unmarshal([]byte(v), &typed); err != nil {
		// kube decodes into its internal []core.Taint (no JSON tags)
		msg := strings.ReplaceAll(err.Error(), "corev1.Taint", "core.Taint")
		return field.ErrorList{field.Invalid(p, taintsAnnotation, msg)}
	}
	var taints []map[string]any
	_ = json.Unmarshal([]byte(v), &taints)
	return nodeTaints(taints, p.Child(taintsAnnotation))
}

// Taint is the shape of kube's internal core.Taint, so that a taints
// annotation of the wrong JSON types fails as kube's does: `[{"key": 1}]`
// → json: cannot unmarshal number into Go struct field Taint.Key of type
// string.
type Taint struct {
	Key, Value, Effect string
	TimeAdded          taintTime
}

// taintTime decodes as metav1.Time does: null, or an RFC 3339 string.
type taintTime struct{}

func (*taintTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	_, err := time.Parse(time.RFC3339, s)
	return err
}

// nodeTaints is validateNodeTaints: key a label name, value a label
// value, effect one of NoSchedule, PreferNoSchedule, NoExecute, unique by
// key and effect (the duplicate printed as the internal core.Taint
// marshals: Go field names, TimeAdded null or RFC 3339).
func nodeTaints(taints []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, t := range taints {
		ip := p.Index(i)
		key, val, eff := Str(t, "key"), Str(t, "value"), Str(t, "effect")
		errs = append(errs, ValidateLabelName(key, ip.Child("key"))...)
		if msgs := validation.IsValidLabelValue(val); len(msgs) > 0 {
			errs = append(errs, field.Invalid(ip.Child("value"), val, strings.Join(msgs, ";")))
		}
		switch eff {
		case "":
			errs = append(errs, field.Required(ip.Child("effect"), ""))
		case "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			errs = append(errs, field.NotSupported(ip.Child("effect"), eff, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
		}
		if seen[eff+"\x00"+key] {
			v := goJSON("Key", key, "Value", val, "Effect", eff)
			v = append(append(v[:len(v)-1], `,"TimeAdded":`...), eventTime(t, "timeAdded", time.Second)...)
			d := field.Duplicate(ip, json.RawMessage(append(v, '}')))
			d.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, d)
			continue
		}
		seen[eff+"\x00"+key] = true
	}
	return errs
}

// nodeResources is ValidateNodeResources: status.capacity and
// status.allocatable quantities non-negative, integers for integer
// resources (the path is status.capacity.<name>, as the real one).
func nodeResources(status map[string]any) field.ErrorList {
	var errs field.ErrorList
	for _, k := range []string{"capacity", "allocatable"} {
		m := Obj(status, k)
		for _, name := range Keys(m) {
			errs = append(errs, validateQuantityValue(name, m[name], field.NewPath("status", k, name))...)
		}
	}
	return errs
}

// declaredFeatures is validateNodeDeclaredFeatures: UpperCamelCase names
// with /-separated segments, sorted, without duplicates.
func declaredFeatures(fs []string) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("status", "declaredFeatures")
	for i, f := range fs {
		switch {
		case len(f) > 253:
			errs = append(errs, field.Invalid(p.Index(i), f, fmt.Sprintf("invalid feature name %q: must be no more than 253 characters", f)))
		case !featureName(f):
			errs = append(errs, field.Invalid(p.Index(i), f, fmt.Sprintf("invalid feature name %q: must start with an UpperCamelCase segment, with subsequent segments separated by '/' (e.g., MyFeature or MyFeature/mySubFeature), and contain only alphanumeric characters and slashes", f)))
		}
		if i+1 < len(fs) {
			if next := fs[i+1]; f == next {
				errs = append(errs, field.Duplicate(p.Index(i+1), next))
			} else if f > next {
				errs = append(errs, field.Invalid(p.Index(i+1), next, "list must be sorted alphabetically"))
			}
		}
	}
	return errs
}

// featureName matches ^[A-Z][a-zA-Z0-9]*(\/[a-zA-Z][a-zA-Z0-9]*)*$.
func featureName(f string) bool {
	for i, seg := range strings.Split(f, "/") {
		if seg == "" || !(seg[0] >= 'A' && seg[0] <= 'Z' || i > 0 && seg[0] >= 'a' && seg[0] <= 'z') {
			return false
		}
		for _, c := range seg {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// NodeWarnings is the node strategy's nodeWarnings: the removed
// configSource, the deprecated externalID, and podCIDRs not in canonical form.
func NodeWarnings(obj, _ map[string]any) []string {
	spec := Obj(obj, "spec")
	var ws []string
	if spec["configSource"] != nil {
		ws = append(ws, "spec.configSource: the feature is removed")
	}
	if Str(spec, "externalID") != "" {
		ws = append(ws, "spec.externalID: this field is deprecated, and is unused by Kubernetes")
	}
	for i, c := range Strs(spec, "podCIDRs") {
		ws = append(ws, WarningsForCIDR(field.NewPath("spec", "podCIDRs").Index(i), c)...)
	}
	return ws
}

// NormalizeNodeCIDRs is what the conversion to the internal Node and back
// does to podCIDR and podCIDRs: podCIDR, when set and not podCIDRs[0],
// wins (podCIDRs becomes [podCIDR]); podCIDR is then podCIDRs[0].
func NormalizeNodeCIDRs(obj map[string]any) {
	spec := Obj(obj, "spec")
	one, list := Str(spec, "podCIDR"), Strs(spec, "podCIDRs")
	if one != "" && (len(list) == 0 || list[0] != one) {
		spec["podCIDRs"] = []any{one}
		list = []string{one}
	}
	if len(list) > 0 {
		spec["podCIDR"] = list[0]
	}
}
