package controllers

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// The Endpoints controller (pkg/controller/endpoint). For every Service
// with a selector (not ExternalName) it keeps an Endpoints object of the
// same name: the Pods matching the selector that have an IP and are not
// terminal (nor being deleted, unless publishNotReadyAddresses), ready ones
// under addresses, the others under notReadyAddresses, each port's
// targetPort resolved against the Pod (a number as is, a name through the
// containers' named ports of that protocol; a Pod without it is left out of
// that port). Labels: the Service's, plus service.kubernetes.io/headless
// when it has no cluster IP, plus endpoints.kubernetes.io/managed-by:
// endpoint-controller; the annotation
// endpoints.kubernetes.io/last-change-trigger-time is the earliest change
// (Service creation, a Pod's Ready transition) not yet reflected.
//
// Example: Service web (selector app=web, port 80 → targetPort "http"),
// Pod web-1 (app=web, Ready, 10.244.0.5, container port http 8080) →
// Endpoints web {subsets: [{addresses: [{ip: 10.244.0.5, targetRef:
// {kind: Pod, namespace: default, name: web-1, uid: …}}], ports: [{port:
// 8080, protocol: TCP}]}]}.
//
// Differences: subsets with several ports or address sets are ordered by
// name/port and IP, not by the real RepackSubsets' hash order; nodeName is
// written only when the Pod has one (a Pod with an IP always has one on a
// cluster).

const (
	endpointsManagedBy     = "endpoints.kubernetes.io/managed-by"
	endpointController     = "endpoint-controller"
	lastChangeTriggerTime  = "endpoints.kubernetes.io/last-change-trigger-time"
	headlessServiceLabel   = "service.kubernetes.io/headless"
	endpointsOverCapacity  = "endpoints.kubernetes.io/over-capacity"
	maxEndpointsPerSubsets = 1000
)

var (
	kServices  = kindInfo{"", "v1", "services", "Service", true}
	kEndpoints = kindInfo{"", "v1", "endpoints", "Endpoints", true}
)

// syncService runs both controllers that follow a Service.
func (m *Manager) syncService(svc obj) error {
	err := m.syncEndpoints(svc)
	if err2 := m.syncEndpointSlices(svc); err == nil {
		err = err2
	}
	return err
}

// servicePods returns the Pods a Service selects, or ok false when the
// Service gets no endpoints from the controllers.
func (m *Manager) servicePods(svc obj) ([]obj, bool) {
	spec := child(svc, "spec")
	sel, hasSel := spec["selector"].(map[string]any)
	if str(spec, "type") == "ExternalName" || !hasSel {
		return nil, false
	}
	var pods []obj
	for _, s := range m.listKind(kPods, namespace(svc), nil) {
		labels := strMap(s.o, "metadata", "labels")
		match := true
		for k, v := range sel {
			if vs, _ := v.(string); labels[k] != vs {
				match = false
				break
			}
		}
		if match {
			pods = append(pods, s.o)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return name(pods[i]) < name(pods[j]) })
	return pods, true
}

// shouldPodBeInEndpoints: not terminal, has an IP, and not being deleted
// unless includeTerminating.
func shouldPodBeInEndpoints(p obj, includeTerminating bool) bool {
	if terminal(p) {
		return false
	}
	if str(p, "status", "podIP") == "" && len(list(p, "status", "podIPs")) == 0 {
		return false
	}
	return includeTerminating || !deleting(p)
}

// podIPOf returns the Pod's first IP of the family (IPv6 when v6).
func podIPOf(p obj, v6 bool) string {
	ips := list(p, "status", "podIPs")
	if len(ips) == 0 && str(p, "status", "podIP") != "" {
		ips = []any{map[string]any{"ip": str(p, "status", "podIP")}}
	}
	for _, x := range ips {
		xm, _ := x.(map[string]any)
		ip := str(xm, "ip")
		if ip != "" && strings.Contains(ip, ":") == v6 {
			return ip
		}
	}
	return ""
}

// serviceWantsIPv6: the Service's first IP family (its cluster IP's, else
// IPv4).
func serviceWantsIPv6(svc obj) bool {
	for _, f := range list(svc, "spec", "ipFamilies") {
		return f == "IPv6"
	}
	ip := str(svc, "spec", "clusterIP")
	return ip != "" && ip != "None" && strings.Contains(ip, ":")
}

func shouldSetHostname(p, svc obj) bool {
	return str(p, "spec", "hostname") != "" && str(p, "spec", "subdomain") == name(svc) && namespace(svc) == namespace(p)
}

func serviceIPSet(svc obj) bool {
	ip := str(svc, "spec", "clusterIP")
	return ip != "" && ip != "None"
}

// findPort resolves a service port's targetPort on a Pod (FindPort).
func findPort(p obj, sp obj) (int64, bool) {
	switch tp := sp["targetPort"].(type) {
	case string:
		proto := str(sp, "protocol")
		if proto == "" {
			proto = "TCP"
		}
		look := func(containers []any, sidecarsOnly bool) (int64, bool) {
			for _, c := range containers {
				cm, _ := c.(map[string]any)
				if sidecarsOnly && str(cm, "restartPolicy") != "Always" {
					continue
				}
				for _, port := range list(cm, "ports") {
					pm, _ := port.(map[string]any)
					pp := str(pm, "protocol")
					if pp == "" {
						pp = "TCP"
					}
					if str(pm, "name") == tp && pp == proto {
						return num(pm, "containerPort")
					}
				}
			}
			return 0, false
		}
		if n, ok := look(list(p, "spec", "containers"), false); ok {
			return n, true
		}
		return look(list(p, "spec", "initContainers"), true)
	case nil:
		return num(sp, "port")
	}
	return num(sp, "targetPort")
}

func targetRef(p obj) map[string]any {
	return map[string]any{"kind": "Pod", "namespace": namespace(p), "name": name(p), "uid": uid(p)}
}

// syncEndpoints is Controller.syncService of the Endpoints controller.
func (m *Manager) syncEndpoints(svc obj) error {
	pods, ok := m.servicePods(svc)
	if !ok {
		return nil
	}
	ns := namespace(svc)
	trigger := m.triggerTime(&m.x.epTriggers, svc, pods)
	publish := boolean(svc, "spec", "publishNotReadyAddresses")
	v6 := serviceWantsIPv6(svc)
	ports := list(svc, "spec", "ports")
	type entry struct {
		addr  map[string]any
		ready bool
		port  map[string]any // nil: headless without ports
	}
	var entries []entry
	for _, p := range pods {
		if !shouldPodBeInEndpoints(p, publish) {
			continue
		}
		ip := podIPOf(p, v6)
		if ip == "" {
			continue
		}
		addr := map[string]any{"ip": ip, "targetRef": targetRef(p)}
		if n := str(p, "spec", "nodeName"); n != "" {
			addr["nodeName"] = n
		}
		if shouldSetHostname(p, svc) {
			addr["hostname"] = str(p, "spec", "hostname")
		}
		ready := publish || podReady(p)
		if len(ports) == 0 {
			if str(svc, "spec", "clusterIP") == "None" {
				entries = append(entries, entry{addr, ready, nil})
			}
			continue
		}
		for _, x := range ports {
			sp, _ := x.(map[string]any)
			n, ok := findPort(p, sp)
			if !ok {
				continue
			}
			ep := map[string]any{"port": n, "protocol": str(sp, "protocol")}
			if s := str(sp, "name"); s != "" {
				ep["name"] = s
			}
			if s := str(sp, "appProtocol"); s != "" {
				ep["appProtocol"] = s
			}
			entries = append(entries, entry{addr, ready, ep})
		}
	}
	// RepackSubsets: group the addresses by the set of ports they offer
	addrPorts := map[string][]map[string]any{} // address key → ports
	addrs := map[string]entry{}
	for _, e := range entries {
		k := str(e.addr, "ip") + "/" + str(e.addr, "targetRef", "uid")
		addrs[k] = e
		if e.port != nil {
			addrPorts[k] = append(addrPorts[k], e.port)
		} else if _, ok := addrPorts[k]; !ok {
			addrPorts[k] = nil
		}
	}
	type subset struct {
		ready, notReady []any
		ports           []map[string]any
	}
	byPorts := map[string]*subset{}
	var keys []string
	for k, ps := range addrPorts {
		sort.Slice(ps, func(i, j int) bool {
			a, b := ps[i], ps[j]
			if str(a, "name") != str(b, "name") {
				return str(a, "name") < str(b, "name")
			}
			return numOr(a, 0, "port") < numOr(b, 0, "port")
		})
		pk := fmt.Sprint(ps)
		s := byPorts[pk]
		if s == nil {
			s = &subset{ports: ps}
			byPorts[pk] = s
			keys = append(keys, pk)
		}
		if addrs[k].ready {
			s.ready = append(s.ready, addrs[k].addr)
		} else {
			s.notReady = append(s.notReady, addrs[k].addr)
		}
	}
	sort.Strings(keys)
	subsets := []any{}
	for _, k := range keys {
		s := byPorts[k]
		ss := map[string]any{}
		for f, l := range map[string][]any{"addresses": s.ready, "notReadyAddresses": s.notReady} {
			if len(l) > 0 {
				sort.Slice(l, func(i, j int) bool {
					a, b := l[i].(map[string]any), l[j].(map[string]any)
					if str(a, "ip") != str(b, "ip") {
						return str(a, "ip") < str(b, "ip")
					}
					return str(a, "targetRef", "uid") < str(b, "targetRef", "uid")
				})
				ss[f] = l
			}
		}
		if len(s.ports) > 0 {
			var ps []any
			for _, p := range s.ports {
				ps = append(ps, p)
			}
			ss["ports"] = ps
		}
		subsets = append(subsets, ss)
	}

	labels := map[string]any{}
	for k, v := range child(svc, "metadata", "labels") {
		labels[k] = v
	}
	if !serviceIPSet(svc) {
		labels[headlessServiceLabel] = ""
	} else {
		delete(labels, headlessServiceLabel)
	}
	labels[endpointsManagedBy] = endpointController

	cur := m.get(kEndpoints, ns, name(svc))
	if cur != nil && sameJSON(nonEmpty(list(cur, "subsets")), nonEmpty(subsets)) && sameJSON(child(cur, "metadata", "labels"), labels) &&
		str(cur, "metadata", "annotations", endpointsOverCapacity) == "" {
		return nil
	}
	n := obj{"apiVersion": "v1", "kind": "Endpoints", "metadata": obj{"name": name(svc), "namespace": ns}}
	if cur != nil {
		n = copyObj(cur)
	}
	md := ensure(n, "metadata")
	md["labels"] = labels
	ann := ensure(md, "annotations")
	if !trigger.IsZero() {
		ann[lastChangeTriggerTime] = trigger.UTC().Format(time.RFC3339Nano)
	} else {
		delete(ann, lastChangeTriggerTime)
	}
	delete(ann, endpointsOverCapacity)
	if len(ann) == 0 {
		delete(md, "annotations")
	}
	n["subsets"] = subsets
	if len(subsets) == 0 {
		delete(n, "subsets")
	}
	var err error
	if cur == nil {
		_, err = m.cm.do(m.ctx, http.MethodPost, kEndpoints.path(ns, "", ""), ctJSON, n)
	} else {
		_, err = m.cm.do(m.ctx, http.MethodPut, kEndpoints.path(ns, name(svc), ""), ctJSON, n)
	}
	if err != nil {
		if cur == nil && isCode(err, http.StatusForbidden) {
			return nil // the namespace is terminating
		}
		if cur == nil {
			m.record(n, kEndpoints, endpointController, "Warning", "FailedToCreateEndpoint",
				fmt.Sprintf("Failed to create endpoint for service %s/%s: %s", ns, name(svc), errMessage(err)))
		} else {
			m.record(n, kEndpoints, endpointController, "Warning", "FailedToUpdateEndpoint",
				fmt.Sprintf("Failed to update endpoint %s/%s: %s", ns, name(svc), errMessage(err)))
		}
	}
	return err
}

func nonEmpty(l []any) []any {
	if len(l) == 0 {
		return nil
	}
	return l
}

// endpointsLeftover deletes the controller's Endpoints of a Service that
// is gone (the real controller does it on the Service's delete event).
func (m *Manager) endpointsLeftover(ep obj) error {
	if str(ep, "metadata", "labels", endpointsManagedBy) != endpointController || m.get(kServices, namespace(ep), name(ep)) != nil {
		return nil
	}
	_, err := m.cm.do(m.ctx, http.MethodDelete, kEndpoints.path(namespace(ep), name(ep), ""), "", nil)
	return ignoreNotFound(err)
}

// triggerState is what the trigger-time tracker remembers of a Service.
type triggerState struct {
	pods    map[string]time.Time
	service time.Time
}

// triggerTime is TriggerTimeTracker.ComputeEndpointLastChangeTriggerTime:
// the Service's creation on its first sync, then the earliest of the
// Pods' Ready transitions (and the Service's creation) that changed since.
func (m *Manager) triggerTime(states *map[string]*triggerState, svc obj, pods []obj) time.Time {
	if *states == nil {
		*states = map[string]*triggerState{}
	}
	key := namespace(svc) + "/" + name(svc)
	st, known := (*states)[key]
	if !known {
		st = &triggerState{pods: map[string]time.Time{}}
	}
	var minChanged time.Time
	earliest := func(t time.Time) {
		if minChanged.IsZero() || t.Before(minChanged) {
			minChanged = t
		}
	}
	now := map[string]time.Time{}
	for _, p := range pods {
		t := parseTime(str(podCondition(p, "Ready"), "lastTransitionTime"))
		if t.IsZero() {
			continue
		}
		now[name(p)] = t
		if t.After(st.pods[name(p)]) {
			earliest(t)
		}
	}
	created := parseTime(str(svc, "metadata", "creationTimestamp"))
	if created.After(st.service) {
		earliest(created)
	}
	(*states)[key] = &triggerState{pods: now, service: created}
	if !known {
		return created
	}
	return minChanged
}

// servicesChanged queues the Services a Pod write concerns (those whose
// selector matches its old or new labels), and the Service of a written
// Endpoints or controller-managed EndpointSlice, so that a deleted or
// edited one is put back.
func (m *Manager) servicesChanged(key, ns string, cur, prev obj) {
	group, plural, _, nm, _ := parseKey(key)
	switch group + "/" + plural {
	case "/pods":
		var sets []map[string]string
		for _, o := range []obj{cur, prev} {
			if o != nil {
				sets = append(sets, strMap(o, "metadata", "labels"))
			}
		}
		for _, s := range m.listKind(kServices, ns, []byte(`"selector"`)) {
			sel, ok := child(s.o, "spec")["selector"].(map[string]any)
			if !ok {
				continue
			}
			for _, labels := range sets {
				match := true
				for k, v := range sel {
					if vs, _ := v.(string); labels[k] != vs {
						match = false
					}
				}
				if match {
					m.q.add(s.key)
					break
				}
			}
		}
	case "/endpoints":
		m.q.add(kServices.storeKey(ns, nm))
	case "/services":
		if cur == nil { // deleted: its Endpoints go, its trackers forget it
			m.q.add(kEndpoints.storeKey(ns, nm))
			delete(m.x.epTriggers, ns+"/"+nm)
			delete(m.x.sliceTriggers, ns+"/"+nm)
		}
	case "discovery.k8s.io/endpointslices":
		for _, o := range []obj{cur, prev} {
			if str(o, "metadata", "labels", sliceManagedBy) == sliceController {
				if svc := str(o, "metadata", "labels", sliceServiceName); svc != "" {
					m.q.add(kServices.storeKey(ns, svc))
				}
			}
		}
	}
}
