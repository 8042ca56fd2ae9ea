package builtin

import (
	"math"
	"strconv"
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
	Admit:    limitAdmit,
	Validate: limitValidate,
}

func limitAdmit(a *resource.Attributes) error    { return runLimits(a, true) }
func limitValidate(a *resource.Attributes) error { return runLimits(a, false) }

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
// container does not set, and the annotation's notes about them (requests
// first).
func mergeContainerDefaults(c, defReq, defLim map[string]any, what string, notes []string) []string {
	var set [2][]string
	for i, key := range [2]string{"limits", "requests"} {
		defs := defLim
		if i == 1 {
			defs = defReq
		}
		for _, k := range Keys(defs) {
			if _, ok := Obj(Obj(c, "resources"), key)[k]; !ok {
				ensure(ensure(c, "resources"), key)[k] = defs[k]
				set[i] = append(set[i], k)
			}
		}
	}
	if len(set[1]) > 0 {
		notes = append(notes, strings.Join(set[1], ", ")+" request for "+what+" "+Str(c, "name"))
	}
	if len(set[0]) > 0 {
		notes = append(notes, strings.Join(set[0], ", ")+" limit for "+what+" "+Str(c, "name"))
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
				errs = checkLimitItem(errs, "Container", it, quota.Parse(Obj(res, "requests")), quota.Parse(Obj(res, "limits")))
			}
		}
	}
	if items := limitItems(lr, "Pod"); len(items) > 0 {
		reqs, lims := quota.PodSums(spec, "requests"), quota.PodSums(spec, "limits")
		for _, it := range items {
			errs = checkLimitItem(errs, "Pod", it, reqs, lims)
		}
	}
	return errs
}

// validatePVCLimits is PersistentVolumeClaimValidateLimitFunc: min and
// max of the storage request.
func validatePVCLimits(lr, pvc resource.Object) []string {
	reqs := quota.Parse(Obj(Obj(Obj(pvc, "spec"), "resources"), "requests"))
	var errs []string
	for _, it := range limitItems(lr, "PersistentVolumeClaim") {
		errs = checkLimitItem(errs, "PersistentVolumeClaim", it, reqs, nil)
	}
	return errs
}

// checkLimitItem checks one item's min, max and maxLimitRequestRatio
// (kube ranges over maps; the names are taken in order here). lims nil:
// a claim's, whose max bounds the request only (maxRequestConstraint).
func checkLimitItem(errs []string, typ string, it map[string]any, reqs, lims map[string]Quantity) []string {
	for _, bound := range []string{"min", "max", "maxLimitRequestRatio"} {
		for _, k := range Keys(Obj(it, bound)) {
			enf, _ := ParseQuantity(Obj(it, bound)[k])
			if e := limitConstraint(typ, bound, k, enf, reqs, lims); e != "" {
				errs = append(errs, e)
			}
		}
	}
	return errs
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

// limitConstraint is minConstraint, maxConstraint (maxRequestConstraint
// when lims is nil) and limitRequestRatioConstraint: "" when name is
// within the bound, kube's text otherwise.
func limitConstraint(typ, bound, name string, enf Quantity, reqs, lims map[string]Quantity) string {
	req, hasReq := reqs[name]
	lim, hasLim := lims[name]
	r, l, e := enforcedValues(req, lim, enf)
	pre := "minimum " + name + " usage per " + typ + " is " + enf.String()
	switch {
	case bound == "min" && !hasReq:
		return pre + ".  No request is specified"
	case bound == "min" && r < e:
		return pre + ", but request is " + req.String()
	case bound == "min" && hasLim && l < e:
		return pre + ", but limit is " + lim.String()
	case bound == "min":
		return ""
	case bound == "max":
		pre = "maximum" + pre[len("minimum"):]
		switch {
		case lims == nil && !hasReq:
			return pre + ".  No request is specified"
		case lims != nil && !hasLim:
			return pre + ".  No limit is specified"
		case lims != nil && l > e:
			return pre + ", but limit is " + lim.String()
		case hasReq && r > e:
			return pre + ", but request is " + req.String()
		}
		return ""
	}
	pre = name + " max limit to request ratio per " + typ + " is " + enf.String()
	if !hasReq || r == 0 {
		return pre + ", but no request is specified or request is 0"
	}
	if !hasLim || l == 0 {
		return pre + ", but no limit is specified or limit is 0"
	}
	ratio := float64(l) / float64(r)
	shown, most := ratio, float64(enf.ScaledValue(0))
	if enf.ScaledValue(0) <= maxMilliValue {
		ratio, most = ratio*1000, float64(enf.ScaledValue(-3))
	}
	if ratio > most {
		return pre + ", but provided ratio is " + strconv.FormatFloat(shown, 'f', 6, 64)
	}
	return ""
}
