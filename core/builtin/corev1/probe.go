package corev1

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Probes, lifecycle handlers, resources, resize policy and the container
// security context (pkg/apis/core/validation).

func validateLivenessProbe(pr map[string]any, p *field.Path) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateProbe(pr, p)
	if st := Int(pr, "successThreshold"); st != 1 {
		errs = append(errs, field.Invalid(p.Child("successThreshold"), st, "must be 1"))
	}
	return errs
}

func validateReadinessProbe(pr map[string]any, p *field.Path) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateProbe(pr, p)
	if v, ok := IntOK(pr, "terminationGracePeriodSeconds"); ok {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), v, "must not be set for readinessProbes"))
	}
	return errs
}

func validateProbe(pr map[string]any, p *field.Path) field.ErrorList {
	errs := validateHandler(pr, []string{"exec", "httpGet", "tcpSocket", "grpc"}, nil, p)
	for _, k := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"} {
		errs = append(errs, NonNegative(Int(pr, k), p.Child(k))...)
	}
	if v, ok := IntOK(pr, "terminationGracePeriodSeconds"); ok && v <= 0 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), v, "must be greater than 0"))
	}
	return errs
}

func validateLifecycle(lc map[string]any, c *podCtx, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range []string{"postStart", "preStop"} {
		if h := Obj(lc, k); h != nil {
			errs = append(errs, validateHandler(h, []string{"exec", "httpGet", "tcpSocket", "sleep"}, c, p.Child(k))...)
		}
	}
	if Has(lc, "stopSignal") {
		sp := p.Child("stopSignal")
		switch c.os {
		case "":
			errs = append(errs, field.Forbidden(sp, "may not be set for containers with empty `spec.os.name`"))
		case "windows":
			if s := Str(lc, "stopSignal"); s != "SIGKILL" && s != "SIGTERM" {
				errs = append(errs, field.NotSupported(sp, s, []string{"SIGKILL", "SIGTERM"}))
			}
		}
	}
	return errs
}

func validateHandler(h map[string]any, kinds []string, c *podCtx, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	for _, k := range kinds {
		a := Obj(h, k)
		if a == nil {
			continue
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(p.Child(k), "may not specify more than 1 handler type"))
			continue
		}
		n++
		ap := p.Child(k)
		switch k {
		case "exec":
			if len(List(a, "command")) == 0 {
				errs = append(errs, field.Required(ap.Child("command"), ""))
			}
		case "httpGet":
			errs = append(errs, validateHTTPGet(a, ap)...)
		case "tcpSocket":
			errs = append(errs, validatePortNumOrName(a["port"], ap.Child("port"))...)
		case "grpc":
			errs = append(errs, validatePortNumOrName(Int(a, "port"), ap.Child("port"))...)
		case "sleep":
			if c != nil && c.gracePeriod != nil {
				if s := Int(a, "seconds"); s < 0 || s > *c.gracePeriod {
					errs = append(errs, field.Invalid(ap, s, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *c.gracePeriod)))
				}
			}
		}
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a handler type"))
	}
	return errs
}

func validateHTTPGet(a map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if Str(a, "path") == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	}
	errs = append(errs, validatePortNumOrName(a["port"], p.Child("port"))...)
	if s := Str(a, "scheme"); s != "HTTP" && s != "HTTPS" {
		errs = append(errs, field.NotSupported(p.Child("scheme"), s, []string{"HTTP", "HTTPS"}))
	}
	for _, hdr := range Objs(a, "httpHeaders") {
		name := Str(hdr, "name")
		if !isHTTPHeaderName(name) {
			errs = append(errs, field.Invalid(p.Child("httpHeaders"), name,
				validation.RegexError("a valid HTTP header must consist of alphanumeric characters or '-'", "[-A-Za-z0-9]+", "X-Header-Name")))
		}
	}
	return errs
}

func isHTTPHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// validatePortNumOrName checks an IntOrString port.
func validatePortNumOrName(v any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch t := v.(type) {
	case string:
		for _, m := range IsValidPortName(t) {
			errs = append(errs, field.Invalid(p, t, m))
		}
	default:
		n, _ := AsInt(v)
		if n < 1 || n > 65535 {
			errs = append(errs, field.Invalid(p, n, InclusiveRangeError(1, 65535)))
		}
	}
	return errs
}

var standardResources = []string{"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
	"requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
	"pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "persistentvolumeclaims",
	"configmaps", "services.nodeports", "services.loadbalancers", "storage"}

// validateResourceName is ValidateContainerResourceName.
func validateResourceName(name string, p *field.Path) field.ErrorList {
	errs := validatePlainResourceName(name, p)
	unprefixed := !strings.Contains(name, "/")
	huge := strings.HasPrefix(name, "hugepages-")
	// ValidateContainerResourceName
	if unprefixed {
		if name != "cpu" && name != "memory" && name != "ephemeral-storage" && !huge {
			errs = append(errs, field.Invalid(p, name, "must be a standard resource for containers"))
		}
	} else if !isNative(name) && !isExtended(name) {
		errs = append(errs, field.Invalid(p, name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// validatePlainResourceName is validateResourceName: a qualified name,
// standard when unprefixed.
func validatePlainResourceName(name string, p *field.Path) field.ErrorList {
	errs := ValidateLabelName(name, p)
	if len(errs) == 0 && !strings.Contains(name, "/") && !has(standardResources, name) &&
		!strings.HasPrefix(name, "hugepages-") && !strings.HasPrefix(name, "requests.hugepages-") {
		errs = append(errs, field.Invalid(p, name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

func isNative(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

func isExtended(name string) bool {
	if isNative(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(ValidateLabelName("requests."+name, field.NewPath("x"))) == 0
}

func validateResources(r map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	limP, reqP := p.Child("limits"), p.Child("requests")
	lims, reqs := Obj(r, "limits"), Obj(r, "requests")
	hasCPUMem, hasHuge := false, false
	for _, name := range Keys(lims) {
		fp := limP.Key(name)
		errs = append(errs, validateResourceName(name, fp)...)
		errs = append(errs, validateQuantityValue(name, lims[name], fp)...)
		hasHuge = hasHuge || strings.HasPrefix(name, "hugepages-")
		hasCPUMem = hasCPUMem || name == "cpu" || name == "memory"
	}
	for _, name := range Keys(reqs) {
		fp := reqP.Key(name)
		errs = append(errs, validateResourceName(name, fp)...)
		errs = append(errs, validateQuantityValue(name, reqs[name], fp)...)
		overcommit := isNative(name) && !strings.HasPrefix(name, "hugepages-")
		rq, rok := ParseQuantity(reqs[name])
		if lv, exists := lims[name]; exists {
			lq, lok := ParseQuantity(lv)
			if rok && lok {
				if rq.Cmp(lq) != 0 && !overcommit {
					errs = append(errs, field.Invalid(reqP, rq.String(), fmt.Sprintf("must be equal to %s limit of %s", name, lq.String())))
				} else if rq.Cmp(lq) > 0 {
					errs = append(errs, field.Invalid(reqP, rq.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lq.String())))
				}
			}
		} else if !overcommit {
			errs = append(errs, field.Required(limP, "Limit must be set for non overcommitable resources"))
		}
		hasHuge = hasHuge || strings.HasPrefix(name, "hugepages-")
		hasCPUMem = hasCPUMem || name == "cpu" || name == "memory"
	}
	if !hasCPUMem && hasHuge {
		errs = append(errs, field.Forbidden(p, "HugePages require cpu or memory"))
	}
	for i, cl := range Objs(r, "claims") {
		if Str(cl, "name") == "" {
			errs = append(errs, field.Required(p.Child("claims").Index(i), ""))
		}
	}
	return errs
}

// validateQuantityValue is ValidateResourceQuantityValue.
func validateQuantityValue(name string, v any, p *field.Path) field.ErrorList {
	q, ok := ParseQuantity(v)
	if !ok {
		return nil // kube-apiserver refuses it while decoding
	}
	var errs field.ErrorList
	if q.Sign() < 0 {
		errs = append(errs, field.Invalid(p, q.String(), IsNegativeErrorMsg))
	}
	integer := name == "pods" || name == "services" || name == "secrets" || name == "configmaps" ||
		name == "resourcequotas" || name == "replicationcontrollers" || name == "persistentvolumeclaims" ||
		name == "services.nodeports" || name == "services.loadbalancers" || isExtended(name)
	if integer && !q.IsInteger() {
		errs = append(errs, field.Invalid(p, q.String(), "must be an integer"))
	}
	return errs
}

func validateResizePolicy(list []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, rp := range list {
		name := Str(rp, "resourceName")
		if seen[name] {
			errs = append(errs, field.Duplicate(p.Index(i), name))
		}
		seen[name] = true
		switch name {
		case "cpu", "memory":
		case "":
			errs = append(errs, field.Required(p, ""))
		default:
			errs = append(errs, field.NotSupported(p, name, []string{"cpu", "memory"}))
		}
		switch pol := Str(rp, "restartPolicy"); pol {
		case "NotRequired", "RestartContainer":
		case "":
			errs = append(errs, field.Required(p, ""))
		default:
			errs = append(errs, field.NotSupported(p, pol, []string{"NotRequired", "RestartContainer"}))
		}
	}
	return errs
}

func validateID(sc map[string]any, k string, p *field.Path) field.ErrorList {
	if v, ok := IntOK(sc, k); ok && (v < 0 || v > 2147483647) {
		return field.ErrorList{field.Invalid(p.Child(k), v, InclusiveRangeError(0, 2147483647))}
	}
	return nil
}

// validateSecurityContext covers the ids, procMount and seccomp type of
// ValidateSecurityContext (privileged containers are allowed, as on a
// cluster started with --allow-privileged).
func validateSecurityContext(sc map[string]any, p *field.Path) field.ErrorList {
	if sc == nil {
		return nil
	}
	errs := validateID(sc, "runAsUser", p)
	errs = append(errs, validateID(sc, "runAsGroup", p)...)
	if Has(sc, "procMount") {
		switch pm := Str(sc, "procMount"); pm {
		case "Default", "Unmasked":
		default:
			errs = append(errs, field.NotSupported(p.Child("procMount"), pm, []string{"Default", "Unmasked"}))
		}
	}
	errs = append(errs, validateSeccompProfile(Obj(sc, "seccompProfile"), p.Child("seccompProfile"))...)
	return errs
}

func validateSeccompProfile(sp map[string]any, p *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	var errs field.ErrorList
	t := Str(sp, "type")
	switch t {
	case "Localhost", "RuntimeDefault", "Unconfined":
	case "":
		errs = append(errs, field.Required(p.Child("type"), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, field.NotSupported(p.Child("type"), t, []string{"Localhost", "RuntimeDefault", "Unconfined"}))
	}
	if t == "Localhost" {
		if !Has(sp, "localhostProfile") {
			errs = append(errs, field.Required(p.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, validateLocalDescendingPath(Str(sp, "localhostProfile"), p.Child("localhostProfile"))...)
		}
	} else if Has(sp, "localhostProfile") {
		// the bad value is the internal struct, which has no JSON tags
		v := json.RawMessage(fmt.Sprintf(`{"Type":%s,"LocalhostProfile":%s}`, field.FormatValue(t), field.FormatValue(Str(sp, "localhostProfile"))))
		errs = append(errs, field.Invalid(p.Child("localhostProfile"), v, "can only be set when seccomp type is Localhost"))
	}
	return errs
}

// ValidateContainerResourceName is ValidateContainerResourceName (an HPA's
// container resource metric names one).
func ValidateContainerResourceName(name string, p *field.Path) field.ErrorList {
	return validateResourceName(name, p)
}
