// Package quota is what kube-apiserver's ResourceQuota admission plugin
// and kube-controller-manager's resourcequota controller both know about
// the objects a ResourceQuota counts (k8s.io/kubernetes pkg/quota/v1/
// evaluator/core and k8s.io/apiserver pkg/quota/v1/generic): the usage
// of one object, which of a quota's resource names it is counted under,
// and the scopes of Pods.
//
//	Usage("", "pods", {containers: [{resources: {requests: {cpu: 500m}}}]})
//	→ {pods: 1, count/pods: 1, cpu: 500m, requests.cpu: 500m}
//	Usage("apps", "deployments", d) → {count/deployments.apps: 1}
package quota

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// Resources is a resource list: resource name → quantity.
type Resources = map[string]Quantity

// Ignored are the resources quota never counts (install.ignoredResources):
// virtual ones and Events.
func Ignored(group, resource string) bool {
	return strings.Contains(" /bindings /componentstatuses /events events.k8s.io/events authentication.k8s.io/tokenreviews authentication.k8s.io/selfsubjectreviews authorization.k8s.io/subjectaccessreviews authorization.k8s.io/selfsubjectaccessreviews authorization.k8s.io/localsubjectaccessreviews authorization.k8s.io/selfsubjectrulesreviews ", " "+group+"/"+resource+" ")
}

// CountName is the object count name of a resource: count/pods,
// count/deployments.apps.
func CountName(group, resource string) string {
	if group == "" {
		return "count/" + resource
	}
	return "count/" + resource + "." + group
}

// legacy: the core resources also counted under their bare name.
func legacy(resource string) bool {
	return strings.Contains(" configmaps resourcequotas replicationcontrollers secrets ", " "+resource+" ")
}

// Usage is the object's usage (evaluator.Usage); now is the time (RFC
// 3339) a Pod's deletion grace period is judged at.
func Usage(group, resource string, obj map[string]any, now string) Resources {
	u := Resources{CountName(group, resource): One}
	if group != "" {
		return u
	}
	switch resource {
	case "pods":
		podUsage(u, obj, now)
	case "services":
		serviceUsage(u, obj)
	case "persistentvolumeclaims":
		pvcUsage(u, obj)
	default:
		if legacy(resource) {
			u[resource] = One
		}
	}
	return u
}

// Matching is the names among names that the resource's usage is counted
// under (evaluator.MatchingResources).
func Matching(group, resource string, names []string) []string {
	var out []string
	for _, n := range names {
		if matches(group, resource, n) {
			out = append(out, n)
		}
	}
	return out
}

func matches(group, resource, n string) bool {
	if n == CountName(group, resource) {
		return true
	}
	if group != "" {
		return false
	}
	switch resource {
	case "pods":
		return strings.Contains(" pods cpu memory ephemeral-storage requests.cpu requests.memory requests.ephemeral-storage limits.cpu limits.memory limits.ephemeral-storage ", " "+n+" ") ||
			strings.HasPrefix(n, "hugepages-") || strings.HasPrefix(n, "requests.hugepages-")
	case "services":
		return n == "services" || strings.HasPrefix(n, "services.") && (n == "services.loadbalancers" || n == "services.nodeports")
	case "persistentvolumeclaims":
		_, byClass, _ := strings.Cut(n, ".storageclass.storage.k8s.io/")
		return n == "persistentvolumeclaims" || n == "requests.storage" || byClass == "persistentvolumeclaims" || byClass == "requests.storage"
	}
	return legacy(resource) && n == resource
}

// HardNames are the resource names of a quota's status.hard.
func HardNames(q map[string]any) []string { return Keys(Obj(Obj(q, "status"), "hard")) }

// Applies is generic.Matches: the quota limits something the object uses
// and every scope of it matches the object (only Pods have scopes; a
// quota with scopes counts no other kind).
func Applies(q map[string]any, group, resource string, obj map[string]any, hardNames []string) bool {
	if len(Matching(group, resource, hardNames)) == 0 {
		return false
	}
	spec := Obj(q, "spec")
	sels := Objs(Obj(spec, "scopeSelector"), "matchExpressions")
	for _, s := range List(spec, "scopes") {
		sels = append(sels, map[string]any{"scopeName": s, "operator": "Exists"})
	}
	for _, sel := range sels {
		if group != "" || resource != "pods" || !podMatchesScope(sel, obj) {
			return false
		}
	}
	return true
}

func podMatchesScope(sel, pod map[string]any) bool {
	spec := Obj(pod, "spec")
	best := Str(Obj(pod, "status"), "qosClass") == "BestEffort"
	_, deadline := IntOK(spec, "activeDeadlineSeconds")
	switch Str(sel, "scopeName") {
	case "Terminating":
		return deadline
	case "NotTerminating":
		return !deadline
	case "BestEffort":
		return best
	case "NotBestEffort":
		return !best
	case "PriorityClass":
		pc := Str(spec, "priorityClassName")
		in := false
		for _, v := range List(sel, "values") {
			in = in || v == pc
		}
		switch Str(sel, "operator") {
		case "Exists":
			return pc != ""
		case "DoesNotExist":
			return pc == ""
		case "NotIn":
			return !in
		}
		return in
	case "CrossNamespacePodAffinity":
		// a pod (anti-)affinity term naming namespaces or a namespaceSelector
		aff := Obj(spec, "affinity")
		for _, kind := range []string{"podAffinity", "podAntiAffinity"} {
			a := Obj(aff, kind)
			terms := Objs(a, "requiredDuringSchedulingIgnoredDuringExecution")
			for _, w := range Objs(a, "preferredDuringSchedulingIgnoredDuringExecution") {
				terms = append(terms, Obj(w, "podAffinityTerm"))
			}
			for _, t := range terms {
				if len(List(t, "namespaces")) > 0 || t["namespaceSelector"] != nil {
					return true
				}
			}
		}
	}
	return false
}
