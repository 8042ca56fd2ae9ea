// Package scheduling validates and defaults scheduling.k8s.io/v1
// PriorityClasses as kube-apiserver v1.37.2 does (k8s.io/kubernetes
// pkg/apis/scheduling/{v1,validation}).
package scheduling

import (
	"strconv"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

const highestUserDefinable = 1000000000

// the system classes kube-apiserver creates (schedulingapiv1.SystemPriorityClasses)
var systemClasses = []struct {
	name  string
	value int64
}{{"system-node-critical", 2*highestUserDefinable + 1000}, {"system-cluster-critical", 2 * highestUserDefinable}}

// DefaultPriorityClass is SetDefaults_PriorityClass.
func DefaultPriorityClass(obj map[string]any) {
	if obj["preemptionPolicy"] == nil {
		obj["preemptionPolicy"] = "PreemptLowerPriority"
	}
}

// ValidatePriorityClass is ValidatePriorityClass / ValidatePriorityClassUpdate
// (value and preemptionPolicy are immutable).
//
//	value: 2000000000 → value: Forbidden: maximum allowed value of a user defined priority is 1000000000
func ValidatePriorityClass(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	if old != nil {
		if Int(obj, "value") != Int(old, "value") {
			errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
		}
		if np, op := obj["preemptionPolicy"], old["preemptionPolicy"]; Str(obj, "preemptionPolicy") != Str(old, "preemptionPolicy") || (np == nil) != (op == nil) {
			errs = append(errs, field.Invalid(field.NewPath("preemptionPolicy"), np, FieldImmutableErrorMsg))
		}
		return errs
	}
	name := Str(Obj(obj, "metadata"), "name")
	value, global := Int(obj, "value"), Bool(obj, "globalDefault")
	if strings.HasPrefix(name, "system-") {
		msg := name + " is not a known system priority class"
		for _, c := range systemClasses {
			if c.name != name {
				continue
			}
			switch {
			case c.value != value:
				msg = "value of " + name + " PriorityClass must be " + strconv.FormatInt(c.value, 10)
			case global:
				msg = "globalDefault of " + name + " PriorityClass must be false"
			default:
				msg = ""
			}
		}
		if msg != "" {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"), "priority class names with 'system-' prefix are reserved for system use only. error: "+msg))
		}
	} else if value > highestUserDefinable {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "maximum allowed value of a user defined priority is 1000000000"))
	}
	if Has(obj, "preemptionPolicy") {
		switch pp := Str(obj, "preemptionPolicy"); pp {
		case "PreemptLowerPriority", "Never":
		case "":
			errs = append(errs, field.Required(field.NewPath("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(field.NewPath("preemptionPolicy"), pp, []string{"PreemptLowerPriority", "Never"}))
		}
	}
	return errs
}
