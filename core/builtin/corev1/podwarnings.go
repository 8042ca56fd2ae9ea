package corev1

import (
	"fmt"
	"sort"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Pod warnings: a port of k8s.io/kubernetes pkg/api/pod/warnings.go
// (GetWarningsForPod, GetWarningsForPodTemplate), which every strategy
// holding a pod template returns from WarningsOnCreate/Update, and of the
// AppArmor annotation warning the pod strategy's PrepareForCreate adds
// (applyAppArmorVersionSkew). Not ported: the overlapping-paths warnings
// of configMap/secret/downwardAPI/projected volumes and the PVC-spec
// warnings of ephemeral volumes.

// PodWarnings is the pod strategy's warnings on create (old nil) and
// update. For example a pod annotated
// seccomp.security.alpha.kubernetes.io/pod without a seccompProfile gets
//
//	metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead
func PodWarnings(obj, old map[string]any) []string {
	var ws []string
	if old == nil {
		ws = appArmorSkewWarnings(obj)
	}
	return append(ws, podSpecWarnings(nil, Obj(obj, "spec"), Obj(obj, "metadata"))...)
}

// PodTemplateWarnings returns the warnings of the pod template at path
// (spec.template, spec.jobTemplate.spec.template) of a workload; on an
// update only when the write changed metadata.generation, as the apps and
// batch strategies do.
func PodTemplateWarnings(path ...string) func(obj, old map[string]any) []string {
	return func(obj, old map[string]any) []string {
		if old != nil && Int(Obj(obj, "metadata"), "generation") == Int(Obj(old, "metadata"), "generation") {
			return nil
		}
		tmpl := obj
		for _, k := range path {
			tmpl = Obj(tmpl, k)
		}
		if tmpl == nil {
			return nil
		}
		return podSpecWarnings(field.NewPath(path[0], path[1:]...), Obj(tmpl, "spec"), Obj(tmpl, "metadata"))
	}
}

const appArmorPrefix = "container.apparmor.security.beta.kubernetes.io/"

// appArmorSkewWarnings warns of each container AppArmor annotation that
// PrepareForCreate copied into the container's appArmorProfile (or could
// not copy, being invalid). It runs after the copy, so a container whose
// profile equals its annotation's is taken as copied.
func appArmorSkewWarnings(pod map[string]any) []string {
	spec, ann := Obj(pod, "spec"), StrMap(Obj(pod, "metadata"), "annotations")
	if Str(Obj(spec, "os"), "name") == "windows" || len(ann) == 0 {
		return nil
	}
	var ws []string
	visitContainers(nil, spec, func(c map[string]any, _ *field.Path) {
		key := appArmorPrefix + Str(c, "name")
		a, ok := ann[key]
		if !ok {
			return
		}
		want := appArmorField(a)
		have := Obj(Obj(c, "securityContext"), "appArmorProfile")
		if want == nil || (have != nil && sameAppArmor(have, want)) {
			ws = append(ws, field.NewPath("metadata", "annotations").Key(key).String()+`: deprecated since v1.30; use the "appArmorProfile" field instead`)
		}
	})
	return ws
}

// appArmorField is ApparmorFieldForAnnotation: "localhost/p" →
// {type: Localhost, localhostProfile: p}; nil for an unknown value.
func appArmorField(a string) map[string]any {
	switch {
	case a == "unconfined":
		return map[string]any{"type": "Unconfined"}
	case a == "runtime/default":
		return map[string]any{"type": "RuntimeDefault"}
	case strings.HasPrefix(a, "localhost/") && len(a) > len("localhost/"):
		return map[string]any{"type": "Localhost", "localhostProfile": strings.TrimPrefix(a, "localhost/")}
	}
	return nil
}

func sameAppArmor(a, b map[string]any) bool {
	return Str(a, "type") == Str(b, "type") && Str(a, "localhostProfile") == Str(b, "localhostProfile")
}

// SyncAppArmorAnnotations is applyAppArmorVersionSkew: a container
// without appArmorProfile whose deprecated annotation names a valid
// profile different from the pod's gets that profile.
func SyncAppArmorAnnotations(pod map[string]any) {
	spec, ann := Obj(pod, "spec"), StrMap(Obj(pod, "metadata"), "annotations")
	if spec == nil || Str(Obj(spec, "os"), "name") == "windows" || len(ann) == 0 {
		return
	}
	podProfile := Obj(Obj(spec, "securityContext"), "appArmorProfile")
	visitContainers(nil, spec, func(c map[string]any, _ *field.Path) {
		a, ok := ann[appArmorPrefix+Str(c, "name")]
		if !ok || Obj(Obj(c, "securityContext"), "appArmorProfile") != nil {
			return
		}
		f := appArmorField(a)
		if f == nil || (podProfile != nil && sameAppArmor(f, podProfile)) {
			return
		}
		if Str(f, "type") == "Localhost" && len(Str(f, "localhostProfile")) > 4095 {
			return // ValidateAppArmorProfileField refuses it: not copied
		}
		sc := Obj(c, "securityContext")
		if sc == nil {
			sc = map[string]any{}
			c["securityContext"] = sc
		}
		sc["appArmorProfile"] = f
	})
}

// visitContainers is pods.VisitContainersWithPath: init containers, then
// containers, then ephemeral containers.
func visitContainers(root *field.Path, spec map[string]any, fn func(c map[string]any, p *field.Path)) {
	for _, k := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for i, c := range Objs(spec, k) {
			fn(c, root.Child("spec", k).Index(i))
		}
	}
}

var deprecatedPodAnnotations = []struct{ key, msg string }{
	{"scheduler.alpha.kubernetes.io/critical-pod", `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{"security.alpha.kubernetes.io/sysctls", `non-functional in v1.11+; use the "sysctls" field instead`},
	{"security.alpha.kubernetes.io/unsafe-sysctls", `non-functional in v1.11+; use the "sysctls" field instead`},
}

var deprecatedNodeLabels = map[string]string{
	"beta.kubernetes.io/arch":                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	"beta.kubernetes.io/os":                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	"failure-domain.beta.kubernetes.io/region":      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	"failure-domain.beta.kubernetes.io/zone":        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	"beta.kubernetes.io/instance-type":              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	"app.kubernetes.io/created-by":                  `deprecated since v1.9`,
	"scheduler.alpha.kubernetes.io/preferAvoidPods": `deprecated since v1.22; use Taints and Tolerations instead`,
	"node-role.kubernetes.io/master":                `use "node-role.kubernetes.io/control-plane" instead`,
}

// deprecatedVolumes are the removed or deprecated volume plugins, in the
// order warnings.go checks them.
var deprecatedVolumes = []struct{ key, msg string }{
	{"photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"},
	{"gitRepo", "deprecated in v1.11, and disabled by default in v1.33+"},
	{"scaleIO", "deprecated in v1.16, non-functional in v1.22+"},
	{"flocker", "deprecated in v1.22, non-functional in v1.25+"},
	{"storageos", "deprecated in v1.22, non-functional in v1.25+"},
	{"quobyte", "deprecated in v1.22, non-functional in v1.25+"},
	{"glusterfs", "deprecated in v1.25, non-functional in v1.26+"},
	{"cephfs", "deprecated in v1.28, non-functional in v1.31+"},
	{"rbd", "deprecated in v1.28, non-functional in v1.31+"},
}

// volumeFieldName is the Go field name warnings.go prints for a volume
// source (field.Path children are Go-cased there for StorageOS only).
var volumeFieldName = map[string]string{"storageos": "storageOS"}

// podSpecWarnings is warningsForPodSpecAndMeta; root is nil for a pod.
func podSpecWarnings(root *field.Path, spec, meta map[string]any) []string {
	if spec == nil {
		return nil
	}
	var ws []string
	add := func(p *field.Path, msg string) { ws = append(ws, p.String()+": "+msg) }
	sp := root.Child("spec")
	ns := StrMap(spec, "nodeSelector")
	for _, k := range sortedKeys(ns) {
		if msg, ok := deprecatedNodeLabels[k]; ok {
			add(sp.Child("nodeSelector").Key(k), msg)
		}
	}
	aff := Obj(spec, "affinity")
	if na := Obj(aff, "nodeAffinity"); na != nil {
		terms := sp.Child("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
		for i, t := range Objs(Obj(na, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms") {
			ws = append(ws, nodeSelectorTermWarnings(t, false, terms.Index(i))...)
		}
		pref := sp.Child("affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range Objs(na, "preferredDuringSchedulingIgnoredDuringExecution") {
			ws = append(ws, nodeSelectorTermWarnings(Obj(t, "preference"), true, pref.Index(i).Child("preference"))...)
		}
	}
	for i, t := range Objs(spec, "topologySpreadConstraints") {
		p := sp.Child("topologySpreadConstraints").Index(i)
		if msg, ok := deprecatedNodeLabels[Str(t, "topologyKey")]; ok {
			add(p.Child("topologyKey"), Str(t, "topologyKey")+" is "+msg)
		}
		if !Has(t, "labelSelector") {
			add(p.Child("labelSelector"), "a null labelSelector results in matching no pod")
		}
	}
	ann := StrMap(meta, "annotations")
	annPath := root.Child("metadata", "annotations")
	for _, d := range deprecatedPodAnnotations {
		if _, ok := ann[d.key]; ok {
			add(annPath.Key(d.key), d.msg)
		}
	}
	for i, v := range Objs(spec, "volumes") {
		for _, d := range deprecatedVolumes {
			if Has(v, d.key) {
				name := d.key
				if n, ok := volumeFieldName[name]; ok {
					name = n
				}
				add(sp.Child("volumes").Index(i).Child(name), d.msg)
			}
		}
	}
	ws = append(ws, duplicateWarnings(sp.Child("hostAliases"), Objs(spec, "hostAliases"), "ip", "duplicate ip")...)
	ws = append(ws, duplicateWarnings(sp.Child("imagePullSecrets"), Objs(spec, "imagePullSecrets"), "name", "duplicate name")...)
	for i, s := range Objs(spec, "imagePullSecrets") {
		if Str(s, "name") == "" {
			add(sp.Child("imagePullSecrets").Index(i).Child("name"), `invalid empty name ""`)
		}
	}
	for _, r := range []string{"memory", "ephemeral-storage"} {
		ws = append(ws, fractionalWarning(sp.Child("overhead").Key(r), Obj(spec, "overhead")[r])...)
	}
	if sc := Obj(spec, "securityContext"); !Has(sc, "seccompProfile") {
		if _, ok := ann["seccomp.security.alpha.kubernetes.io/pod"]; ok {
			add(annPath.Key("seccomp.security.alpha.kubernetes.io/pod"), `non-functional in v1.27+; use the "seccompProfile" field instead`)
		}
	}
	podAppArmor := Obj(Obj(spec, "securityContext"), "appArmorProfile")
	visitContainers(root, spec, func(c map[string]any, p *field.Path) {
		sc := Obj(c, "securityContext")
		if !Has(sc, "seccompProfile") {
			key := "container.seccomp.security.alpha.kubernetes.io/" + Str(c, "name")
			if _, ok := ann[key]; ok {
				add(annPath.Key(key), `non-functional in v1.27+; use the "seccompProfile" field instead`)
			}
		}
		if root != nil && !Has(sc, "appArmorProfile") {
			key := appArmorPrefix + Str(c, "name")
			if a, ok := ann[key]; ok {
				if f := appArmorField(a); podAppArmor == nil || f == nil || !sameAppArmor(podAppArmor, f) {
					add(annPath.Key(key), `deprecated since v1.30; use the "appArmorProfile" field instead`)
				}
			}
		}
		res := Obj(c, "resources")
		for _, kind := range []string{"limits", "requests"} {
			ws = append(ws, fractionalWarning(p.Child("resources", kind).Key("memory"), Obj(res, kind)["memory"])...)
		}
		for _, kind := range []string{"limits", "requests"} {
			ws = append(ws, fractionalWarning(p.Child("resources", kind).Key("ephemeral-storage"), Obj(res, kind)["ephemeral-storage"])...)
		}
		ws = append(ws, envWarnings(p, Objs(c, "env"))...)
	})
	ws = append(ws, portWarnings(root, spec)...)
	if g, ok := IntOK(spec, "terminationGracePeriodSeconds"); ok && g < 0 {
		add(sp.Child("terminationGracePeriodSeconds"), "must be >= 0; negative values are invalid and will be treated as 1")
	}
	for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
		a := Obj(aff, kind)
		if a == nil {
			continue
		}
		req := sp.Child("affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution")
		for i, t := range Objs(a, "requiredDuringSchedulingIgnoredDuringExecution") {
			if !Has(t, "labelSelector") {
				add(req.Index(i).Child("labelSelector"), "a null labelSelector results in matching no pod")
			}
		}
		pref := sp.Child("affinity", kind, "preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range Objs(a, "preferredDuringSchedulingIgnoredDuringExecution") {
			if !Has(Obj(t, "podAffinityTerm"), "labelSelector") {
				add(pref.Index(i).Child("podAffinityTerm", "labelSelector"), "a null labelSelector results in matching no pod")
			}
		}
	}
	for i, s := range Strs(Obj(spec, "dnsConfig"), "nameservers") {
		ws = append(ws, WarningsForIP(sp.Child("dnsConfig", "nameservers").Index(i), s)...)
	}
	for i, h := range Objs(spec, "hostAliases") {
		ws = append(ws, WarningsForIP(sp.Child("hostAliases").Index(i).Child("ip"), Str(h, "ip"))...)
	}
	return ws
}

func nodeSelectorTermWarnings(term map[string]any, checkValues bool, p *field.Path) []string {
	var ws []string
	for i, e := range Objs(term, "matchExpressions") {
		key := Str(e, "key")
		if msg, ok := deprecatedNodeLabels[key]; ok {
			ws = append(ws, fmt.Sprintf("%s: %s is %s", p.Child("matchExpressions").Index(i).Child("key"), key, msg))
		}
		if !checkValues {
			continue
		}
		for j, v := range Strs(e, "values") {
			for _, msg := range validation.IsValidLabelValue(v) {
				ws = append(ws, fmt.Sprintf("%s: %s is invalid, %s", p.Child("matchExpressions").Index(i).Child("values").Index(j), v, msg))
			}
		}
	}
	return ws
}

// duplicateWarnings warns of every item repeating an earlier item's key.
func duplicateWarnings(p *field.Path, list []map[string]any, key, what string) []string {
	if len(list) < 2 {
		return nil
	}
	var ws []string
	seen := map[string]bool{}
	for i, it := range list {
		v := Str(it, key)
		if seen[v] {
			ws = append(ws, fmt.Sprintf("%s: %s %q", p.Index(i).Child(key), what, v))
		}
		seen[v] = true
	}
	return ws
}

// fractionalWarning warns of a byte quantity with a fraction of a byte.
func fractionalWarning(p *field.Path, v any) []string {
	if v == nil {
		return nil
	}
	q, ok := ParseQuantity(v)
	if !ok || q.ScaledValue(-3)%1000 == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p, q.String())}
}

// envWarnings warns of an env var that hides an earlier one of the same
// name (unless its value refers to the earlier one, X="$(X)suffix").
func envWarnings(p *field.Path, env []map[string]any) []string {
	if len(env) < 2 {
		return nil
	}
	var ws []string
	seen := map[string]bool{}
	for i, e := range env {
		name := Str(e, "name")
		if !seen[name] {
			seen[name] = true
			continue
		}
		ref, v := "$("+name+")", Str(e, "value")
		if Has(e, "valueFrom") || v == ref || !strings.Contains(v, ref) {
			ws = append(ws, fmt.Sprintf("%s: hides previous definition of %q, which may be dropped when using apply", p.Child("env").Index(i), name))
		}
	}
	return ws
}

// portWarnings are the port checks across all containers: hostIP without
// hostPort, duplicate/overlapping/ambiguous definitions, duplicate names.
func portWarnings(root *field.Path, spec map[string]any) []string {
	type block struct {
		p      *field.Path
		hostIP string
		host   int64
	}
	var ws []string
	all := map[string][]block{}
	visitContainers(root, spec, func(c map[string]any, cp *field.Path) {
		for i, port := range Objs(c, "ports") {
			p := cp.Child("ports").Index(i)
			hostIP, host, cport, proto := Str(port, "hostIP"), Int(port, "hostPort"), Int(port, "containerPort"), Str(port, "protocol")
			if hostIP != "" && host == 0 {
				ws = append(ws, fmt.Sprintf("%s: hostIP set without hostPort: {Name:%s HostPort:%d ContainerPort:%d Protocol:%s HostIP:%s}",
					p, Str(port, "name"), host, cport, proto, hostIP))
			}
			k := fmt.Sprintf("%d/%s", cport, proto)
			for _, o := range all[k] {
				switch a, b := hostIP == "", o.hostIP == ""; {
				case hostIP == o.hostIP && host == o.host:
					ws = append(ws, fmt.Sprintf("%s: duplicate port definition with %s", p, o.p))
				case host == 0 || o.host == 0:
					ws = append(ws, fmt.Sprintf("%s: overlapping port definition with %s", p, o.p))
				case host == o.host && (a || b) && !(a && b):
					ws = append(ws, fmt.Sprintf("%s: dangerously ambiguous port definition with %s", p, o.p))
				}
			}
			all[k] = append(all[k], block{p, hostIP, host})
		}
	})
	names := map[string]*field.Path{}
	visitContainers(root, spec, func(c map[string]any, cp *field.Path) {
		for i, port := range Objs(c, "ports") {
			name := Str(port, "name")
			if name == "" {
				continue
			}
			p := cp.Child("ports").Index(i)
			if o, ok := names[name]; ok {
				ws = append(ws, fmt.Sprintf("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", p, name, o, o))
			} else {
				names[name] = p
			}
		}
	})
	return ws
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// WorkloadWarnings are the warnings of the apps and batch strategies
// around a pod template at path: for Deployments, ReplicaSets, Jobs and
// CronJobs (dnsName) a name that is no DNS label (it becomes part of pod
// names and hostnames), for StatefulSets (revisionHistoryLimit) a negative
// revisionHistoryLimit, then the template's warnings (on update only when
// the generation changed).
func WorkloadWarnings(dnsName, revisionHistoryLimit bool, path ...string) func(obj, old map[string]any) []string {
	tmpl := PodTemplateWarnings(path...)
	return func(obj, old map[string]any) []string {
		var ws []string
		if dnsName && old == nil {
			if msgs := validation.IsDNS1123Label(Str(Obj(obj, "metadata"), "name")); len(msgs) > 0 {
				ws = append(ws, fmt.Sprintf("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: %v", msgs))
			}
		}
		ws = append(ws, tmpl(obj, old)...)
		if n, ok := IntOK(Obj(obj, "spec"), "revisionHistoryLimit"); revisionHistoryLimit && ok && n < 0 {
			ws = append(ws, "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended")
		}
		return ws
	}
}
