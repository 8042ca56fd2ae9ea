package builtin

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Table cells of the built-in kinds: what kube-apiserver's printers
// (pkg/printers/internalversion/printers.go) compute for the columns that
// no plain JSONPath gives (READY 1/2, a pod's STATUS, AGE, ...). The
// catalogue attaches each to its column (resource.PrinterColumn.Cell).

type cellFunc = func(obj resource.Object, now time.Time) any

// withCell gives a column its computed cell.
func withCell(c resource.PrinterColumn, f cellFunc) resource.PrinterColumn {
	c.Cell = f
	return c
}

func ageCell(o resource.Object, now time.Time) any {
	return sinceCell(nestedOr(o, "metadata", "creationTimestamp"), now)
}

func containersCell(o resource.Object, _ time.Time) any {
	return joinField(templateContainers(o), "name")
}
func imagesCell(o resource.Object, _ time.Time) any { return joinField(templateContainers(o), "image") }
func nodeSelectorCell(o resource.Object, _ time.Time) any {
	return mapCell(nestedOr(o, "spec", "template", "spec", "nodeSelector"))
}
func configMapData(o resource.Object, _ time.Time) any {
	return int64(lenOf(o["data"]) + lenOf(o["binaryData"]))
}
func secretData(o resource.Object, _ time.Time) any { return int64(lenOf(o["data"])) }

// podTemplateLabels is labels.FormatLabels(template.labels) of a PodTemplate.
func podTemplateLabels(o resource.Object, _ time.Time) any {
	return mapCell(nestedOr(o, "template", "metadata", "labels"))
}
func noneCell(resource.Object, time.Time) any { return "<none>" }

// cronJobSuspend is printBoolPtr(spec.suspend): a string, though the
// column's type says boolean.
func cronJobSuspend(o resource.Object, _ time.Time) any {
	switch nestedOr(o, "spec", "suspend") {
	case true:
		return "True"
	case false:
		return "False"
	}
	return "<unset>"
}
func serviceSelector(o resource.Object, _ time.Time) any {
	return mapCell(nestedOr(o, "spec", "selector"))
}
func cronJobTimezone(o resource.Object, _ time.Time) any {
	return orNone(nestedOr(o, "spec", "timeZone"))
}
func cronJobActive(o resource.Object, _ time.Time) any {
	return int64(lenOf(nestedOr(o, "status", "active")))
}

// cronJobLastSchedule is printCronJob's LAST SCHEDULE: the age of
// status.lastScheduleTime, "<none>" before the first scheduled Job.
func cronJobLastSchedule(o resource.Object, now time.Time) any {
	v := nestedOr(o, "status", "lastScheduleTime")
	if v == nil {
		return "<none>"
	}
	return sinceCell(v, now)
}
func eventLastSeen(o resource.Object, now time.Time) any  { return sinceCell(o["lastTimestamp"], now) }
func eventFirstSeen(o resource.Object, now time.Time) any { return sinceCell(o["firstTimestamp"], now) }

// eventSource is formatEventSource: "component, host", each falling back
// to reportingController / reportingInstance, host left out when empty.
func eventSource(o resource.Object, _ time.Time) any {
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

// eventSubobject is the involved object's fieldPath, empty when unset.
func eventSubobject(o resource.Object, _ time.Time) any {
	return str(mapOf(o["involvedObject"]), "fieldPath")
}

// eventCount: series.count, else count, and 1 for a singleton event of the
// events.k8s.io API (count 0).
func eventCount(o resource.Object, _ time.Time) any {
	if n, ok := jsonx.Int64(mapOf(o["series"])["count"]); ok {
		return n
	}
	if n, _ := jsonx.Int64(o["count"]); n != 0 {
		return n
	}
	return int64(1)
}

func sinceCell(v any, now time.Time) any {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t))
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
	for _, k := range keysOf(m) {
		parts = append(parts, k+"="+text(m[k]))
	}
	return strings.Join(parts, ",")
}

func templateContainers(o resource.Object) []any {
	if l, ok := nested(o, "template", "spec", "containers"); ok { // a PodTemplate
		c, _ := l.([]any)
		return c
	}
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

func selectorCell(o resource.Object, _ time.Time) any {
	sel := mapOf(nestedOr(o, "spec", "selector"))
	if sel == nil {
		return "<none>"
	}
	if s := SelectorString(sel); s != "" {
		return s
	}
	return "<none>"
}

// readyOfReplicas is "status.readyReplicas/spec.replicas", as READY prints.
func readyOfReplicas(o resource.Object, _ time.Time) any {
	r, _ := jsonx.Int64(nestedOr(o, "status", "readyReplicas"))
	t, _ := jsonx.Int64(nestedOr(o, "spec", "replicas"))
	return fmt.Sprintf("%d/%d", r, t)
}

func statusInt(f string) cellFunc {
	return func(o resource.Object, _ time.Time) any {
		n, _ := jsonx.Int64(nestedOr(o, "status", f))
		return n
	}
}

func podReady(o resource.Object, _ time.Time) any {
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

// podStatus is printPod's Status text: the phase (or status.reason),
// SchedulingGated, Init:N/M / Init:<reason> while init containers run,
// else the last container's waiting or terminated reason ("Completed",
// "ErrImagePull", "ExitCode:1"), "Running"/"NotReady" for a Completed
// container beside running ones, and "Terminating" for a pod being
// deleted that has not finished.
func podStatus(o resource.Object, _ time.Time) any {
	st := mapOf(o["status"])
	phase := str(st, "phase")
	reason := phase
	if r := str(st, "reason"); r != "" {
		reason = r
	}
	conds, _ := st["conditions"].([]any)
	initialized, readyCond := false, false
	for _, c := range conds {
		cm := mapOf(c)
		switch str(cm, "type") {
		case "PodScheduled":
			if str(cm, "reason") == "SchedulingGated" {
				reason = "SchedulingGated"
			}
		case "Initialized":
			initialized = str(cm, "status") == "True"
		case "Ready":
			readyCond = true
		}
	}
	spec := mapOf(o["spec"])
	inits, _ := spec["initContainers"].([]any)
	sidecar := map[string]bool{}
	for _, c := range inits {
		if str(mapOf(c), "restartPolicy") == "Always" {
			sidecar[str(mapOf(c), "name")] = true
		}
	}
	initializing := false
	ics, _ := st["initContainerStatuses"].([]any)
	for i, c := range ics {
		cm := mapOf(c)
		term := mapOf(nestedOr(cm, "state", "terminated"))
		wait := mapOf(nestedOr(cm, "state", "waiting"))
		started, _ := cm["started"].(bool)
		switch {
		case term != nil && intOf(term["exitCode"]) == 0:
			continue
		case sidecar[str(cm, "name")] && started:
			continue
		case term != nil:
			switch {
			case str(term, "reason") != "":
				reason = "Init:" + str(term, "reason")
			case intOf(term["signal"]) != 0:
				reason = fmt.Sprintf("Init:Signal:%d", intOf(term["signal"]))
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", intOf(term["exitCode"]))
			}
		case wait != nil && str(wait, "reason") != "" && str(wait, "reason") != "PodInitializing":
			reason = "Init:" + str(wait, "reason")
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(inits))
		}
		initializing = true
		break
	}
	if !initializing || initialized {
		hasRunning, errorReason := false, ""
		statuses, _ := st["containerStatuses"].([]any)
		for i := len(statuses) - 1; i >= 0; i-- {
			cm := mapOf(statuses[i])
			term := mapOf(nestedOr(cm, "state", "terminated"))
			wait := mapOf(nestedOr(cm, "state", "waiting"))
			ready, _ := cm["ready"].(bool)
			switch {
			case wait != nil && str(wait, "reason") != "":
				reason = str(wait, "reason")
			case term != nil:
				switch {
				case str(term, "reason") != "":
					reason = str(term, "reason")
				case intOf(term["signal"]) != 0:
					reason = fmt.Sprintf("Signal:%d", intOf(term["signal"]))
				default:
					reason = fmt.Sprintf("ExitCode:%d", intOf(term["exitCode"]))
				}
				if intOf(term["exitCode"]) != 0 {
					errorReason = reason
				}
			case ready && mapOf(nestedOr(cm, "state", "running")) != nil:
				hasRunning = true
			}
		}
		if reason == "Completed" {
			switch {
			case hasRunning && readyCond:
				reason = "Running"
			case errorReason != "":
				reason = errorReason
			case hasRunning:
				reason = "NotReady"
			}
		}
	}
	if metaStr(o, "deletionTimestamp") != "" && str(st, "reason") == "NodeLost" {
		reason = "Unknown"
	} else if metaStr(o, "deletionTimestamp") != "" && phase != "Succeeded" && phase != "Failed" {
		reason = "Terminating"
	}
	if reason == "" {
		return "Unknown"
	}
	return reason
}

// podRestarts is printPod's Restarts text: the containers' restartCount
// summed, "N (AGE ago)" after the latest lastState.terminated.finishedAt.
func podRestarts(o resource.Object, now time.Time) any {
	statuses, _ := nestedOr(o, "status", "containerStatuses").([]any)
	var n int64
	var last time.Time
	for _, s := range statuses {
		c, _ := jsonx.Int64(mapOf(s)["restartCount"])
		n += c
		fin := str(mapOf(nestedOr(mapOf(s), "lastState", "terminated")), "finishedAt")
		if t, err := time.Parse(time.RFC3339, fin); err == nil && t.After(last) {
			last = t
		}
	}
	if n != 0 && !last.IsZero() {
		return strconv.FormatInt(n, 10) + " (" + HumanDuration(now.Sub(last)) + " ago)"
	}
	return strconv.FormatInt(n, 10)
}

func serviceExternalIP(o resource.Object, _ time.Time) any {
	switch str(mapOf(o["spec"]), "type") {
	case "ExternalName":
		return str(mapOf(o["spec"]), "externalName")
	case "", "ClusterIP", "NodePort", "LoadBalancer":
	default:
		return "<unknown>"
	}
	ips := jsonx.Strings(nestedOr(o, "spec", "externalIPs"))
	for _, in := range listOf(nestedOr(o, "status", "loadBalancer", "ingress")) {
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

func servicePorts(o resource.Object, _ time.Time) any {
	var out []string
	for _, p := range listOf(nestedOr(o, "spec", "ports")) {
		pm := mapOf(p)
		port, _ := jsonx.Int64(pm["port"])
		s := fmt.Sprintf("%d", port)
		if np, ok := jsonx.Int64(pm["nodePort"]); ok && np > 0 {
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

func jobStatus(o resource.Object, _ time.Time) any {
	for _, c := range listOf(nestedOr(o, "status", "conditions")) {
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

// jobCompletions is kube's printJob COMPLETIONS: succeeded/completions, or
// for a work-queue Job (no completions) "0/1", "0/1 of 3" when parallel.
func jobCompletions(o resource.Object, _ time.Time) any {
	s, _ := jsonx.Int64(nestedOr(o, "status", "succeeded"))
	if c, ok := jsonx.Int64(nestedOr(o, "spec", "completions")); ok {
		return fmt.Sprintf("%d/%d", s, c)
	}
	if p, _ := jsonx.Int64(nestedOr(o, "spec", "parallelism")); p > 1 {
		return fmt.Sprintf("%d/1 of %d", s, p)
	}
	return fmt.Sprintf("%d/1", s)
}

// jobDuration is kube's printJob DURATION: completionTime - startTime, the
// time since startTime while the Job runs, empty before it started.
//
//	startTime 10:00:00, completionTime 10:00:03 → "3s"
func jobDuration(o resource.Object, now time.Time) any {
	start, err := time.Parse(time.RFC3339, str(mapOf(o["status"]), "startTime"))
	if err != nil {
		return ""
	}
	if end, err := time.Parse(time.RFC3339, str(mapOf(o["status"]), "completionTime")); err == nil {
		return HumanDuration(end.Sub(start))
	}
	return HumanDuration(now.Sub(start))
}

func eventObject(o resource.Object, _ time.Time) any {
	io := mapOf(o["involvedObject"])
	return strings.ToLower(str(io, "kind")) + "/" + str(io, "name")
}

// HumanDuration formats an age as kubectl does: 45s, 12m, 3h, 2d, 1y.
func HumanDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "<invalid>"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < 10*time.Minute:
		s := int(d.Seconds()) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", int(d.Minutes()))
		}
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), s)
	case d < 3*time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 8*time.Hour:
		m := int(d.Minutes()) % 60
		if m == 0 {
			return fmt.Sprintf("%dh", int(d.Hours()))
		}
		return fmt.Sprintf("%dh%dm", int(d.Hours()), m)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	case d < 8*24*time.Hour:
		h := int(d.Hours()) % 24
		if h == 0 {
			return fmt.Sprintf("%dd", int(d.Hours())/24)
		}
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, h)
	case d < 2*365*24*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours())/24)
	}
	return fmt.Sprintf("%dy", int(d.Hours())/24/365)
}

func intOf(v any) int64 { n, _ := jsonx.Int64(v); return n }
