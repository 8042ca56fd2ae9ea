package builtin

import (
	"fmt"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// priorityPlugin is kube's Priority admission plugin
// (plugin/pkg/admission/priority): a new Pod gets spec.priority and
// spec.preemptionPolicy from the PriorityClass it names — or from the
// globalDefault class (the lowest-valued one if several), or 0 and
// PreemptLowerPriority without one —, a Pod naming a class that does not
// exist is refused, and only one PriorityClass may be globalDefault.
//
//	POST pods {"spec": {"priorityClassName": "gold"}}  (no such class)
//	→ 403 pods "web" is forbidden: no PriorityClass with name gold was found
var priorityPlugin = &resource.AdmissionPlugin{
	Name:     "Priority",
	Reads:    []resource.GroupResource{{Group: "scheduling.k8s.io", Resource: "priorityclasses"}},
	Admit:    admitPodPriority,
	Validate: validatePriorityClassDefault,
}

func admitPodPriority(a *resource.Attributes) error {
	if a.Group != "" || a.Resource != "pods" || a.Subresource != "" {
		return nil
	}
	spec := Obj(a.Obj, "spec")
	if spec == nil {
		return nil
	}
	if a.Operation == "UPDATE" {
		old := Obj(a.Old, "spec")
		for _, k := range []string{"priority", "preemptionPolicy"} {
			if spec[k] == nil && old[k] != nil {
				spec[k] = old[k]
			}
		}
		return nil
	}
	name := Str(spec, "priorityClassName")
	var value int64
	policy := any("PreemptLowerPriority")
	if name == "" {
		if pc := defaultPriorityClass(a.Objects); pc != nil {
			name, value, policy = metaStr(pc, "name"), Int(pc, "value"), pc["preemptionPolicy"]
		}
	} else {
		pc := a.Objects.Get("scheduling.k8s.io", "priorityclasses", "", name)
		if pc == nil {
			return forbidden(a, "no PriorityClass with name "+name+" was found")
		}
		value, policy = Int(pc, "value"), pc["preemptionPolicy"]
	}
	if name != "" {
		spec["priorityClassName"] = name
	}
	if p, ok := IntOK(spec, "priority"); ok && p != value {
		return forbidden(a, fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", p, value))
	}
	spec["priority"] = value
	if policy != nil {
		if p, ok := spec["preemptionPolicy"].(string); ok && p != policy {
			return forbidden(a, fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %v from the given PriorityClass name", p, policy))
		}
		spec["preemptionPolicy"] = policy
	}
	return nil
}

// defaultPriorityClass is the globalDefault class of the lowest value
// (nil if none).
func defaultPriorityClass(l resource.Lookup) resource.Object {
	var out resource.Object
	for _, pc := range l.List("scheduling.k8s.io", "priorityclasses", "") {
		if Bool(pc, "globalDefault") && (out == nil || Int(out, "value") > Int(pc, "value")) {
			out = pc
		}
	}
	return out
}

// validatePriorityClassDefault: "PriorityClass high is already marked as
// default. Only one default can exist".
func validatePriorityClassDefault(a *resource.Attributes) error {
	if a.Group != "scheduling.k8s.io" || a.Resource != "priorityclasses" || a.Subresource != "" || !Bool(a.Obj, "globalDefault") {
		return nil
	}
	dpc := defaultPriorityClass(a.Objects)
	if dpc == nil {
		return nil
	}
	if n := metaStr(dpc, "name"); a.Operation == "CREATE" || n != metaStr(a.Obj, "name") {
		return forbidden(a, "PriorityClass "+n+" is already marked as default. Only one default can exist")
	}
	return nil
}
