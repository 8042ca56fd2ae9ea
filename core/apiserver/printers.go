package apiserver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Built-in Table printers: the cells kube-apiserver's printers compute for
// columns that no plain JSONPath gives (READY 1/2, pod STATUS, AGE, ...).
// Columns with a JSONPath read it; integers that are missing print as 0.

type cellFunc func(obj object, now time.Time) any

var builtinCells = map[string]cellFunc{
	"*/Age":        func(o object, now time.Time) any { return sinceCell(meta(o)["creationTimestamp"], now) },
	"*/Containers": func(o object, _ time.Time) any { return joinField(templateContainers(o), "name") },
	"*/Images":     func(o object, _ time.Time) any { return joinField(templateContainers(o), "image") },
	"*/Selector":   selectorCell,
	"*/Node Selector": func(o object, _ time.Time) any {
		return mapCell(nestedOr(o, "spec", "template", "spec", "nodeSelector"))
	},
	"ConfigMap/Data":         func(o object, _ time.Time) any { return int64(lenOf(o["data"]) + lenOf(o["binaryData"])) },
	"Secret/Data":            func(o object, _ time.Time) any { return int64(lenOf(o["data"])) },
	"ServiceAccount/Secrets": func(o object, _ time.Time) any { return int64(lenOf(o["secrets"])) },
	"Deployment/Ready":       readyOfReplicas,
	"StatefulSet/Ready":      readyOfReplicas,
	"Deployment/Up-to-date":  statusInt("updatedReplicas"),
	"Deployment/Available":   statusInt("availableReplicas"),
	"Pod/Ready":              podReady,
	"Pod/Status":             podStatus,
	"Pod/Restarts":           podRestarts,
	"Pod/Readiness Gates":    func(o object, _ time.Time) any { return "<none>" },
	"Service/External-IP":    serviceExternalIP,
	"Service/Port(s)":        servicePorts,
	"Service/Selector":       func(o object, _ time.Time) any { return mapCell(nestedOr(o, "spec", "selector")) },
	"Job/Status":             jobStatus,
	"Job/Completions":        jobCompletions,
	"Job/Duration":           func(o object, now time.Time) any { return "" },
	"CronJob/Timezone":       func(o object, _ time.Time) any { return orNone(nestedOr(o, "spec", "timeZone")) },
	"CronJob/Active":         func(o object, _ time.Time) any { return int64(lenOf(nestedOr(o, "status", "active"))) },
	"CronJob/Last Schedule":  func(o object, now time.Time) any { return sinceCell(nestedOr(o, "status", "lastScheduleTime"), now) },
	"Event/Last Seen":        func(o object, now time.Time) any { return sinceCell(o["lastTimestamp"], now) },
	"Event/First Seen":       func(o object, now time.Time) any { return sinceCell(o["firstTimestamp"], now) },
	"Event/Object":           eventObject,
	"Event/Source":           eventSource,
	"Event/Subobject":        func(o object, _ time.Time) any { return str(mapOf(o["involvedObject"]), "fieldPath") },
	"Event/Count":            eventCount,
}

// builtinCell computes one cell of a built-in's Table row.
func builtinCell(res *resource.Resource, c resource.PrinterColumn, obj object, now time.Time) any {
	if f, ok := builtinCells[res.Kind+"/"+c.Name]; ok {
		return f(obj, now)
	}
	if f, ok := builtinCells["*/"+c.Name]; ok {
		return f(obj, now)
	}
	if c.JSONPath == "" {
		return "<none>"
	}
	v, ok := nested(obj, jsonPathFields(c.JSONPath)...)
	if !ok || v == nil {
		if c.Type == "integer" {
			return int64(0)
		}
		if c.Type == "boolean" {
			return false
		}
		return "<none>"
	}
	return v
}

func sinceCell(v any, now time.Time) any {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return "<unknown>"
	}
	return humanDuration(now.Sub(t))
}

func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }

func lenOf(v any) int {
	switch t := v.(type) {
	case map[string]any:
		return len(t)
	case []any:
		return len(t)
	}
	return 0
}

func orNone(v any) any {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return "<none>"
}

func mapCell(v any) any {
	m := mapOf(v)
	if len(m) == 0 {
		return "<none>"
	}
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+toString(m[k]))
	}
	return strings.Join(parts, ",")
}

func templateContainers(o object) []any {
	if l, ok := nested(o, "spec", "template", "spec", "containers"); ok {
		c, _ := l.([]any)
		return c
	}
	if l, ok := nested(o, "spec", "jobTemplate", "spec", "template", "spec", "containers"); ok {
		c, _ := l.([]any)
		return c
	}
	return nil
}

func joinField(items []any, f string) any {
	var out []string
	for _, it := range items {
		out = append(out, str(mapOf(it), f))
	}
	return strings.Join(out, ",")
}

func selectorCell(o object, _ time.Time) any {
	sel := mapOf(nestedOr(o, "spec", "selector"))
	if sel == nil {
		return "<none>"
	}
	if s := selectorString(sel); s != "" {
		return s
	}
	return "<none>"
}

// readyOfReplicas is "status.readyReplicas/spec.replicas", as READY prints.
func readyOfReplicas(o object, _ time.Time) any {
	r, _ := int64Of(nestedOr(o, "status", "readyReplicas"))
	t, _ := int64Of(nestedOr(o, "spec", "replicas"))
	return fmt.Sprintf("%d/%d", r, t)
}

func statusInt(f string) cellFunc {
	return func(o object, _ time.Time) any {
		n, _ := int64Of(nestedOr(o, "status", f))
		return n
	}
}

func podReady(o object, _ time.Time) any {
	specs, _ := nestedOr(o, "spec", "containers").([]any)
	statuses, _ := nestedOr(o, "status", "containerStatuses").([]any)
	ready := 0
	for _, s := range statuses {
		if b, _ := mapOf(s)["ready"].(bool); b {
			ready++
		}
	}
	return fmt.Sprintf("%d/%d", ready, len(specs))
}

func podStatus(o object, _ time.Time) any {
	if metaStr(o, "deletionTimestamp") != "" {
		return "Terminating"
	}
	if r := str(mapOf(o["status"]), "reason"); r != "" {
		return r
	}
	statuses, _ := nestedOr(o, "status", "containerStatuses").([]any)
	for _, s := range statuses {
		if w := mapOf(nestedOr(mapOf(s), "state", "waiting")); w != nil && str(w, "reason") != "" {
			return str(w, "reason")
		}
	}
	if p := str(mapOf(o["status"]), "phase"); p != "" {
		return p
	}
	return "Unknown"
}

// podRestarts is printPod's Restarts text: the containers' restartCount
// summed, "N (AGE ago)" after the latest lastState.terminated.finishedAt.
func podRestarts(o object, now time.Time) any {
	statuses, _ := nestedOr(o, "status", "containerStatuses").([]any)
	var n int64
	var last time.Time
	for _, s := range statuses {
		c, _ := int64Of(mapOf(s)["restartCount"])
		n += c
		fin := str(mapOf(nestedOr(mapOf(s), "lastState", "terminated")), "finishedAt")
		if t, err := time.Parse(time.RFC3339, fin); err == nil && t.After(last) {
			last = t
		}
	}
	if n != 0 && !last.IsZero() {
		return strconv.FormatInt(n, 10) + " (" + humanDuration(now.Sub(last)) + " ago)"
	}
	return strconv.FormatInt(n, 10)
}

func serviceExternalIP(o object, _ time.Time) any {
	switch str(mapOf(o["spec"]), "type") {
	case "ExternalName":
		return str(mapOf(o["spec"]), "externalName")
	case "", "ClusterIP", "NodePort", "LoadBalancer":
	default:
		return "<unknown>"
	}
	ips := stringSlice(nestedOr(o, "spec", "externalIPs"))
	for _, in := range asList(nestedOr(o, "status", "loadBalancer", "ingress")) {
		if ip := str(mapOf(in), "ip"); ip != "" {
			ips = append(ips, ip)
		}
	}
	if len(ips) > 0 {
		return strings.Join(ips, ",")
	}
	if str(mapOf(o["spec"]), "type") == "LoadBalancer" {
		return "<pending>"
	}
	return "<none>"
}

func asList(v any) []any { l, _ := v.([]any); return l }

func servicePorts(o object, _ time.Time) any {
	var out []string
	for _, p := range asList(nestedOr(o, "spec", "ports")) {
		pm := mapOf(p)
		port, _ := int64Of(pm["port"])
		s := fmt.Sprintf("%d", port)
		if np, ok := int64Of(pm["nodePort"]); ok && np > 0 {
			s += fmt.Sprintf(":%d", np)
		}
		proto := str(pm, "protocol")
		if proto == "" {
			proto = "TCP"
		}
		out = append(out, s+"/"+proto)
	}
	if len(out) == 0 {
		return "<none>"
	}
	return strings.Join(out, ",")
}

func jobStatus(o object, _ time.Time) any {
	for _, c := range asList(nestedOr(o, "status", "conditions")) {
		cm := mapOf(c)
		if str(cm, "status") == "True" {
			switch str(cm, "type") {
			case "Complete":
				return "Complete"
			case "Failed":
				return "Failed"
			case "Suspended":
				return "Suspended"
			}
		}
	}
	return "Running"
}

func jobCompletions(o object, _ time.Time) any {
	s, _ := int64Of(nestedOr(o, "status", "succeeded"))
	if c, ok := int64Of(nestedOr(o, "spec", "completions")); ok {
		return fmt.Sprintf("%d/%d", s, c)
	}
	return fmt.Sprintf("%d/1 of %d", s, 1)
}

func eventObject(o object, _ time.Time) any {
	io := mapOf(o["involvedObject"])
	return strings.ToLower(str(io, "kind")) + "/" + str(io, "name")
}

// eventSource is formatEventSource: "component, host", each falling back
// to reportingController / reportingInstance, host left out when empty.
func eventSource(o object, _ time.Time) any {
	src := mapOf(o["source"])
	first := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	comp := first(str(src, "component"), str(o, "reportingController"))
	host := first(str(src, "host"), str(o, "reportingInstance"))
	if host == "" {
		return comp
	}
	return comp + ", " + host
}

// eventCount: series.count, else count, and 1 for a singleton event of the
// events.k8s.io API (count 0).
func eventCount(o object, _ time.Time) any {
	if n, ok := int64Of(mapOf(o["series"])["count"]); ok {
		return n
	}
	if n, _ := int64Of(o["count"]); n != 0 {
		return n
	}
	return int64(1)
}
