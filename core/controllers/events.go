package controllers

import "time"

const rfc3339 = "2006-01-02T15:04:05Z"

func (m *Manager) now() time.Time    { return m.opts.Now().UTC() }
func (m *Manager) timestamp() string { return m.now().Format(rfc3339) }

// record posts a core/v1 Event as client-go's record.EventRecorder makes
// it: named <object>.<unix nanos in hex>, count 1, source and reporting
// component the controller's name; the same event again (object, type,
// reason, message) is aggregated into the first one's count, as the
// recorder's EventCorrelator does (recordAs). Failures are ignored, as the
// real broadcaster drops events it cannot write.
//
// Example: record(d, kDeployments, "deployment-controller", "Normal",
// "ScalingReplicaSet", "Scaled up replica set web-5d4f from 0 to 3").
func (m *Manager) record(o obj, k kindInfo, component, typ, reason, message string) {
	m.recordAs(m.cm, o, k, component, "", "", typ, reason, message)
}
