package corev1

import (
	"errors"
	"fmt"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// ValidateNode is the part of ValidateNode / ValidateNodeUpdate built so
// far: spec.taints (validateNodeTaints: key a label name, value a label
// value, effect one of NoSchedule, PreferNoSchedule, NoExecute, unique by
// key and effect). The name is a DNS subdomain (the generic name check).
//
// Example: two taints {key: a, effect: NoSchedule} answer
// `spec.taints[1]: Duplicate value: core.Taint{Key:"a", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair`.
func ValidateNode(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("spec", "taints")
	seen := map[string]bool{}
	for i, t := range Objs(Obj(obj, "spec"), "taints") {
		ip := p.Index(i)
		key, val, eff := Str(t, "key"), Str(t, "value"), Str(t, "effect")
		errs = append(errs, ValidateLabelName(key, ip.Child("key"))...)
		if msgs := validation.IsValidLabelValue(val); len(msgs) > 0 {
			errs = append(errs, field.Invalid(ip.Child("value"), val, strings.Join(msgs, ";")))
		}
		switch eff {
		case "":
			errs = append(errs, field.Required(ip.Child("effect"), ""))
		case "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			errs = append(errs, field.NotSupported(ip.Child("effect"), eff, []string{"NoSchedule", "PreferNoSchedule", "NoExecute"}))
		}
		if seen[eff+"\x00"+key] {
			added := "(*v1.Time)(nil)"
			if Has(t, "timeAdded") {
				added = fmt.Sprintf("time.Date(%s)", Str(t, "timeAdded"))
			}
			d := field.Duplicate(ip, goValue(fmt.Sprintf("core.Taint{Key:%q, Value:%q, Effect:%q, TimeAdded:%s}", key, val, eff, added)))
			d.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, d)
			continue
		}
		seen[eff+"\x00"+key] = true
	}
	return errs
}

// goValue is a bad value apimachinery prints with %#v (a Go struct).
type goValue string

func (g goValue) String() string               { return string(g) }
func (g goValue) MarshalJSON() ([]byte, error) { return nil, errors.New("printed as Go") }
