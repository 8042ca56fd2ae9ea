package corev1

import (
	"fmt"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateEvent is ValidateEventCreate / ValidateEventUpdate for a core/v1
// Event: legacyValidateEvent only (the v1 API keeps the old rules; the
// strict ones are events.k8s.io/v1's). An Event without eventTime must be
// in its involved object's namespace (or "default" when that is empty);
// one with eventTime needs reportingComponent, reportingInstance, action
// and reason within their lengths.
func ValidateEvent(obj, _ map[string]any) field.ErrorList {
	var errs field.ErrorList
	ns := Str(Obj(obj, "metadata"), "namespace")
	ionsPath := field.NewPath("involvedObject", "namespace")
	ions := Str(Obj(obj, "involvedObject"), "namespace")
	if Str(obj, "eventTime") == "" {
		if ions == "" {
			if ns != "" && ns != "default" {
				errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
			}
		} else if ns != ions {
			errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
		}
		return errs
	}
	if ions == "" && ns != "default" && ns != "kube-system" {
		errs = append(errs, field.Invalid(ionsPath, ions, "does not match event.namespace"))
	}
	rc := Str(obj, "reportingComponent")
	rcPath := field.NewPath("reportingComponent")
	if rc == "" {
		errs = append(errs, field.Required(rcPath, ""))
	}
	for _, m := range validation.IsQualifiedName(rc) {
		errs = append(errs, field.Invalid(rcPath, rc, m))
	}
	limit := func(name string, n int, required bool) {
		v := Str(obj, name)
		if required && v == "" {
			errs = append(errs, field.Required(field.NewPath(name), ""))
		}
		if len(v) > n {
			errs = append(errs, field.Invalid(field.NewPath(name), "", fmt.Sprintf("can have at most %d characters", n)))
		}
	}
	limit("reportingInstance", 128, true)
	limit("action", 128, true)
	limit("reason", 128, true)
	limit("message", 1024, false)
	return errs
}
