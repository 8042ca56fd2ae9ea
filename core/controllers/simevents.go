package controllers

import (
	"fmt"
	"net/http"
)

// Events of the scheduler and the kubelets, aggregated as client-go's
// EventCorrelator does: the same event (source, object, type, reason,
// message) again is a PATCH of the first one's count and lastTimestamp,
// not a new Event — `kubectl describe pod` then reads
// "Warning  Failed  2m (x4 over 3m)  kubelet  Error: ImagePullBackOff".

type sentEvent struct {
	ns, name string
	count    int64
}

// kubeletEvent records an event about container c of p by the kubelet of
// node (fieldPath spec.containers{NAME}).
func (m *Manager) kubeletEvent(p obj, node string, c obj, typ, reason, msg string) {
	m.recordAs(m.kubelet, p, kPods, "kubelet", node, "spec.containers{"+str(c, "name")+"}", typ, reason, msg)
}

// recordAs posts (or, repeated, aggregates) an Event through cl.
func (m *Manager) recordAs(cl client, o obj, k kindInfo, component, host, fieldPath, typ, reason, msg string) {
	ns := namespace(o)
	if ns == "" {
		ns = "default"
	}
	ts := m.timestamp()
	key := component + "\x00" + host + "\x00" + uid(o) + "\x00" + fieldPath + "\x00" + typ + "\x00" + reason + "\x00" + msg
	if e, ok := m.sentEvents[key]; ok {
		e.count++
		_, err := cl.do(m.ctx, http.MethodPatch, kEvents.path(e.ns, e.name, ""), ctStrategic,
			obj{"count": e.count, "lastTimestamp": ts, "message": msg})
		if err == nil {
			return
		}
		delete(m.sentEvents, key) // gone (a TTL, a deleted namespace): post anew
	}
	nano := max(m.now().UnixNano(), m.lastEventNano+1) // distinct names under a frozen test clock
	m.lastEventNano = nano
	evName := fmt.Sprintf("%v.%x", name(o), nano)
	involved := map[string]any{"kind": k.Kind, "namespace": namespace(o), "name": name(o),
		"uid": uid(o), "apiVersion": k.apiVersion(), "resourceVersion": rv(o)}
	if fieldPath != "" {
		involved["fieldPath"] = fieldPath
	}
	if namespace(o) == "" {
		delete(involved, "namespace")
	}
	source := map[string]any{"component": component}
	if host != "" {
		source["host"] = host
	}
	ev := map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata":       map[string]any{"name": evName, "namespace": ns},
		"involvedObject": involved, "reason": reason, "message": msg, "source": source,
		"firstTimestamp": ts, "lastTimestamp": ts, "count": int64(1), "type": typ,
		"reportingComponent": component, "reportingInstance": host,
	}
	if _, err := cl.do(m.ctx, http.MethodPost, kEvents.path(ns, "", ""), ctJSON, ev); err == nil {
		if m.sentEvents == nil || len(m.sentEvents) > 4096 { // the correlator's LRU cache, reduced
			m.sentEvents = map[string]*sentEvent{}
		}
		m.sentEvents[key] = &sentEvent{ns: ns, name: evName, count: 1}
	}
}
