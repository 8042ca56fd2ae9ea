// Package corev1 validates the core/v1 kinds as kube-apiserver v1.37.2
// does (k8s.io/kubernetes pkg/apis/core/validation): the same checks in the
// same order, with the same field paths and messages, over the decoded
// (and already defaulted) JSON object instead of the internal Go types.
//
// The PodSpec and PodTemplateSpec checks here are shared with the apps
// and batch kinds. Checks that need feature gates off by default, or
// cluster state (resource claims, ephemeral containers, Windows options,
// sysctls, affinity terms, topology spread), are not reproduced.
package corev1

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidatePodTemplateSpec is ValidatePodTemplateSpec: the template's labels
// and annotations, then its spec.
func ValidatePodTemplateSpec(tmpl map[string]any, p *field.Path) field.ErrorList {
	meta := Obj(tmpl, "metadata")
	errs := ValidateLabels(StrMap(meta, "labels"), p.Child("labels"))
	errs = append(errs, validation.ValidateAnnotations(StrMap(meta, "annotations"), p.Child("annotations"))...)
	errs = append(errs, ValidatePodSpec(Obj(tmpl, "spec"), p.Child("spec"))...)
	if len(List(Obj(tmpl, "spec"), "ephemeralContainers")) > 0 {
		errs = append(errs, field.Forbidden(p.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

var (
	restartPolicies = []string{"Always", "OnFailure", "Never"}
	dnsPolicies     = []string{"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}
)

// ValidatePodSpec is ValidatePodSpec for a spec in a template.
func ValidatePodSpec(spec map[string]any, p *field.Path) field.ErrorList {
	return validatePodSpec(spec, p, false)
}

// validatePodSpec is ValidatePodSpec; isPod is opts.ResourceIsPod.
func validatePodSpec(spec map[string]any, p *field.Path, isPod bool) field.ErrorList {
	var errs field.ErrorList
	c := &podCtx{restartPolicy: Str(spec, "restartPolicy"), os: Str(Obj(spec, "os"), "name")}
	if g, ok := IntOK(spec, "terminationGracePeriodSeconds"); ok {
		c.gracePeriod = &g
	} else {
		errs = append(errs, field.Required(p.Child("terminationGracePeriodSeconds"), ""))
	}
	vols, verrs := validateVolumes(Objs(spec, "volumes"), p.Child("volumes"))
	c.volumes = vols
	errs = append(errs, verrs...)
	ctrs := Objs(spec, "containers")
	errs = append(errs, validateContainers(ctrs, c, p.Child("containers"))...)
	errs = append(errs, validateInitContainers(Objs(spec, "initContainers"), ctrs, c, p.Child("initContainers"))...)
	errs = append(errs, validateHostNetworkDeps(spec, p, isPod)...)
	errs = append(errs, enum(c.restartPolicy, restartPolicies, p.Child("restartPolicy"))...)
	errs = append(errs, enum(Str(spec, "dnsPolicy"), dnsPolicies, p.Child("dnsPolicy"))...)
	errs = append(errs, ValidateLabels(StrMap(spec, "nodeSelector"), p.Child("nodeSelector"))...)
	errs = append(errs, validatePodSecurityContext(Obj(spec, "securityContext"), p.Child("securityContext"))...)
	if Bool(spec, "shareProcessNamespace") && (Bool(spec, "hostPID")) {
		errs = append(errs, field.Invalid(p.Child("shareProcessNamespace"), true, "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	errs = append(errs, validateDNSConfig(spec, p.Child("dnsConfig"))...)
	for i, g := range Objs(spec, "readinessGates") {
		ct := Str(g, "conditionType")
		for _, m := range validation.IsQualifiedName(ct) {
			errs = append(errs, field.Invalid(p.Child("readinessGates").Index(i).Child("conditionType"), ct, m))
		}
	}
	if sa := Str(spec, "serviceAccountName"); sa != "" {
		for _, m := range validation.NameIsDNSSubdomain(sa, false) {
			errs = append(errs, field.Invalid(p.Child("serviceAccountName"), sa, m))
		}
	}
	if dsa, sa := Str(spec, "serviceAccount"), Str(spec, "serviceAccountName"); dsa != sa {
		errs = append(errs, field.Invalid(p.Child("deprecatedServiceAccount"), dsa, "must be the same as serviceAccountName: "+field.FormatValue(sa)))
	}
	if nn := Str(spec, "nodeName"); nn != "" {
		for _, m := range validation.NameIsDNSSubdomain(nn, false) {
			errs = append(errs, field.Invalid(p.Child("nodeName"), nn, m))
		}
	}
	if v, ok := IntOK(spec, "activeDeadlineSeconds"); ok && (v < 1 || v > 2147483647) {
		errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds"), v, InclusiveRangeError(1, 2147483647)))
	}
	if h := Str(spec, "hostname"); h != "" {
		errs = append(errs, dns1123Label(h, p.Child("hostname"))...)
	}
	if s := Str(spec, "subdomain"); s != "" {
		errs = append(errs, dns1123Label(s, p.Child("subdomain"))...)
	}
	errs = append(errs, validateTolerations(Objs(spec, "tolerations"), p.Child("tolerations"))...)
	if pc := Str(spec, "priorityClassName"); pc != "" {
		for _, m := range validation.NameIsDNSSubdomain(pc, false) {
			errs = append(errs, field.Invalid(p.Child("priorityClassName"), pc, m))
		}
	}
	if Has(spec, "runtimeClassName") {
		rc := Str(spec, "runtimeClassName")
		for _, m := range validation.NameIsDNSSubdomain(rc, false) {
			errs = append(errs, field.Invalid(p.Child("runtimeClassName"), rc, m))
		}
	}
	if Has(spec, "preemptionPolicy") {
		pp := Str(spec, "preemptionPolicy")
		switch pp {
		case "PreemptLowerPriority", "Never":
		case "":
			errs = append(errs, field.Required(p.Child("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(p.Child("preemptionPolicy"), pp, []string{"PreemptLowerPriority", "Never"}))
		}
	}
	if Has(spec, "os") {
		switch name := Str(Obj(spec, "os"), "name"); name {
		case "linux", "windows":
		case "":
			errs = append(errs, field.Required(p.Child("os").Child("name"), ""))
		default:
			errs = append(errs, field.NotSupported(p.Child("os"), name, []string{"linux", "windows"}))
		}
	}
	return errs
}

// enum checks a required string against its values.
func enum(v string, values []string, p *field.Path) field.ErrorList {
	switch {
	case has(values, v):
		return nil
	case v == "":
		return field.ErrorList{field.Required(p, "")}
	}
	return field.ErrorList{field.NotSupported(p, v, values)}
}

// validateHostNetworkDeps: with hostNetwork, a hostPort must equal its
// containerPort (in a template it may also be left 0).
func validateHostNetworkDeps(spec map[string]any, p *field.Path, isPod bool) field.ErrorList {
	if !Bool(spec, "hostNetwork") {
		return nil
	}
	var errs field.ErrorList
	for i, ctr := range Objs(spec, "containers") {
		for j, port := range Objs(ctr, "ports") {
			if hp, cp := Int(port, "hostPort"), Int(port, "containerPort"); (isPod || hp != 0) && hp != cp {
				errs = append(errs, field.Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), hp, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

func validatePodSecurityContext(sc map[string]any, p *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	errs := validateID(sc, "fsGroup", p)
	errs = append(errs, validateID(sc, "runAsUser", p)...)
	errs = append(errs, validateID(sc, "runAsGroup", p)...)
	for i, g := range List(sc, "supplementalGroups") {
		if n, _ := AsInt(g); n < 0 || n > 2147483647 {
			errs = append(errs, field.Invalid(p.Child("supplementalGroups").Index(i), n, InclusiveRangeError(0, 2147483647)))
		}
	}
	if Has(sc, "fsGroupChangePolicy") {
		if v := Str(sc, "fsGroupChangePolicy"); v != "Always" && v != "OnRootMismatch" {
			errs = append(errs, field.NotSupported(p.Child("fsGroupChangePolicy"), v, []string{"Always", "OnRootMismatch"}))
		}
	}
	errs = append(errs, validateSeccompProfile(Obj(sc, "seccompProfile"), p.Child("seccompProfile"))...)
	return errs
}

func validateDNSConfig(spec map[string]any, p *field.Path) field.ErrorList {
	if Str(spec, "dnsPolicy") == "None" && !Has(spec, "dnsConfig") {
		return field.ErrorList{field.Required(p, "must provide `dnsConfig` when `dnsPolicy` is None")}
	}
	return nil
}

func validateTolerations(tols []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tols {
		ip := p.Index(i)
		key, op, val, eff := Str(t, "key"), Str(t, "operator"), Str(t, "value"), Str(t, "effect")
		if key != "" {
			errs = append(errs, ValidateLabelName(key, ip.Child("key"))...)
		}
		if key == "" && op != "Exists" {
			errs = append(errs, field.Invalid(ip.Child("operator"), op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if Has(t, "tolerationSeconds") && eff != "NoExecute" {
			errs = append(errs, field.Invalid(ip.Child("effect"), eff, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch op {
		case "Equal", "":
			if msgs := validation.IsValidLabelValue(val); len(msgs) > 0 {
				errs = append(errs, field.Invalid(ip.Child("operator"), val, strings.Join(msgs, ";")))
			}
		case "Exists":
			if val != "" {
				errs = append(errs, field.Invalid(ip.Child("operator"), val, "value must be empty when `operator` is 'Exists'"))
			}
		case "Lt", "Gt": // TaintTolerationComparisonOperators is alpha, off
			errs = append(errs, field.NotSupported(ip.Child("operator"), op, []string{"Equal", "Exists", "Lt", "Gt"}))
		default:
			errs = append(errs, field.NotSupported(ip.Child("operator"), op, []string{"Equal", "Exists"}))
		}
		if eff != "" {
			switch eff {
			case "NoSchedule", "PreferNoSchedule", "NoExecute":
			default:
				errs = append(errs, field.NotSupported(ip.Child("effect"), eff, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
			}
		}
	}
	return errs
}
