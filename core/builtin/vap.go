package builtin

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/builtin/admissionregistration"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding (pkg/registry/admissionregistration):
// cluster-scoped, the policy with /status. Printer columns are
// printValidatingAdmissionPolicy(Binding). The CEL of a policy is checked by
// the server's engine (policyCEL); the server's admission step evaluates
// the policies on every write (core/apiserver/admission.go).

// celJSON is an object and the stored one (nil on create) as the engine's
// requests carry them.
func celJSON(obj, old resource.Object) (o, ob json.RawMessage, err error) {
	if o, err = jsonx.Marshal(obj); err != nil || old == nil {
		return o, nil, err
	}
	ob, err = jsonx.Marshal(old)
	return o, ob, err
}

// policyCEL asks the engine whether a policy's expressions compile.
func policyCEL(e cel.Engine, obj, old resource.Object) (field.ErrorList, error) {
	o, ob, err := celJSON(obj, old)
	if err != nil {
		return nil, err
	}
	causes, err := e.CheckPolicy(cel.CheckPolicyRequest{Object: o, Old: ob})
	if err != nil {
		return nil, err
	}
	return cel.Errors(causes), nil
}

func vapValidations(o resource.Object, _ time.Time) any {
	return int64(len(items(child(o, "spec"), "validations")))
}

func vapParamKind(o resource.Object, _ time.Time) any {
	pk := child(child(o, "spec"), "paramKind")
	if pk == nil {
		return "<unset>"
	}
	return str(pk, "apiVersion") + "/" + str(pk, "kind")
}

func vapbPolicyName(o resource.Object, _ time.Time) any { return str(child(o, "spec"), "policyName") }

func vapbParamRef(o resource.Object, _ time.Time) any {
	pr := child(child(o, "spec"), "paramRef")
	switch {
	case pr == nil:
		return "<unset>"
	case str(pr, "name") != "" && str(pr, "namespace") != "":
		return str(pr, "namespace") + "/" + str(pr, "name")
	case str(pr, "name") != "":
		return "*/" + str(pr, "name")
	case child(pr, "selector") != nil:
		return labelSelectorGoString(child(pr, "selector"))
	}
	return "<unset>"
}

// labelSelectorGoString is (*metav1.LabelSelector).String(), the
// generated protobuf text the printer shows:
//
//	&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}
func labelSelectorGoString(sel map[string]any) string {
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	labels := child(sel, "matchLabels")
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%v: %v,", k, labels[k])
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{")
	for _, r := range items(sel, "matchExpressions") {
		fmt.Fprintf(&b, "LabelSelectorRequirement{Key:%s,Operator:%s,Values:%v,},", str(r, "key"), str(r, "operator"), jsonx.Strings(r["values"]))
	}
	b.WriteString("},}")
	return b.String()
}

// resetForStatus is what metav1.ResetObjectMetaForStatus keeps of the
// stored metadata in a status write (beyond what every update keeps).
var resetForStatus = []string{"labels", "annotations", "finalizers", "ownerReferences"}

func init() {
	catalogue = append(catalogue,
		entry{def: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy", res: resource.Resource{
			Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies", Singular: "validatingadmissionpolicy",
			Kind: "ValidatingAdmissionPolicy", ListKind: "ValidatingAdmissionPolicyList", Categories: []string{"api-extensions"},
			Verbs: allVerbs, Status: true, ConditionalUpdate: true, StatusKeeps: resetForStatus,
			PrinterColumns: []resource.PrinterColumn{nameColumn,
				withCell(col("Validations", "integer", 0, "Validations indicates the number of validation rules defined in this configuration", ""), vapValidations),
				withCell(col("ParamKind", "string", 0, "ParamKind specifies the kind of resources used to parameterize this policy", ""), vapParamKind),
				ageColumn},
			Hooks: resource.Hooks{Default: admissionregistration.DefaultPolicy, PrepareCreate: admissionregistration.PreparePolicyCreate,
				Validate: admissionregistration.ValidatePolicy, CEL: policyCEL},
		}},
		entry{def: "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding", res: resource.Resource{
			Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicybindings", Singular: "validatingadmissionpolicybinding",
			Kind: "ValidatingAdmissionPolicyBinding", ListKind: "ValidatingAdmissionPolicyBindingList", Categories: []string{"api-extensions"},
			Verbs: allVerbs, ConditionalUpdate: true,
			PrinterColumns: []resource.PrinterColumn{nameColumn,
				withCell(col("PolicyName", "string", 0, "PolicyName indicates the policy definition which the policy binding binded to", ""), vapbPolicyName),
				withCell(col("ParamRef", "string", 0, "ParamRef indicates the param resource which sets the configuration param", ""), vapbParamRef),
				ageColumn},
			Hooks: resource.Hooks{Default: admissionregistration.DefaultBinding, Validate: admissionregistration.ValidateBinding},
		}},
	)
}
