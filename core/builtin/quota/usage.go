package quota

import (
	"sort"
	"strconv"
	"strings"
	"time"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// One and Zero are the quantities 1 and 0, made from integers: parsing
// "1" at init compiled math/big's string scanning on every start under
// WebAssembly (docs/bench.md "Start-up: nothing compiled that the first
// answer does not run").
var One, Zero = intQuantity(1), intQuantity(0)

func intQuantity(n int64) Quantity {
	q, _ := ParseQuantity(n)
	return q
}

func quantity(s string) Quantity {
	q, _ := ParseQuantity(s)
	return q
}

// podUsage is PodUsageFunc: count/pods always; pods and the compute
// resources while the pod counts (QuotaV1Pod: not Succeeded or Failed,
// not past its deletion grace period at now).
func podUsage(u Resources, pod map[string]any, now string) {
	switch Str(Obj(pod, "status"), "phase") {
	case "Succeeded", "Failed":
		return
	}
	m := Obj(pod, "metadata")
	del, err := time.Parse(time.RFC3339, Str(m, "deletionTimestamp"))
	grace, ok := IntOK(m, "deletionGracePeriodSeconds")
	if t, err2 := time.Parse(time.RFC3339, now); err == nil && ok && err2 == nil && t.After(del.Add(time.Duration(grace)*time.Second)) {
		return
	}
	spec := Obj(pod, "spec")
	reqs, lims := PodSums(spec, "requests"), PodSums(spec, "limits")
	u["pods"] = One
	for r, q := range reqs {
		if r == "cpu" || r == "memory" || r == "ephemeral-storage" || strings.HasPrefix(r, "hugepages-") {
			u[r], u["requests."+r] = q, q
		}
	}
	for _, r := range []string{"cpu", "memory", "ephemeral-storage"} {
		if q, ok := lims[r]; ok {
			u["limits."+r] = q
		}
	}
}

// PodSums is resourcehelper.PodRequests / PodLimits (key "requests" or
// "limits"): the containers' sum, or the largest init container's (with
// the restartable ones started before it) if more, plus spec.overhead.
// E.g. containers of 600m and 600m cpu limits → {cpu: 1200m}.
func PodSums(spec map[string]any, key string) Resources {
	sum, sidecars, inits := Resources{}, Resources{}, Resources{}
	for _, c := range Objs(spec, "containers") {
		Add(sum, Parse(Obj(Obj(c, "resources"), key)))
	}
	for _, c := range Objs(spec, "initContainers") {
		r := Parse(Obj(Obj(c, "resources"), key))
		if Str(c, "restartPolicy") == "Always" {
			Add(sum, r)
			Add(sidecars, r)
			r = Add(Resources{}, sidecars)
		} else {
			Add(r, sidecars)
		}
		max(inits, r)
	}
	max(sum, inits)
	return Add(sum, Parse(Obj(spec, "overhead")))
}

func max(to, from Resources) {
	for k, v := range from {
		if cur, ok := to[k]; !ok || v.Cmp(cur) > 0 {
			to[k] = v
		}
	}
}

func serviceUsage(u Resources, svc map[string]any) {
	spec := Obj(svc, "spec")
	u["services"], u["services.loadbalancers"], u["services.nodeports"] = One, Zero, Zero
	ports := len(List(spec, "ports"))
	switch Str(spec, "type") {
	case "LoadBalancer":
		u["services.loadbalancers"] = One
		if v, ok := spec["allocateLoadBalancerNodePorts"].(bool); ok && !v {
			ports = 0
			for _, p := range Objs(spec, "ports") {
				if n, _ := IntOK(p, "nodePort"); n != 0 {
					ports++
				}
			}
		}
		fallthrough
	case "NodePort":
		u["services.nodeports"] = quantity(strconv.Itoa(ports))
	}
}

// pvcUsage: the claim, its storage request (or allocation if more), and
// both again per storage class (<class>.storageclass.storage.k8s.io/…).
func pvcUsage(u Resources, pvc map[string]any) {
	spec := Obj(pvc, "spec")
	class := Str(spec, "storageClassName")
	if class == "" {
		class = Str(Obj(Obj(pvc, "metadata"), "annotations"), "volume.beta.kubernetes.io/storage-class")
	}
	u["persistentvolumeclaims"] = One
	req, ok := ParseQuantity(Obj(Obj(spec, "resources"), "requests")["storage"])
	if alloc, ok2 := ParseQuantity(Obj(Obj(pvc, "status"), "allocatedResources")["storage"]); ok2 && (!ok || alloc.Cmp(req) > 0) {
		req, ok = alloc, true
	}
	if class != "" {
		u[class+".storageclass.storage.k8s.io/persistentvolumeclaims"] = One
	}
	if ok {
		u["requests.storage"] = req
		if class != "" {
			u[class+".storageclass.storage.k8s.io/requests.storage"] = req
		}
	}
}

// Constraints is the pod evaluator's Constraints: each container must set
// the cpu and memory requests and limits the quota limits. "" when it does.
//
//	"must specify limits.cpu for: app,side; requests.cpu for: app"
func Constraints(group, resource string, required []string, obj map[string]any) string {
	if group != "" || resource != "pods" {
		return ""
	}
	var parts []string
	sort.Strings(required)
	for _, r := range required {
		key, name := "requests", r
		if k, n, ok := strings.Cut(r, "."); ok {
			key, name = k, n
		}
		if name != "cpu" && name != "memory" {
			continue
		}
		var missing []string
		for _, c := range append(Objs(Obj(obj, "spec"), "containers"), Objs(Obj(obj, "spec"), "initContainers")...) {
			if _, ok := Obj(Obj(c, "resources"), key)[name]; !ok {
				missing = append(missing, Str(c, "name"))
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			parts = append(parts, r+" for: "+strings.Join(missing, ","))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "must specify " + strings.Join(parts, "; ")
}
