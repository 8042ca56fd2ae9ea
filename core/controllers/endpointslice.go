package controllers

import (
	"net/http"
	"sort"
	"strings"
	"time"
)

// The EndpointSlice controller (pkg/controller/endpointslice and
// k8s.io/endpointslice's reconciler). For every Service with a selector
// it keeps discovery.k8s.io/v1 EndpointSlices of the Service's address
// type (its first IP family: IPv4 here), one group per distinct set of
// resolved ports, at most 100 endpoints a slice, named by generateName
// "<service>-", labelled kubernetes.io/service-name: <service>,
// endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io
// (plus the Service's labels and service.kubernetes.io/headless when it
// has no cluster IP), owned by the Service (controller: true, so the
// garbage collector removes them with it). Each endpoint is a Pod with an
// IP that is not terminal — terminating ones included — with conditions
// ready (serving and not terminating, or publishNotReadyAddresses),
// serving (the Pod's Ready condition) and terminating (deletionTimestamp
// set), its targetRef, nodeName when scheduled and hostname when the Pod's
// subdomain is the Service. A Service that selects nothing gets one
// placeholder slice without endpoints or ports.
//
// Example: Service web with two ready Pods → EndpointSlice web-x7k2p
// {addressType: IPv4, endpoints: [{addresses: [10.244.0.5], conditions:
// {ready: true, serving: true, terminating: false}, targetRef: {kind:
// Pod, …}}, …], ports: [{name: "", port: 8080, protocol: TCP}]}.
//
// Differences: endpoints are packed in Pod-name order (the real reconciler
// keeps each endpoint in the slice it is in and fills the fullest slice
// first); the outcome for up to 100 endpoints a port set is the same.

const (
	sliceManagedBy       = "endpointslice.kubernetes.io/managed-by"
	sliceController      = "endpointslice-controller.k8s.io"
	sliceServiceName     = "kubernetes.io/service-name"
	maxEndpointsPerSlice = 100
)

var kEndpointSlices = kindInfo{"discovery.k8s.io", "v1", "endpointslices", "EndpointSlice", true}

// syncEndpointSlices is Controller.syncService + Reconciler.reconcile for
// one address type.
func (m *Manager) syncEndpointSlices(svc obj) error {
	pods, ok := m.servicePods(svc)
	if !ok {
		return nil
	}
	ns := namespace(svc)
	trigger := m.triggerTime(&m.x.sliceTriggers, svc, pods)
	v6 := serviceWantsIPv6(svc)
	addressType := "IPv4"
	if v6 {
		addressType = "IPv6"
	}
	var existing []obj
	for _, s := range m.listKind(kEndpointSlices, ns, []byte(sliceController)) {
		l := strMap(s.o, "metadata", "labels")
		if l[sliceServiceName] == name(svc) && l[sliceManagedBy] == sliceController {
			existing = append(existing, s.o)
		}
	}
	byCreation(existing)
	var toDelete []obj
	existingByPorts := map[string][]obj{}
	for _, s := range existing {
		if !ownedByService(s, svc) || str(s, "addressType") != addressType {
			toDelete = append(toDelete, s)
			continue
		}
		k := portsKey(list(s, "ports"))
		existingByPorts[k] = append(existingByPorts[k], s)
	}

	// desired endpoints by port set
	desired := map[string][]any{}
	portsOf := map[string][]any{}
	var order []string
	for _, p := range pods {
		if !shouldPodBeInEndpoints(p, true) {
			continue
		}
		ep := podToEndpoint(p, svc, v6)
		if ep == nil {
			continue
		}
		ports := endpointPorts(svc, p)
		k := portsKey(ports)
		if _, ok := desired[k]; !ok {
			order = append(order, k)
			portsOf[k] = ports
		}
		desired[k] = append(desired[k], ep)
	}
	sort.Strings(order)

	labels := sliceLabels(svc)
	var toWrite []obj // slices to create (no name) or update
	for _, k := range order {
		eps := desired[k]
		have := existingByPorts[k]
		delete(existingByPorts, k)
		for i := 0; i*maxEndpointsPerSlice < len(eps); i++ {
			chunk := eps[i*maxEndpointsPerSlice : min(len(eps), (i+1)*maxEndpointsPerSlice)]
			var cur obj
			if i < len(have) {
				cur = have[i]
			}
			if s := m.desiredSlice(cur, svc, labels, addressType, portsOf[k], chunk); s != nil {
				toWrite = append(toWrite, s)
			}
		}
		for i := (len(eps) + maxEndpointsPerSlice - 1) / maxEndpointsPerSlice; i < len(have); i++ {
			toDelete = append(toDelete, have[i])
		}
	}
	var stale []obj
	for _, l := range existingByPorts {
		stale = append(stale, l...)
	}
	byCreation(stale)
	toDelete = append(toDelete, stale...)

	if len(order) == 0 {
		// the placeholder: keep one that is there, else reuse or create
		kept := false
		for i, s := range toDelete {
			if ownedByService(s, svc) && str(s, "addressType") == addressType && len(list(s, "endpoints")) == 0 && len(list(s, "ports")) == 0 {
				if w := m.desiredSlice(s, svc, labels, addressType, nil, nil); w != nil {
					toWrite = append(toWrite, w)
				}
				toDelete = append(toDelete[:i], toDelete[i+1:]...)
				kept = true
				break
			}
		}
		if !kept {
			toWrite = append(toWrite, m.desiredSlice(nil, svc, labels, addressType, nil, nil))
		}
	}
	// finalize: creates become updates of slices that would be deleted
	for i := range toWrite {
		if str(toWrite[i], "metadata", "name") != "" || len(toDelete) == 0 {
			continue
		}
		d := toDelete[0]
		if str(d, "addressType") != addressType || !ownedByService(d, svc) {
			continue
		}
		toDelete = toDelete[1:]
		w := toWrite[i]
		md := child(w, "metadata") // keeps its generateName, as the real one does
		md["name"], md["resourceVersion"] = name(d), rv(d)
	}
	for _, s := range toWrite {
		md := child(s, "metadata")
		ann := ensure(md, "annotations")
		if !trigger.IsZero() {
			ann[lastChangeTriggerTime] = trigger.UTC().Format(time.RFC3339Nano)
		} else {
			delete(ann, lastChangeTriggerTime)
		}
		if len(ann) == 0 {
			delete(md, "annotations")
		}
		var err error
		if nm := str(md, "name"); nm == "" {
			if deleting(svc) {
				continue
			}
			_, err = m.cm.do(m.ctx, http.MethodPost, kEndpointSlices.path(ns, "", ""), ctJSON, s)
			if isCode(err, http.StatusForbidden) {
				return nil // the namespace is terminating
			}
		} else {
			_, err = m.cm.do(m.ctx, http.MethodPut, kEndpointSlices.path(ns, nm, ""), ctJSON, s)
		}
		if err != nil {
			return err
		}
	}
	for _, s := range toDelete {
		_, err := m.cm.do(m.ctx, http.MethodDelete, kEndpointSlices.path(ns, name(s), ""), "", nil)
		if err = ignoreNotFound(err); err != nil {
			return err
		}
	}
	return nil
}

// desiredSlice returns the slice to write (cur updated, or a new one when
// cur is nil), or nil when cur already is it.
func (m *Manager) desiredSlice(cur, svc obj, labels map[string]any, addressType string, ports, eps []any) obj {
	if cur != nil && sameJSON(nonEmpty(list(cur, "endpoints")), nonEmpty(eps)) &&
		sameJSON(nonEmpty(list(cur, "ports")), nonEmpty(ports)) && sameJSON(child(cur, "metadata", "labels"), labels) {
		return nil
	}
	var s obj
	if cur != nil {
		s = copyObj(cur)
	} else {
		s = obj{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
			"metadata": obj{"generateName": slicePrefix(name(svc)), "namespace": namespace(svc),
				"ownerReferences": []any{controllerRef(svc, "v1", "Service")}},
			"addressType": addressType}
	}
	ensure(s, "metadata")["labels"] = copyAny(labels)
	s["endpoints"], s["ports"] = eps, ports
	if len(eps) == 0 {
		delete(s, "endpoints")
	}
	if len(ports) == 0 {
		delete(s, "ports")
	}
	return s
}

// slicePrefix is getEndpointSlicePrefix: "<service>-" unless that is not
// a valid DNS subdomain prefix (too long).
func slicePrefix(svc string) string {
	if len(svc)+1 > 253-5 {
		return svc
	}
	return svc + "-"
}

func ownedByService(s, svc obj) bool {
	for _, r := range ownerRefs(s) {
		if r.UID == uid(svc) && r.Kind == "Service" && r.APIVersion == "v1" {
			return true
		}
	}
	return false
}

// sliceLabels is setEndpointSliceLabels.
func sliceLabels(svc obj) map[string]any {
	l := map[string]any{}
	for k, v := range child(svc, "metadata", "labels") {
		if k != sliceServiceName && k != sliceManagedBy && k != headlessServiceLabel {
			l[k] = v
		}
	}
	if !serviceIPSet(svc) {
		l[headlessServiceLabel] = ""
	}
	l[sliceServiceName] = name(svc)
	l[sliceManagedBy] = sliceController
	return l
}

// podToEndpoint is the Pod's endpoint, nil without an address of the type.
func podToEndpoint(p, svc obj, v6 bool) map[string]any {
	var addrs []any
	for _, x := range list(p, "status", "podIPs") {
		xm, _ := x.(map[string]any)
		ip := str(xm, "ip")
		if ip != "" && strings.Contains(ip, ":") == v6 {
			addrs = append(addrs, ip)
		}
	}
	if len(addrs) == 0 {
		if ip := podIPOf(p, v6); ip != "" {
			addrs = []any{ip}
		} else {
			return nil
		}
	}
	serving := podReady(p)
	terminating := deleting(p)
	ready := boolean(svc, "spec", "publishNotReadyAddresses") || (serving && !terminating)
	ep := map[string]any{"addresses": addrs,
		"conditions": map[string]any{"ready": ready, "serving": serving, "terminating": terminating},
		"targetRef":  targetRef(p)}
	if n := str(p, "spec", "nodeName"); n != "" {
		ep["nodeName"] = n
	}
	if shouldSetHostname(p, svc) {
		ep["hostname"] = str(p, "spec", "hostname")
	}
	return ep
}

// endpointPorts is getEndpointPorts: every service port resolved on the
// Pod, name always present ("" when unnamed).
func endpointPorts(svc, p obj) []any {
	ports := list(svc, "spec", "ports")
	out := []any{}
	for _, x := range ports {
		sp, _ := x.(map[string]any)
		n, ok := findPort(p, sp)
		if !ok {
			continue
		}
		ep := map[string]any{"name": str(sp, "name"), "port": n, "protocol": str(sp, "protocol")}
		if s := str(sp, "appProtocol"); s != "" {
			ep["appProtocol"] = s
		}
		out = append(out, ep)
	}
	return out
}

// portsKey identifies a set of endpoint ports whatever their order.
func portsKey(ports []any) string {
	var ks []string
	for _, p := range ports {
		pm, _ := p.(map[string]any)
		ks = append(ks, str(pm, "name")+"/"+itoa(numOr(pm, 0, "port"))+"/"+str(pm, "protocol")+"/"+str(pm, "appProtocol"))
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}
