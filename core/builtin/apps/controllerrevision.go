package apps

import (
	"encoding/json"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

var metaPath = field.NewPath("metadata")

// ValidateControllerRevision is ValidateControllerRevisionCreate /
// ValidateControllerRevisionUpdate: a revision number not below zero, data
// a JSON object, and on update data immutable (the real server compares the
// raw bytes a client sent; this compares the decoded values).
//
//	data: 5 → data: Required value: data must be a valid JSON object
func ValidateControllerRevision(obj, old map[string]any) field.ErrorList {
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, validation.ValidateObjectMeta(Obj(obj, "metadata"), true, validation.NameIsDNSSubdomain, metaPath)...)
	}
	errs = append(errs, NonNegative(Int(obj, "revision"), field.NewPath("revision"))...)
	dp := field.NewPath("data")
	if old != nil {
		if (obj["data"] == nil) != (old["data"] == nil) || !SemanticEqual(obj["data"], old["data"]) {
			v := json.RawMessage("null")
			if obj["data"] != nil {
				v, _ = json.Marshal(obj["data"])
			}
			errs = append(errs, field.Invalid(dp, v, FieldImmutableErrorMsg))
		}
		return errs
	}
	switch obj["data"].(type) {
	case nil:
		errs = append(errs, field.Required(dp, "data is mandatory"))
	case map[string]any:
	default:
		errs = append(errs, field.Required(dp, "data must be a valid JSON object"))
	}
	return errs
}
