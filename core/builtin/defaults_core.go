package builtin

import (
	"encoding/base64"

	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
)

// Defaults and create-time preparation of the core/v1 kinds other than
// pods' specs: ports of pkg/apis/core/v1/defaults.go and of the registry
// strategies (pkg/registry/core/*/strategy.go) and admission plugins a
// default cluster runs.

// preparePodCreate is the pod's Hooks.PrepareCreate: what the registry
// strategy and the default admission plugins add to a new pod.
//   - ServiceAccount admission: serviceAccountName "default" (and the
//     deprecated serviceAccount). The projected token volume it mounts is
//     not added.
//   - Priority admission, no PriorityClass objects: priority 0,
//     preemptionPolicy PreemptLowerPriority.
//   - DefaultTolerationSeconds admission: tolerate not-ready and
//     unreachable nodes for 300 s.
//   - PrepareForCreate: status {phase: Pending, qosClass: ...}, the
//     PodScheduled=False condition of a pod with scheduling gates, the
//     deprecated AppArmor annotations copied into appArmorProfile fields.
func preparePodCreate(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if absentOrEmpty(spec, "serviceAccountName") {
		spec["serviceAccountName"] = "default"
		spec["serviceAccount"] = "default"
	}
	if absentOrEmpty(spec, "priorityClassName") && spec["priority"] == nil {
		spec["priority"] = int64(0)
	}
	setPtr(spec, "preemptionPolicy", "PreemptLowerPriority")
	addDefaultTolerations(spec)
	dropDisabledPodFields(spec)
	status := map[string]any{"phase": "Pending", "qosClass": podQOS(spec)}
	obj["status"] = status
	if len(items(spec, "schedulingGates")) > 0 {
		// applySchedulingGatedCondition (the write's time: the new
		// object's creationTimestamp)
		status["conditions"] = []any{map[string]any{
			"type": "PodScheduled", "status": "False", "reason": "SchedulingGated",
			"message":       "Scheduling is blocked due to non-empty scheduling gates",
			"lastProbeTime": nil, "lastTransitionTime": child(obj, "metadata")["creationTimestamp"],
		}}
	}
	corev1.SyncAppArmorAnnotations(obj)
}

func addDefaultTolerations(spec map[string]any) {
	list, ok := spec["tolerations"].([]any)
	if !ok && spec["tolerations"] != nil {
		return
	}
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		covered := false
		for _, t := range items(spec, "tolerations") {
			// A toleration without key and operator Exists tolerates all.
			k, op, eff := str(t, "key"), str(t, "operator"), str(t, "effect")
			if (k == key || (k == "" && op == "Exists")) && (eff == "" || eff == "NoExecute") {
				covered = true
			}
		}
		if !covered {
			list = append(list, map[string]any{
				"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(300),
			})
		}
	}
	if list != nil {
		spec["tolerations"] = list
	}
}

// podQOS is the QoS class of pkg/apis/core/helper/qos: Guaranteed when
// every container sets cpu and memory limits equal to its requests,
// BestEffort when no container sets any cpu or memory request or limit,
// Burstable otherwise.
func podQOS(spec map[string]any) string {
	var cs []map[string]any
	cs = append(cs, items(spec, "initContainers")...)
	cs = append(cs, items(spec, "containers")...)
	set, guaranteed := false, true
	for _, c := range cs {
		res := child(c, "resources")
		req, lim := child(res, "requests"), child(res, "limits")
		for _, r := range []string{"cpu", "memory"} {
			if quantitySet(req[r]) || quantitySet(lim[r]) {
				set = true
			}
			if !quantitySet(lim[r]) {
				guaranteed = false
			} else if q, ok := req[r]; ok && !sameQuantity(q, lim[r]) {
				guaranteed = false
			}
		}
	}
	switch {
	case !set:
		return "BestEffort"
	case guaranteed:
		return "Guaranteed"
	}
	return "Burstable"
}

// quantitySet reports a present, non-zero quantity (a zero request counts
// as unset for QoS).
func quantitySet(v any) bool {
	switch q := v.(type) {
	case string:
		return q != "" && q != "0"
	case int64:
		return q != 0
	case float64:
		return q != 0
	}
	return false
}

// sameQuantity compares two quantities as written; "1" and 1 are equal.
// (Differently written equal amounts, "1" and "1000m", count as different:
// a simplification.)
func sameQuantity(a, b any) bool {
	return quantityText(a) == quantityText(b)
}

func quantityText(v any) string {
	switch q := v.(type) {
	case string:
		return q
	case int64, float64:
		b, _ := marshalNumber(q)
		return b
	}
	return ""
}

// defaultService is SetDefaults_Service plus what the service registry
// fills on every write for a single-stack IPv4 cluster (ipFamilyPolicy,
// ipFamilies, clusterIPs mirroring clusterIP). Cluster IPs and node ports
// are not allocated here: that needs the server's allocator state.
func defaultService(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setStr(spec, "sessionAffinity", "None")
	switch str(spec, "sessionAffinity") {
	case "None":
		delete(spec, "sessionAffinityConfig")
	case "ClientIP":
		cfg := ensure(spec, "sessionAffinityConfig")
		setPtr(ensure(cfg, "clientIP"), "timeoutSeconds", int64(10800))
	}
	setStr(spec, "type", "ClusterIP")
	typ := str(spec, "type")
	for _, p := range items(spec, "ports") {
		setStr(p, "protocol", "TCP")
		tp := p["targetPort"]
		if n, ok := num(p, "targetPort"); tp == nil || (ok && n == 0) || tp == "" {
			if port, ok := num(p, "port"); ok {
				p["targetPort"] = port
			}
		}
	}
	if typ == "NodePort" || typ == "LoadBalancer" {
		setStr(spec, "externalTrafficPolicy", "Cluster")
	}
	if typ == "NodePort" || typ == "LoadBalancer" || typ == "ClusterIP" {
		setPtr(spec, "internalTrafficPolicy", "Cluster")
	}
	if typ == "LoadBalancer" {
		setPtr(spec, "allocateLoadBalancerNodePorts", true)
	}
	st := ensure(obj, "status")
	setPtr(st, "loadBalancer", map[string]any{})
}

// defaultSecret: SetDefaults_Secret.
//
// stringData is folded into data (base64, stringData winning) as the v1 →
// internal conversion does when the request is decoded, so the stored
// object, its managedFields (f:data) and the answer never hold stringData.
func defaultSecret(obj map[string]any) {
	setStr(obj, "type", "Opaque")
	sd, ok := obj["stringData"].(map[string]any)
	if !ok {
		return
	}
	data, isMap := obj["data"].(map[string]any)
	if !isMap {
		if obj["data"] != nil {
			return // not an object: left to validation
		}
		data = map[string]any{}
	}
	for k, v := range sd {
		s, isStr := v.(string)
		if !isStr {
			return // left to validation
		}
		data[k] = base64.StdEncoding.EncodeToString([]byte(s))
	}
	if len(data) > 0 {
		obj["data"] = data
	}
	delete(obj, "stringData")
}

// defaultConfigMap has nothing to default; kept as a hook so every
// built-in kind has one place for it.
func defaultConfigMap(obj map[string]any) {}

// defaultNamespace: SetDefaults_Namespace (the kubernetes.io/metadata.name
// label) and SetDefaults_NamespaceStatus (phase Active).
func defaultNamespace(obj map[string]any) {
	meta := ensure(obj, "metadata")
	if name := str(meta, "name"); name != "" {
		if labels := ensure(meta, "labels"); labels != nil {
			labels["kubernetes.io/metadata.name"] = name
		}
	}
	setStr(ensure(obj, "status"), "phase", "Active")
	ensure(obj, "spec")
}

// prepareNamespaceCreate: a new namespace is Active and carries the
// "kubernetes" finalizer (namespace strategy PrepareForCreate).
func prepareNamespaceCreate(obj map[string]any) {
	obj["status"] = map[string]any{"phase": "Active"}
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	list, ok := spec["finalizers"].([]any)
	if !ok && spec["finalizers"] != nil {
		return
	}
	for _, f := range list {
		if f == "kubernetes" {
			return
		}
	}
	spec["finalizers"] = append(list, "kubernetes")
}

// prepareNamespaceUpdate: spec.finalizers change only through the
// finalize subresource, status only through status.
func prepareNamespaceUpdate(obj, old map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if f, ok := child(old, "spec")["finalizers"]; ok {
		spec["finalizers"] = f
	} else {
		delete(spec, "finalizers")
	}
	if st, ok := old["status"]; ok {
		obj["status"] = st
	}
}

// defaultEvent fills the fields a core/v1 Event always serialises.
func defaultEvent(obj map[string]any) {
	for _, k := range []string{"firstTimestamp", "lastTimestamp", "eventTime"} {
		if _, ok := obj[k]; !ok {
			obj[k] = nil // zero metav1.Time / MicroTime encode as null
		}
	}
}

// prepareServiceCreate is what the service REST storage fills in after the
// field manager ran (so nobody owns it): clusterIPs from clusterIP, the
// ipFamilyPolicy and the ipFamilies of a single-stack IPv4 cluster.
func prepareServiceCreate(obj map[string]any) {
	spec := child(obj, "spec")
	if spec == nil || str(spec, "type") == "ExternalName" {
		return
	}
	ip := str(spec, "clusterIP")
	if spec["clusterIPs"] == nil && ip != "" {
		spec["clusterIPs"] = []any{ip}
	}
	if spec["ipFamilyPolicy"] == nil {
		if ip == "None" && len(child(spec, "selector")) == 0 {
			spec["ipFamilyPolicy"] = "RequireDualStack"
		} else {
			spec["ipFamilyPolicy"] = "SingleStack"
		}
	}
	setPtr(spec, "ipFamilies", []any{"IPv4"})
}

// prepareServiceUpdate: an update that leaves out the allocated fields
// keeps the stored ones (the REST storage's patchAllocatedValues), then
// fills in what is still missing as on create.
func prepareServiceUpdate(obj, old map[string]any) {
	spec, ospec := child(obj, "spec"), child(old, "spec")
	if spec == nil || ospec == nil || str(spec, "type") == "ExternalName" {
		return
	}
	if str(ospec, "type") != "ExternalName" {
		for _, k := range []string{"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"} {
			if _, ok := spec[k]; !ok && ospec[k] != nil {
				spec[k] = ospec[k]
			}
		}
	}
	prepareServiceCreate(obj)
}
