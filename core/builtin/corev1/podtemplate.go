package corev1

import (
	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidatePodTemplate is ValidatePodTemplate and ValidatePodTemplateUpdate
// without their metadata checks (the server's generic ObjectMeta(Update)
// checks come first): the template's labels, annotations and pod spec, as
// for a workload's template but with any restartPolicy. Example, a
// template without containers answers 422 with
//
//	template.spec.containers: Required value
func ValidatePodTemplate(obj, _ map[string]any) field.ErrorList {
	return ValidatePodTemplateSpec(Obj(obj, "template"), field.NewPath("template"))
}
