package controllers

import (
	"fmt"
	"net/http"
	"time"
)

const rfc3339 = "2006-01-02T15:04:05Z"

func (m *Manager) now() time.Time    { return m.opts.Now().UTC() }
func (m *Manager) timestamp() string { return m.now().Format(rfc3339) }

// record posts a core/v1 Event as client-go's record.EventRecorder makes
// it: named <object>.<unix nanos in hex>, count 1, source and reporting
// component the controller's name. Failures are ignored, as the real
// broadcaster drops events it cannot write.
//
// Example: record(d, kDeployments, "deployment-controller", "Normal",
// "ScalingReplicaSet", "Scaled up replica set web-5d4f from 0 to 3").
func (m *Manager) record(o obj, k kindInfo, component, typ, reason, message string) {
	t := m.now()
	ts := t.Format(rfc3339)
	// the name is unique per event even when the clock stands still (a
	// test's clock): the nanoseconds only ever go up
	nanos := t.UnixNano()
	if nanos <= m.x.lastEventNanos {
		nanos = m.x.lastEventNanos + 1
	}
	m.x.lastEventNanos = nanos
	ns := namespace(o)
	if ns == "" {
		ns = "default"
	}
	ev := map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata": map[string]any{"name": fmt.Sprintf("%v.%x", name(o), nanos), "namespace": ns},
		"involvedObject": map[string]any{"kind": k.Kind, "namespace": namespace(o), "name": name(o),
			"uid": uid(o), "apiVersion": k.apiVersion(), "resourceVersion": rv(o)},
		"reason": reason, "message": message,
		"source":         map[string]any{"component": component},
		"firstTimestamp": ts, "lastTimestamp": ts, "count": int64(1), "type": typ,
		"reportingComponent": component, "reportingInstance": "",
	}
	if namespace(o) == "" {
		delete(ev["involvedObject"].(map[string]any), "namespace")
	}
	_, _ = m.cm.do(m.ctx, http.MethodPost, kEvents.path(ns, "", ""), ctJSON, ev)
}
