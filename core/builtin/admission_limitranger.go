package builtin

import (
	"fmt"
	"math"
	"sort"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/quota"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// limitRanger is kube's LimitRanger admission plugin
// (plugin/pkg/admission/limitranger): a new Pod's containers (and init
// containers) get the requests and limits their namespace's LimitRanges
// default (noted in the `kubernetes.io/limit-ranger` annotation), then
// Pods and PersistentVolumeClaims are checked against their min, max and
// maxLimitRequestRatio.
//
//	LimitRange {type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}}
//	POST pods {containers: [{name: app, image: nginx}]}
//	→ resources: {limits: {cpu: 500m}, requests: {cpu: 100m}},
//	  annotation "LimitRanger plugin set: cpu request for container app; cpu limit for container app"
//	LimitRange {type: Container, max: {cpu: "1"}}, a container with limits.cpu 2
//	→ 403 pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2
var limitRanger = &resource.AdmissionPlugin{
	Name:     "LimitRanger",
	Reads:    []resource.GroupResource{{Resource: "limitranges"}},
	Admit:    func(a *resource.Attributes) error { return runLimits(a, true) },
	Validate: func(a *resource.Attributes) error { return runLimits(a, false) },
}

// runLimits is runLimitFunc: every LimitRange of the namespace mutates or
// validates the object in turn.
func runLimits(a *resource.Attributes, mutate bool) error {
	pod := a.Resource == "pods"
	if a.Group != "" || a.Subresource != "" || (!pod && a.Resource != "persistentvolumeclaims") || (pod && a.Operation == "UPDATE") {
		return nil
	}
	if a.Old != nil && metaStr(a.Old, "deletionTimestamp") != "" {
		return nil
	}
	for _, lr := range a.Objects.List("", "limitranges", a.Namespace) {
		var errs []string
		switch {
		case mutate && pod:
			mutatePodLimits(lr, a.Obj)
		case pod:
			errs = validatePodLimits(lr, a.Obj)
		case !mutate:
			errs = validatePVCLimits(lr, a.Obj)
		}
		if len(errs) > 0 {
			return forbidden(a, aggregate(errs))
		}
	}
	return nil
}

// aggregate is utilerrors.NewAggregate's message: one error as it is,
// several (duplicates dropped) as "[a, b]".
func aggregate(errs []string) string {
	seen := map[string]bool{}
	var out []string
	for _, e := range errs {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// limitItems are a LimitRange's spec.limits of type typ.
func limitItems(lr resource.Object, typ string) []map[string]any {
	var out []map[string]any
	for _, it := range Objs(Obj(lr, "spec"), "limits") {
		if Str(it, "type") == typ {
			out = append(out, it)
		}
	}
	return out
}

// mutatePodLimits is PodMutateLimitFunc.
func mutatePodLimits(lr resource.Object, pod resource.Object) {
	defReq, defLim := map[string]any{}, map[string]any{}
	for _, it := range limitItems(lr, "Container") {
		for k, v := range Obj(it, "defaultRequest") {
			defReq[k] = v
		}
		for k, v := range Obj(it, "default") {
			defLim[k] = v
		}
	}
	spec := Obj(pod, "spec")
	var notes []string
	for _, group := range [][2]string{{"containers", "container"}, {"initContainers", "init container"}} {
		for _, c := range Objs(spec, group[0]) {
			notes = mergeContainerDefaults(c, defReq, defLim, group[1], notes)
		}
	}
	if len(notes) > 0 {
		ensure(ensure(pod, "metadata"), "annotations")["kubernetes.io/limit-ranger"] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	}
}

// mergeContainerDefaults is mergeContainerResources: the defaults the
// container does not set, and the annotation's notes about them.
func mergeContainerDefaults(c, defReq, defLim map[string]any, what string, notes []string) []string {
	res := Obj(c, "resources")
	set := func(key string, defs map[string]any) []string {
		var names []string
		have := Obj(res, key)
		for k, v := range defs {
			if _, ok := have[k]; !ok {
				if res == nil {
					res = map[string]any{}
					c["resources"] = res
				}
				ensure(res, key)[k] = v
				names = append(names, k)
			}
		}
		sort.Strings(names)
		return names
	}
	lims := set("limits", defLim)
	if reqs := set("requests", defReq); len(reqs) > 0 {
		notes = append(notes, strings.Join(reqs, ", ")+" request for "+what+" "+Str(c, "name"))
	}
	if len(lims) > 0 {
		notes = append(notes, strings.Join(lims, ", ")+" limit for "+what+" "+Str(c, "name"))
	}
	return notes
}

// validatePodLimits is PodValidateLimitFunc: each container against the
// Container items, the pod's sums against the Pod items.
func validatePodLimits(lr, pod resource.Object) []string {
	spec := Obj(pod, "spec")
	var errs []string
	for _, it := range limitItems(lr, "Container") {
		for _, group := range []string{"containers", "initContainers"} {
			for _, c := range Objs(spec, group) {
				res := Obj(c, "resources")
				errs = append(errs, checkLimitItem("Container", it, quantities(Obj(res, "requests")), quantities(Obj(res, "limits")))...)
			}
		}
	}
	if items := limitItems(lr, "Pod"); len(items) > 0 {
		reqs, lims := quota.PodSums(spec, "requests"), quota.PodSums(spec, "limits")
		for _, it := range items {
			errs = append(errs, checkLimitItem("Pod", it, reqs, lims)...)
		}
	}
	return errs
}

// validatePVCLimits is PersistentVolumeClaimValidateLimitFunc.
func validatePVCLimits(lr, pvc resource.Object) []string {
	reqs := quantities(Obj(Obj(Obj(pvc, "spec"), "resources"), "requests"))
	var errs []string
	for _, it := range limitItems(lr, "PersistentVolumeClaim") {
		for _, k := range sortedKeys(Obj(it, "min")) {
			errs = appendErr(errs, minConstraint("PersistentVolumeClaim", k, q(Obj(it, "min")[k]), reqs, nil))
		}
		for _, k := range sortedKeys(Obj(it, "max")) {
			errs = appendErr(errs, maxRequestConstraint("PersistentVolumeClaim", k, q(Obj(it, "max")[k]), reqs))
		}
	}
	return errs
}

// checkLimitItem checks one item's min, max and maxLimitRequestRatio
// (kube ranges over maps; the keys are taken in order here).
func checkLimitItem(typ string, it map[string]any, reqs, lims map[string]Quantity) []string {
	var errs []string
	for _, k := range sortedKeys(Obj(it, "min")) {
		errs = appendErr(errs, minConstraint(typ, k, q(Obj(it, "min")[k]), reqs, lims))
	}
	for _, k := range sortedKeys(Obj(it, "max")) {
		errs = appendErr(errs, maxConstraint(typ, k, q(Obj(it, "max")[k]), reqs, lims))
	}
	for _, k := range sortedKeys(Obj(it, "maxLimitRequestRatio")) {
		errs = appendErr(errs, ratioConstraint(typ, k, q(Obj(it, "maxLimitRequestRatio")[k]), reqs, lims))
	}
	return errs
}

func appendErr(errs []string, e string) []string {
	if e != "" {
		errs = append(errs, e)
	}
	return errs
}

func q(v any) Quantity {
	x, _ := ParseQuantity(v)
	return x
}

func quantities(m map[string]any) map[string]Quantity {
	out := make(map[string]Quantity, len(m))
	for k, v := range m {
		out[k] = q(v)
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

const maxMilliValue = math.MaxInt64 / 1000

// enforcedValues is requestLimitEnforcedValues: milli units unless one of
// the three is too large for them.
func enforcedValues(req, lim, enf Quantity) (int64, int64, int64) {
	r, l, e := req.ScaledValue(0), lim.ScaledValue(0), enf.ScaledValue(0)
	if r <= maxMilliValue && l <= maxMilliValue && e <= maxMilliValue {
		return req.ScaledValue(-3), lim.ScaledValue(-3), enf.ScaledValue(-3)
	}
	return r, l, e
}

func minConstraint(typ, name string, enf Quantity, reqs, lims map[string]Quantity) string {
	req, hasReq := reqs[name]
	lim, hasLim := lims[name]
	r, l, e := enforcedValues(req, lim, enf)
	switch {
	case !hasReq:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", name, typ, enf)
	case r < e:
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", name, typ, enf, req)
	case hasLim && l < e:
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", name, typ, enf, lim)
	}
	return ""
}

func maxRequestConstraint(typ, name string, enf Quantity, reqs map[string]Quantity) string {
	req, hasReq := reqs[name]
	r, _, e := enforcedValues(req, Quantity{}, enf)
	switch {
	case !hasReq:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No request is specified", name, typ, enf)
	case r > e:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", name, typ, enf, req)
	}
	return ""
}

func maxConstraint(typ, name string, enf Quantity, reqs, lims map[string]Quantity) string {
	req, hasReq := reqs[name]
	lim, hasLim := lims[name]
	r, l, e := enforcedValues(req, lim, enf)
	switch {
	case !hasLim:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", name, typ, enf)
	case l > e:
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", name, typ, enf, lim)
	case hasReq && r > e:
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", name, typ, enf, req)
	}
	return ""
}

func ratioConstraint(typ, name string, enf Quantity, reqs, lims map[string]Quantity) string {
	req, hasReq := reqs[name]
	lim, hasLim := lims[name]
	r, l, _ := enforcedValues(req, lim, enf)
	if !hasReq || r == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, typ, enf)
	}
	if !hasLim || l == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, typ, enf)
	}
	ratio := float64(l) / float64(r)
	shown, most := ratio, float64(enf.ScaledValue(0))
	if enf.ScaledValue(0) <= maxMilliValue {
		ratio, most = ratio*1000, float64(enf.ScaledValue(-3))
	}
	if ratio > most {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, typ, enf, shown)
	}
	return ""
}
