// Package coordination validates coordination.k8s.io/v1 Leases as
// kube-apiserver v1.37.2 does (k8s.io/kubernetes
// pkg/apis/coordination/validation, pkg/registry/coordination/lease), with
// the CoordinatedLeaderElection gate at its default (off).
package coordination

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// PrepareLeaseCreate is the strategy's PrepareForCreate: without
// coordinated leader election, strategy and preferredHolder are dropped.
func PrepareLeaseCreate(obj map[string]any) {
	if spec := Obj(obj, "spec"); spec != nil {
		delete(spec, "strategy")
		delete(spec, "preferredHolder")
	}
}

// PrepareLeaseUpdate is PrepareForUpdate: they are kept only when the
// stored Lease has them.
func PrepareLeaseUpdate(obj, old map[string]any) {
	spec, os := Obj(obj, "spec"), Obj(old, "spec")
	if spec == nil {
		return
	}
	for _, k := range []string{"strategy", "preferredHolder"} {
		if !Has(os, k) {
			delete(spec, k)
		}
	}
}

// ValidateLease is ValidateLease / ValidateLeaseUpdate.
//
//	spec.leaseDurationSeconds: 0 → spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0
func ValidateLease(obj, _ map[string]any) field.ErrorList {
	var errs field.ErrorList
	spec := Obj(obj, "spec")
	p := field.NewPath("spec")
	if v, ok := IntOK(spec, "leaseDurationSeconds"); ok && Has(spec, "leaseDurationSeconds") && v <= 0 {
		errs = append(errs, field.Invalid(p.Child("leaseDurationSeconds"), v, "must be greater than 0"))
	}
	if v, ok := IntOK(spec, "leaseTransitions"); ok && Has(spec, "leaseTransitions") && v < 0 {
		errs = append(errs, field.Invalid(p.Child("leaseTransitions"), v, "must be greater than or equal to 0"))
	}
	if Has(spec, "strategy") {
		s := Str(spec, "strategy")
		if !strings.Contains(s, "/") {
			if s != "OldestEmulationVersion" {
				errs = append(errs, field.NotSupported(p.Child("strategy", "strategy"), s, []string{"OldestEmulationVersion"}))
			}
		} else {
			for _, m := range validation.IsQualifiedName(s) {
				errs = append(errs, field.Invalid(p.Child("strategy", "strategy"), s, m))
			}
		}
	}
	if Str(spec, "preferredHolder") != "" && Str(spec, "strategy") == "" {
		errs = append(errs, field.Forbidden(p.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}
