package corev1

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// PodGracePeriod is the pod strategy's CheckGracefulDelete: the requested
// grace period, else spec.terminationGracePeriodSeconds, else 0; 0 for a
// pod no node runs (spec.nodeName empty — every pod of a sandbox without
// Nodes) and for one that has finished; a negative period becomes 1. A pod
// with a period above 0 stays, Terminating, until its kubelet removes it.
func PodGracePeriod(pod map[string]any, requested *int64) int64 {
	var period int64
	spec := Obj(pod, "spec")
	if requested != nil {
		period = *requested
	} else if Has(spec, "terminationGracePeriodSeconds") {
		period = Int(spec, "terminationGracePeriodSeconds")
	}
	if Str(spec, "nodeName") == "" {
		period = 0
	}
	if ph := Str(Obj(pod, "status"), "phase"); ph == "Failed" || ph == "Succeeded" {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period
}
