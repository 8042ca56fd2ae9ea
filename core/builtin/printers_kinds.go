package builtin

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/builtin/autoscaling"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Table cells of the kinds of catalog_kinds.go, as the printers of
// pkg/printers/internalversion/printers.go compute them (the server prints
// wide: priority-1 cells are filled too).

// listWithMore is listWithMoreString: at most max items, "+ N more...".
func listWithMore(list []string, count, max int) string {
	if count > max {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:max], ","), count-max)
	}
	if len(list) == 0 {
		return "<unset>"
	}
	return strings.Join(list, ",")
}

// endpointsCell is formatEndpoints: ip:port of the first three addresses.
func endpointsCell(o resource.Object, _ time.Time) any {
	subsets := listOf(o["subsets"])
	if len(subsets) == 0 {
		return "<none>"
	}
	var list []string
	count := 0
	for _, s := range subsets {
		ss := mapOf(s)
		addrs := listOf(ss["addresses"])
		ports := listOf(ss["ports"])
		if len(ports) == 0 {
			count += len(addrs)
			for _, a := range addrs {
				if len(list) < 3 {
					list = append(list, str(mapOf(a), "ip"))
				}
			}
			continue
		}
		for _, p := range ports {
			n, _ := jsonx.Int64(mapOf(p)["port"])
			count += len(addrs)
			for _, a := range addrs {
				if len(list) < 3 {
					list = append(list, joinHostPort(str(mapOf(a), "ip"), strconv.FormatInt(n, 10)))
				}
			}
		}
	}
	ret := strings.Join(list, ",")
	if count > len(list) {
		return fmt.Sprintf("%s + %d more...", ret, count-len(list))
	}
	return ret
}

// joinHostPort is net.JoinHostPort (the net package is left out of the
// wasm build): an IPv6 host in brackets.
func joinHostPort(host, port string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}

// endpointSlicePorts is formatDiscoveryPorts.
func endpointSlicePorts(o resource.Object, _ time.Time) any {
	var list []string
	ports := listOf(o["ports"])
	for _, p := range ports {
		pm := mapOf(p)
		num := "*"
		if n, ok := jsonx.Int64(pm["port"]); ok {
			num = strconv.FormatInt(n, 10)
		} else if name, ok := pm["name"].(string); ok {
			num = name
		}
		list = append(list, num)
	}
	return listWithMore(list, len(ports), 3)
}

// endpointSliceEndpoints is formatDiscoveryEndpoints.
func endpointSliceEndpoints(o resource.Object, _ time.Time) any {
	var list []string
	for _, e := range listOf(o["endpoints"]) {
		list = append(list, jsonx.Strings(mapOf(e)["addresses"])...)
	}
	return listWithMore(list, len(list), 3)
}

// nodeStatus is the Ready condition ("Ready", "NotReady" or "Unknown"),
// then "SchedulingDisabled" for an unschedulable node.
func nodeStatus(o resource.Object, _ time.Time) any {
	status := "Unknown"
	for _, c := range listOf(nestedOr(o, "status", "conditions")) {
		cm := mapOf(c)
		if str(cm, "type") == "Ready" {
			if str(cm, "status") == "True" {
				status = "Ready"
			} else {
				status = "NotReady"
			}
		}
	}
	if b, _ := nestedOr(o, "spec", "unschedulable").(bool); b {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles is findNodeRoles: node-role.kubernetes.io/<role> labels and
// the kubernetes.io/role label.
func nodeRoles(o resource.Object, _ time.Time) any {
	roles := map[string]bool{}
	for k, v := range mapOf(nestedOr(o, "metadata", "labels")) {
		if r, ok := strings.CutPrefix(k, "node-role.kubernetes.io/"); ok && r != "" {
			roles[r] = true
		} else if k == "kubernetes.io/role" && text(v) != "" {
			roles[text(v)] = true
		}
	}
	if len(roles) == 0 {
		return "<none>"
	}
	out := make([]string, 0, len(roles))
	for r := range roles {
		out = append(out, r)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func nodeInfoOrUnknown(o resource.Object, f string) any {
	info := mapOf(nestedOr(o, "status", "nodeInfo"))
	v := str(info, f)
	if v == "" {
		v = "<unknown>"
	}
	if a := str(info, "architecture"); f == "kernelVersion" && a != "" {
		v += " (" + a + ")"
	}
	return v
}

func nodeAddress(o resource.Object, typ string) any {
	for _, a := range listOf(nestedOr(o, "status", "addresses")) {
		if am := mapOf(a); str(am, "type") == typ {
			return str(am, "address")
		}
	}
	return "<none>"
}

// resourceQuotaCell is one of printResourceQuota's columns: "name:
// used/hard" of status.hard, limits.* in Limit, the rest in Request.
func resourceQuotaCell(o resource.Object, limits bool) any {
	hard := mapOf(nestedOr(o, "status", "hard"))
	used := mapOf(nestedOr(o, "status", "used"))
	var parts []string
	for _, k := range keysOf(hard) {
		if strings.HasPrefix(k, "limits.") != limits {
			continue
		}
		u := quantityText(used[k])
		if u == "" {
			u = "0"
		}
		parts = append(parts, fmt.Sprintf("%s: %s/%s", k, u, quantityText(hard[k])))
	}
	return strings.Join(parts, ", ")
}

// accessModes is GetAccessModesAsString.
func accessModes(v any) string {
	have := map[string]bool{}
	for _, m := range jsonx.Strings(v) {
		have[m] = true
	}
	var out []string
	for _, m := range [][2]string{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		if have[m[0]] {
			out = append(out, m[1])
		}
	}
	return strings.Join(out, ",")
}

// volumePhase is status.phase, "Terminating" once deletion started.
func volumePhase(o resource.Object, _ time.Time) any {
	if metaStr(o, "deletionTimestamp") != "" {
		return "Terminating"
	}
	return str(mapOf(o["status"]), "phase")
}

func specOrUnset(o resource.Object, f string) any {
	if s, ok := mapOf(o["spec"])[f].(string); ok {
		return s
	}
	return "<unset>"
}

// storageClassOf is GetPersistentVolume(Claim)Class: spec.storageClassName,
// else the beta annotation.
func storageClassOf(o resource.Object, _ time.Time) any {
	if s, ok := mapOf(nestedOr(o, "metadata", "annotations"))["volume.beta.kubernetes.io/storage-class"].(string); ok {
		return s
	}
	return str(mapOf(o["spec"]), "storageClassName")
}

func pvCapacity(o resource.Object, _ time.Time) any {
	return quantityOr0(nestedOr(o, "spec", "capacity", "storage"))
}
func pvAccessModes(o resource.Object, _ time.Time) any {
	return accessModes(nestedOr(o, "spec", "accessModes"))
}
func pvClaim(o resource.Object, _ time.Time) any {
	ref := mapOf(nestedOr(o, "spec", "claimRef"))
	if ref == nil {
		return ""
	}
	return str(ref, "namespace") + "/" + str(ref, "name")
}

// pvcCapacity and pvcAccessModes are the bound volume's (empty while the
// claim names no volume).
func pvcCapacity(o resource.Object, _ time.Time) any {
	if str(mapOf(o["spec"]), "volumeName") == "" {
		return ""
	}
	return quantityOr0(nestedOr(o, "status", "capacity", "storage"))
}
func pvcAccessModes(o resource.Object, _ time.Time) any {
	if str(mapOf(o["spec"]), "volumeName") == "" {
		return ""
	}
	return accessModes(nestedOr(o, "status", "accessModes"))
}

func storageClassReclaim(o resource.Object, _ time.Time) any {
	if s, ok := o["reclaimPolicy"].(string); ok {
		return s
	}
	return "Delete"
}
func storageClassBinding(o resource.Object, _ time.Time) any {
	if s, ok := o["volumeBindingMode"].(string); ok {
		return s
	}
	return "Immediate"
}
func storageClassExpansion(o resource.Object, _ time.Time) any {
	b, _ := o["allowVolumeExpansion"].(bool)
	return b
}

// ingressHosts is formatHosts.
func ingressHosts(o resource.Object, _ time.Time) any {
	rules := listOf(nestedOr(o, "spec", "rules"))
	var list []string
	for _, r := range rules {
		if len(list) == 3 {
			break
		}
		if h := str(mapOf(r), "host"); h != "" {
			list = append(list, h)
		}
	}
	if len(list) == 0 {
		return "*"
	}
	if len(list) == 3 && len(rules) > 3 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list, ","), len(rules)-3)
	}
	return strings.Join(list, ",")
}

// ingressAddress is ingressLoadBalancerStatusStringer, wide: the sorted
// set of IPs (or hostnames).
func ingressAddress(o resource.Object, _ time.Time) any {
	set := map[string]bool{}
	for _, i := range listOf(nestedOr(o, "status", "loadBalancer", "ingress")) {
		im := mapOf(i)
		if ip := str(im, "ip"); ip != "" {
			set[ip] = true
		} else if h := str(im, "hostname"); h != "" {
			set[h] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func ingressPorts(o resource.Object, _ time.Time) any {
	if len(listOf(nestedOr(o, "spec", "tls"))) != 0 {
		return "80, 443"
	}
	return "80"
}

// ingressClassDisplayName marks the default class (the
// ingressclass.kubernetes.io/is-default-class annotation "true").
func ingressClassDisplayName(o resource.Object, _ time.Time) any {
	name := metaStr(o, "name")
	if mapOf(nestedOr(o, "metadata", "annotations"))["ingressclass.kubernetes.io/is-default-class"] == "true" {
		name += " (default)"
	}
	return name
}

func ingressClassParameters(o resource.Object, _ time.Time) any {
	p := mapOf(nestedOr(o, "spec", "parameters"))
	if p == nil {
		return "<none>"
	}
	s := str(p, "kind")
	if g, ok := p["apiGroup"].(string); ok {
		s += "." + g
	}
	return s + "/" + str(p, "name")
}

func podSelectorCell(o resource.Object, _ time.Time) any {
	if s := SelectorString(mapOf(nestedOr(o, "spec", "podSelector"))); s != "" {
		return s
	}
	return "<none>"
}

func hpaReference(o resource.Object, _ time.Time) any {
	ref := mapOf(nestedOr(o, "spec", "scaleTargetRef"))
	return str(ref, "kind") + "/" + str(ref, "name")
}

func hpaMinPods(o resource.Object, _ time.Time) any {
	if n, ok := jsonx.Int64(nestedOr(o, "spec", "minReplicas")); ok {
		return strconv.FormatInt(n, 10)
	}
	return "<unset>"
}

// hpaTargets is formatHPAMetrics: "current/target" per metric, at most two.
// hpaV1Targets is TARGETS of an autoscaling/v1 object: the printer sees
// the internal object, the metrics of the v2 form.
func hpaV1Targets(o resource.Object, now time.Time) any {
	return hpaTargets(autoscaling.HPAToV2(o), now)
}

func hpaTargets(o resource.Object, _ time.Time) any {
	specs := listOf(nestedOr(o, "spec", "metrics"))
	if len(specs) == 0 {
		return "<none>"
	}
	statuses := listOf(nestedOr(o, "status", "currentMetrics"))
	var list []string
	for i, s := range specs {
		sm := mapOf(s)
		typ := str(sm, "type")
		key := map[string]string{"External": "external", "Pods": "pods", "Object": "object", "Resource": "resource", "ContainerResource": "containerResource"}[typ]
		if key == "" {
			list = append(list, "<unknown type>")
			continue
		}
		src := mapOf(sm[key])
		target := mapOf(src["target"])
		var cur map[string]any
		if i < len(statuses) {
			cur = mapOf(mapOf(mapOf(statuses[i])[key])["current"])
		}
		current := "<unknown>"
		switch {
		case typ == "Pods" || target["averageValue"] != nil:
			if cur != nil && (typ == "Pods" || cur["averageValue"] != nil) {
				current = quantityOr0(cur["averageValue"])
			}
			s := current + "/" + quantityOr0(target["averageValue"])
			if typ == "External" || typ == "Object" {
				s += " (avg)"
			}
			if typ == "Resource" || typ == "ContainerResource" {
				s = str(src, "name") + ": " + s
			}
			list = append(list, s)
		case typ == "External" || typ == "Object":
			if cur != nil {
				current = quantityOr0(cur["value"])
			}
			list = append(list, current+"/"+quantityOr0(target["value"]))
		default:
			if n, ok := jsonx.Int64(cur["averageUtilization"]); ok {
				current = fmt.Sprintf("%d%%", n)
			}
			t := "<auto>"
			if n, ok := jsonx.Int64(target["averageUtilization"]); ok {
				t = fmt.Sprintf("%d%%", n)
			}
			list = append(list, str(src, "name")+": "+current+"/"+t)
		}
	}
	if len(list) > 2 {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:2], ", "), len(list)-2)
	}
	return strings.Join(list, ", ")
}

// quantityOr0 is a Quantity's String(), "0" for the zero quantity.
func quantityOr0(v any) string {
	if s := quantityText(v); s != "" {
		return s
	}
	return "0"
}

func intAt(o resource.Object, path ...string) any {
	n, _ := jsonx.Int64(nestedOr(o, path...))
	return n
}

func intOrNA(o resource.Object, f string) any {
	if v, ok := mapOf(o["spec"])[f]; ok && v != nil {
		return text(v)
	}
	return "N/A"
}

func priorityPreemption(o resource.Object, _ time.Time) any { return str(o, "preemptionPolicy") }

// controllerRevisionController is the controller owner as
// "<kind>.<group>/<name>" in lower case, "<none>" without one.
func controllerRevisionController(o resource.Object, _ time.Time) any {
	for _, r := range listOf(nestedOr(o, "metadata", "ownerReferences")) {
		rm := mapOf(r)
		if c, _ := rm["controller"].(bool); !c {
			continue
		}
		group, _, ok := strings.Cut(str(rm, "apiVersion"), "/")
		if !ok {
			group = ""
		}
		kind := str(rm, "kind")
		if kind == "" && group == "" {
			return str(rm, "name")
		}
		gk := kind
		if group != "" {
			gk += "." + group
		}
		return strings.ToLower(gk) + "/" + str(rm, "name")
	}
	return "<none>"
}

func leaseHolder(o resource.Object, _ time.Time) any {
	return str(mapOf(o["spec"]), "holderIdentity")
}

func roleRefCell(o resource.Object, _ time.Time) any {
	ref := mapOf(o["roleRef"])
	return str(ref, "kind") + "/" + str(ref, "name")
}

// subjectsCell is one list of rbac.SubjectsStrings: "User", "Group" or
// "ServiceAccount" ("namespace/name") subjects, joined by ", ".
func subjectsCell(o resource.Object, kind string) any {
	var out []string
	for _, s := range listOf(o["subjects"]) {
		sm := mapOf(s)
		if str(sm, "kind") != kind {
			continue
		}
		if kind == "ServiceAccount" {
			out = append(out, str(sm, "namespace")+"/"+str(sm, "name"))
		} else {
			out = append(out, str(sm, "name"))
		}
	}
	return strings.Join(out, ", ")
}

// Events of events.k8s.io/v1 print as core/v1 Events do (the server
// converts them to the one internal Event): the cells read the
// events.k8s.io field names.
func eventsV1LastSeen(o resource.Object, now time.Time) any {
	if s, ok := nested(o, "series", "lastObservedTime"); ok {
		return sinceCell(s, now)
	}
	if s, ok := o["deprecatedLastTimestamp"].(string); ok && s != "" {
		return sinceCell(s, now)
	}
	return sinceCell(o["eventTime"], now)
}
func eventsV1FirstSeen(o resource.Object, now time.Time) any {
	if s, ok := o["deprecatedFirstTimestamp"].(string); ok && s != "" {
		return sinceCell(s, now)
	}
	return sinceCell(o["eventTime"], now)
}
func eventsV1Object(o resource.Object, _ time.Time) any {
	r := mapOf(o["regarding"])
	return strings.ToLower(str(r, "kind")) + "/" + str(r, "name")
}
func eventsV1Subobject(o resource.Object, _ time.Time) any {
	return str(mapOf(o["regarding"]), "fieldPath")
}
func eventsV1Source(o resource.Object, _ time.Time) any {
	src := mapOf(o["deprecatedSource"])
	comp, host := str(src, "component"), str(src, "host")
	if comp == "" {
		comp = str(o, "reportingController")
	}
	if host == "" {
		host = str(o, "reportingInstance")
	}
	if host == "" {
		return comp
	}
	return comp + ", " + host
}
func eventsV1Count(o resource.Object, _ time.Time) any {
	if n, ok := jsonx.Int64(mapOf(o["series"])["count"]); ok {
		return n
	}
	if n, _ := jsonx.Int64(o["deprecatedCount"]); n != 0 {
		return n
	}
	return int64(1)
}

// The cells above bound to their arguments, as named functions so that
// the catalogue stays static data.

func nodeKubeletVersion(o resource.Object, _ time.Time) any {
	return str(mapOf(nestedOr(o, "status", "nodeInfo")), "kubeletVersion")
}
func nodeInternalIP(o resource.Object, _ time.Time) any { return nodeAddress(o, "InternalIP") }
func nodeExternalIP(o resource.Object, _ time.Time) any { return nodeAddress(o, "ExternalIP") }
func nodeOSImage(o resource.Object, _ time.Time) any    { return nodeInfoOrUnknown(o, "osImage") }
func nodeKernelVersion(o resource.Object, _ time.Time) any {
	return nodeInfoOrUnknown(o, "kernelVersion")
}
func nodeContainerRuntime(o resource.Object, _ time.Time) any {
	return nodeInfoOrUnknown(o, "containerRuntimeVersion")
}
func quotaRequest(o resource.Object, _ time.Time) any { return resourceQuotaCell(o, false) }
func quotaLimit(o resource.Object, _ time.Time) any   { return resourceQuotaCell(o, true) }
func volumeAttributesClass(o resource.Object, _ time.Time) any {
	return specOrUnset(o, "volumeAttributesClassName")
}
func volumeModeCell(o resource.Object, _ time.Time) any    { return specOrUnset(o, "volumeMode") }
func hpaReplicas(o resource.Object, _ time.Time) any       { return intAt(o, "status", "currentReplicas") }
func pdbMinAvailable(o resource.Object, _ time.Time) any   { return intOrNA(o, "minAvailable") }
func pdbMaxUnavailable(o resource.Object, _ time.Time) any { return intOrNA(o, "maxUnavailable") }
func subjectUsers(o resource.Object, _ time.Time) any      { return subjectsCell(o, "User") }
func subjectGroups(o resource.Object, _ time.Time) any     { return subjectsCell(o, "Group") }
func subjectServiceAccounts(o resource.Object, _ time.Time) any {
	return subjectsCell(o, "ServiceAccount")
}

// defaultEventsV1 fills the fields an events.k8s.io/v1 Event always
// serialises (the real server answers "deprecatedSource": {} and null
// deprecated timestamps for an Event created without them).
func defaultEventsV1(obj map[string]any) {
	for _, k := range []string{"eventTime", "deprecatedFirstTimestamp", "deprecatedLastTimestamp"} {
		if _, ok := obj[k]; !ok {
			obj[k] = nil // zero metav1.Time / MicroTime encode as null
		}
	}
	if _, ok := obj["deprecatedSource"]; !ok {
		obj["deprecatedSource"] = map[string]any{}
	}
}

// pvcVolume is spec.volumeName as printPersistentVolumeClaim prints it:
// empty, not <none>, before the claim is bound.
func pvcVolume(o resource.Object, _ time.Time) any { return str(mapOf(o["spec"]), "volumeName") }
