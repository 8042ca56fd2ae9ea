package apps

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// The status checks of the apps kinds' status updates
// (ValidateDeploymentStatus, ValidateReplicaSetStatus,
// validateDaemonSetStatus, ValidateStatefulSetStatus), run on every update:
// a write of the main resource keeps the stored status, which passed them.

// nonNegative checks each named count of status, in order; absent ones
// (nil pointers in kube's types) read 0 and pass.
func nonNegative(status map[string]any, p *field.Path, names ...string) field.ErrorList {
	var errs field.ErrorList
	for _, n := range names {
		errs = append(errs, NonNegative(Int(status, n), p.Child(n))...)
	}
	return errs
}

// notAbove reports each named count above status.replicas.
func notAbove(status map[string]any, p *field.Path, names ...string) field.ErrorList {
	var errs field.ErrorList
	replicas := Int(status, "replicas")
	for _, n := range names {
		if v := Int(status, n); v > replicas {
			errs = append(errs, field.Invalid(p.Child(n), v, "cannot be greater than status.replicas"))
		}
	}
	return errs
}

func availableNotAboveReady(status map[string]any, p *field.Path, msg string) field.ErrorList {
	if a := Int(status, "availableReplicas"); a > Int(status, "readyReplicas") {
		return field.ErrorList{field.Invalid(p.Child("availableReplicas"), a, msg)}
	}
	return nil
}

func validateDeploymentStatus(status map[string]any) field.ErrorList {
	p := field.NewPath("status")
	errs := nonNegative(status, p, "observedGeneration", "replicas", "updatedReplicas", "readyReplicas",
		"availableReplicas", "unavailableReplicas", "terminatingReplicas", "collisionCount")
	errs = append(errs, notAbove(status, p, "updatedReplicas", "readyReplicas", "availableReplicas")...)
	return append(errs, availableNotAboveReady(status, p, "cannot be greater than readyReplicas")...)
}

func validateReplicaSetStatus(status map[string]any) field.ErrorList {
	p := field.NewPath("status")
	errs := nonNegative(status, p, "replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas",
		"observedGeneration", "terminatingReplicas")
	errs = append(errs, notAbove(status, p, "fullyLabeledReplicas", "readyReplicas", "availableReplicas")...)
	return append(errs, availableNotAboveReady(status, p, "cannot be greater than readyReplicas")...)
}

func validateDaemonSetStatus(status map[string]any) field.ErrorList {
	return nonNegative(status, field.NewPath("status"), "currentNumberScheduled", "numberMisscheduled",
		"desiredNumberScheduled", "numberReady", "observedGeneration", "updatedNumberScheduled",
		"numberAvailable", "numberUnavailable", "collisionCount")
}

func validateStatefulSetStatus(status map[string]any) field.ErrorList {
	p := field.NewPath("status")
	errs := nonNegative(status, p, "replicas", "readyReplicas", "currentReplicas", "updatedReplicas",
		"availableReplicas", "observedGeneration", "collisionCount")
	errs = append(errs, notAbove(status, p, "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas")...)
	return append(errs, availableNotAboveReady(status, p, "cannot be greater than status.readyReplicas")...)
}
