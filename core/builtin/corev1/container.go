package corev1

import (
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Container validation: validateContainers, validateInitContainers and
// validateContainerCommon of pkg/apis/core/validation, in their order.

type podCtx struct {
	volumes       map[string]map[string]any // valid volumes by name
	gracePeriod   *int64
	restartPolicy string
	os            string
}

func validateContainers(ctrs []map[string]any, c *podCtx, p *field.Path) field.ErrorList {
	if len(ctrs) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	for i, ctr := range ctrs {
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(ctr, c, cp)...)
		name := Str(ctr, "name")
		if names[name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), name))
		} else {
			names[name] = true
		}
		if lc := Obj(ctr, "lifecycle"); lc != nil {
			errs = append(errs, validateLifecycle(lc, c, cp.Child("lifecycle"))...)
		}
		errs = append(errs, validateLivenessProbe(Obj(ctr, "livenessProbe"), cp.Child("livenessProbe"))...)
		errs = append(errs, validateReadinessProbe(Obj(ctr, "readinessProbe"), cp.Child("readinessProbe"))...)
		errs = append(errs, validateLivenessProbe(Obj(ctr, "startupProbe"), cp.Child("startupProbe"))...)
	}
	errs = append(errs, hostPortConflicts(ctrs, p)...)
	return errs
}

func validateInitContainers(inits, regular []map[string]any, c *podCtx, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, ctr := range regular {
		names[Str(ctr, "name")] = true
	}
	for i, ctr := range inits {
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(ctr, c, cp)...)
		restartAlways := false
		if Has(ctr, "restartPolicy") {
			rp := Str(ctr, "restartPolicy")
			restartAlways = rp == "Always"
			switch rp {
			case "Always", "Never", "OnFailure":
			default:
				errs = append(errs, field.NotSupported(cp.Child("restartPolicy"), rp, []string{"Always", "Never", "OnFailure"}))
			}
		}
		name := Str(ctr, "name")
		if names[name] {
			errs = append(errs, field.Duplicate(cp.Child("name"), name))
		} else if name != "" {
			names[name] = true
		}
		errs = append(errs, hostPortConflicts([]map[string]any{ctr}, p)...)
		if restartAlways {
			if lc := Obj(ctr, "lifecycle"); lc != nil {
				errs = append(errs, validateLifecycle(lc, c, cp.Child("lifecycle"))...)
			}
			errs = append(errs, validateLivenessProbe(Obj(ctr, "livenessProbe"), cp.Child("livenessProbe"))...)
			errs = append(errs, validateReadinessProbe(Obj(ctr, "readinessProbe"), cp.Child("readinessProbe"))...)
			errs = append(errs, validateLivenessProbe(Obj(ctr, "startupProbe"), cp.Child("startupProbe"))...)
		} else {
			for _, k := range []string{"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"} {
				if Has(ctr, k) {
					errs = append(errs, field.Forbidden(cp.Child(k), "may not be set for init containers without restartPolicy=Always"))
				}
			}
			for j, rp := range Objs(ctr, "resizePolicy") {
				if Str(rp, "restartPolicy") == "RestartContainer" {
					errs = append(errs, field.Invalid(cp.Child("resizePolicy").Index(j).Child("restartPolicy"), "RestartContainer", "must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return errs
}

func validateContainerCommon(ctr map[string]any, c *podCtx, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name := Str(ctr, "name"); name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		errs = append(errs, dns1123Label(name, p.Child("name"))...)
	}
	if Str(ctr, "image") == "" {
		errs = append(errs, field.Required(p.Child("image"), ""))
	}
	switch tmp := Str(ctr, "terminationMessagePolicy"); tmp {
	case "File", "FallbackToLogsOnError":
	case "":
		errs = append(errs, field.Required(p.Child("terminationMessagePolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy"), tmp, []string{"File", "FallbackToLogsOnError"}))
	}
	errs = append(errs, validateContainerPorts(Objs(ctr, "ports"), p.Child("ports"))...)
	errs = append(errs, validateEnv(Objs(ctr, "env"), p.Child("env"))...)
	errs = append(errs, validateEnvFrom(Objs(ctr, "envFrom"), p.Child("envFrom"))...)
	errs = append(errs, validateVolumeMounts(Objs(ctr, "volumeMounts"), c, p.Child("volumeMounts"))...)
	switch pp := Str(ctr, "imagePullPolicy"); pp {
	case "Always", "IfNotPresent", "Never":
	case "":
		errs = append(errs, field.Required(p.Child("imagePullPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("imagePullPolicy"), pp, []string{"Always", "IfNotPresent", "Never"}))
	}
	errs = append(errs, validateResources(Obj(ctr, "resources"), p.Child("resources"))...)
	errs = append(errs, validateResizePolicy(Objs(ctr, "resizePolicy"), p.Child("resizePolicy"))...)
	errs = append(errs, validateSecurityContext(Obj(ctr, "securityContext"), p.Child("securityContext"))...)
	return errs
}

var supportedProtocols = []string{"SCTP", "TCP", "UDP"}

func validateContainerPorts(ports []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		ip := p.Index(i)
		if name := Str(port, "name"); name != "" {
			if msgs := IsValidPortName(name); len(msgs) > 0 {
				for _, m := range msgs {
					errs = append(errs, field.Invalid(ip.Child("name"), name, m))
				}
			} else if names[name] {
				errs = append(errs, field.Duplicate(ip.Child("name"), name))
			} else {
				names[name] = true
			}
		}
		if cp := Int(port, "containerPort"); cp == 0 {
			errs = append(errs, field.Required(ip.Child("containerPort"), ""))
		} else if cp < 1 || cp > 65535 {
			errs = append(errs, field.Invalid(ip.Child("containerPort"), cp, InclusiveRangeError(1, 65535)))
		}
		if hp := Int(port, "hostPort"); hp != 0 && (hp < 1 || hp > 65535) {
			errs = append(errs, field.Invalid(ip.Child("hostPort"), hp, InclusiveRangeError(1, 65535)))
		}
		if proto := Str(port, "protocol"); proto == "" {
			errs = append(errs, field.Required(ip.Child("protocol"), ""))
		} else if !has(supportedProtocols, proto) {
			errs = append(errs, field.NotSupported(ip.Child("protocol"), proto, supportedProtocols))
		}
	}
	return errs
}

// IsValidPortName is apimachinery's IsValidPortName (IANA_SVC_NAME).
func IsValidPortName(port string) []string {
	var errs []string
	if len(port) > 15 {
		errs = append(errs, "must be no more than 15 characters")
	}
	charset, letter := true, false
	for _, r := range port {
		switch {
		case r >= 'a' && r <= 'z':
			letter = true
		case r >= '0' && r <= '9', r == '-':
		default:
			charset = false
		}
	}
	if !charset || port == "" {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !letter {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

func hostPortConflicts(ctrs []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for ci, ctr := range ctrs {
		for pi, port := range Objs(ctr, "ports") {
			hp := Int(port, "hostPort")
			if hp == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", Str(port, "protocol"), Str(port, "hostIP"), hp)
			if seen[key] {
				errs = append(errs, field.Duplicate(p.Index(ci).Child("ports").Index(pi).Child("hostPort"), key))
			} else {
				seen[key] = true
			}
		}
	}
	return errs
}

const relaxedEnvVarNameMsg = "a valid environment variable name must consist only of printable ASCII characters other than '='"

// isRelaxedEnvVarName is IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation is GA).
func isRelaxedEnvVarName(v string) []string {
	var errs []string
	if v == "" {
		errs = append(errs, "environment variable name "+validation.EmptyError())
	}
	for _, r := range v {
		if r > 127 || r < 32 || r == 127 || r == '=' {
			errs = append(errs, relaxedEnvVarNameMsg)
			break
		}
	}
	return errs
}

func validateEnv(vars []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ip := p.Index(i)
		if name := Str(ev, "name"); name == "" {
			errs = append(errs, field.Required(ip.Child("name"), ""))
		} else {
			for _, m := range isRelaxedEnvVarName(name) {
				errs = append(errs, field.Invalid(ip.Child("name"), name, m))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, ip.Child("valueFrom"))...)
	}
	return errs
}

var validEnvFieldPaths = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
	"spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}

func validateEnvVarValueFrom(ev map[string]any, p *field.Path) field.ErrorList {
	vf := Obj(ev, "valueFrom")
	if vf == nil {
		return nil
	}
	var errs field.ErrorList
	n := 0
	if fr := Obj(vf, "fieldRef"); fr != nil {
		n++
		errs = append(errs, validateObjectFieldSelector(fr, p.Child("fieldRef"))...)
	}
	if Has(vf, "resourceFieldRef") {
		n++
		rf := Obj(vf, "resourceFieldRef")
		if Str(rf, "resource") == "" {
			errs = append(errs, field.Required(p.Child("resourceFieldRef").Child("resource"), ""))
		}
	}
	for _, k := range []string{"configMapKeyRef", "secretKeyRef"} {
		if ref := Obj(vf, k); ref != nil {
			n++
			rp := p.Child(k)
			name := Str(ref, "name")
			for _, m := range validation.NameIsDNSSubdomain(name, false) {
				errs = append(errs, field.Invalid(rp.Child("name"), name, m))
			}
			if key := Str(ref, "key"); key == "" {
				errs = append(errs, field.Required(rp.Child("key"), ""))
			} else {
				for _, m := range IsConfigMapKey(key) {
					errs = append(errs, field.Invalid(rp.Child("key"), key, m))
				}
			}
		}
	}
	if Has(vf, "fileKeyRef") {
		n++ // EnvFiles (beta): its own checks are not reproduced
	}
	if n == 0 {
		errs = append(errs, field.Invalid(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	} else if v := Str(ev, "value"); v != "" && n != 0 {
		errs = append(errs, field.Invalid(p, "", "may not be specified when `value` is not empty"))
	} else if n > 1 {
		errs = append(errs, field.Invalid(p, "", "may not have more than one field specified at a time"))
	}
	return errs
}

func validateObjectFieldSelector(fs map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if Str(fs, "apiVersion") == "" {
		return append(errs, field.Required(p.Child("apiVersion"), ""))
	}
	fp := Str(fs, "fieldPath")
	if fp == "" {
		return append(errs, field.Required(p.Child("fieldPath"), ""))
	}
	// podshelper.ConvertDownwardAPIFieldLabel
	path, sub, subscripted := splitSubscript(fp)
	var convErr string
	switch {
	case Str(fs, "apiVersion") != "v1":
		convErr = "unsupported pod version: " + Str(fs, "apiVersion")
	case subscripted && path != "metadata.annotations" && path != "metadata.labels":
		convErr = "field label does not support subscript: " + fp
	case !subscripted && !has(downwardLabels, fp):
		convErr = "field label not supported: " + fp
	}
	if convErr != "" {
		return append(errs, field.Invalid(p.Child("fieldPath"), fp, "error converting fieldPath: "+convErr))
	}
	if fp == "spec.host" {
		fp = "spec.nodeName"
	}
	if subscripted {
		if path == "metadata.annotations" {
			sub = strings.ToLower(sub)
		}
		for _, m := range validation.IsQualifiedName(sub) {
			errs = append(errs, field.Invalid(p, sub, m))
		}
	} else if !has(validEnvFieldPaths, fp) {
		errs = append(errs, field.NotSupported(p.Child("fieldPath"), fp, validEnvFieldPaths))
	}
	return errs
}

var downwardLabels = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
	"metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
	"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "spec.host"}

// splitSubscript is fieldpath.SplitMaybeSubscriptedPath: a['b'] → a, b.
func splitSubscript(fp string) (string, string, bool) {
	if !strings.HasSuffix(fp, "']") {
		return fp, "", false
	}
	s := strings.TrimSuffix(fp, "']")
	parts := strings.SplitN(s, "['", 2)
	if len(parts) < 2 || len(parts[0]) == 0 {
		return fp, "", false
	}
	return parts[0], parts[1], true
}

func validateEnvFrom(srcs []map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, src := range srcs {
		ip := p.Index(i)
		if prefix := Str(src, "prefix"); prefix != "" {
			for _, m := range isRelaxedEnvVarName(prefix) {
				errs = append(errs, field.Invalid(ip.Child("prefix"), prefix, m))
			}
		}
		n := 0
		for _, k := range []string{"configMapRef", "secretRef"} {
			if ref := Obj(src, k); ref != nil {
				n++
				rp := ip.Child(k).Child("name")
				if name := Str(ref, "name"); name == "" {
					errs = append(errs, field.Required(rp, ""))
				} else {
					for _, m := range validation.NameIsDNSSubdomain(name, true) {
						errs = append(errs, field.Invalid(rp, name, m))
					}
				}
			}
		}
		if n == 0 {
			errs = append(errs, field.Invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if n > 1 {
			errs = append(errs, field.Invalid(p, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

func validateVolumeMounts(mounts []map[string]any, c *podCtx, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	points := map[string]bool{}
	for i, mnt := range mounts {
		ip := p.Index(i)
		name, path := Str(mnt, "name"), Str(mnt, "mountPath")
		if name == "" {
			errs = append(errs, field.Required(ip.Child("name"), ""))
		}
		if _, ok := c.volumes[name]; !ok {
			errs = append(errs, field.NotFound(ip.Child("name"), name))
		}
		if path == "" {
			errs = append(errs, field.Required(ip.Child("mountPath"), ""))
		}
		if points[path] {
			errs = append(errs, field.Invalid(ip.Child("mountPath"), path, "must be unique"))
		}
		points[path] = true
		if sp := Str(mnt, "subPath"); sp != "" {
			errs = append(errs, validateLocalDescendingPath(sp, p.Child("subPath"))...)
		}
		if spe := Str(mnt, "subPathExpr"); spe != "" {
			if Str(mnt, "subPath") != "" {
				errs = append(errs, field.Invalid(ip.Child("subPathExpr"), spe, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, validateLocalDescendingPath(spe, p.Child("subPathExpr"))...)
		}
	}
	return errs
}

// validateLocalDescendingPath: relative, and no '..' element.
func validateLocalDescendingPath(target string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.HasPrefix(target, "/") {
		errs = append(errs, field.Invalid(p, target, "must be a relative path"))
	}
	for _, item := range strings.Split(target, "/") {
		if item == ".." {
			errs = append(errs, field.Invalid(p, target, "must not contain '..'"))
			break
		}
	}
	return errs
}

func has(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

func dns1123Label(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range validation.IsDNS1123Label(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}

func dns1123Subdomain(v string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range validation.IsDNS1123Subdomain(v) {
		errs = append(errs, field.Invalid(p, v, m))
	}
	return errs
}
