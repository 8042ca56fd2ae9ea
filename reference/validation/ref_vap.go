package validation

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	admissionregistrationvalidation "k8s.io/kubernetes/pkg/apis/admissionregistration/validation"
)

func init() { Kinds = append(Kinds, vapKinds...) }

// refVAP runs the admissionregistration strategies (issue 19): the policy's
// status is the server's on create and kept on update.
func refVAP(obj, old runtime.Object) (errs field.ErrorList, ok bool) {
	switch o := obj.(type) {
	case *admissionregistration.ValidatingAdmissionPolicy:
		if old == nil {
			o.Status = admissionregistration.ValidatingAdmissionPolicyStatus{}
			return admissionregistrationvalidation.ValidateValidatingAdmissionPolicy(o), true
		}
		op := old.(*admissionregistration.ValidatingAdmissionPolicy)
		o.Status = op.Status
		return admissionregistrationvalidation.ValidateValidatingAdmissionPolicyUpdate(o, op), true
	case *admissionregistration.ValidatingAdmissionPolicyBinding:
		if old == nil {
			errs = admissionregistrationvalidation.ValidateValidatingAdmissionPolicyBinding(o)
		} else {
			errs = admissionregistrationvalidation.ValidateValidatingAdmissionPolicyBindingUpdate(o, old.(*admissionregistration.ValidatingAdmissionPolicyBinding))
		}
		// kube-apiserver v1.37.2 answers the declarative validation's text
		// for what the handwritten code marks covered (recorded in
		// cel-vap-params: "spec.validationActions: Required value")
		for _, e := range errs {
			if e.CoveredByDeclarative && e.Type == field.ErrorTypeRequired {
				e.Detail = ""
			}
		}
		return errs, true
	}
	return nil, false
}

// vapKinds mutate structure only: expressions stay ones that compile (the
// differential server has no CEL engine; cel/policy checks compilation).
var vapKinds = []*Kind{
	{Name: "ValidatingAdmissionPolicy", GVK: gvk("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"), Plural: "validatingadmissionpolicies", Cluster: true,
		Base: `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"p"},"spec":{"failurePolicy":"Fail",` +
			`"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["deployments"]}]},` +
			`"validations":[{"expression":"object.spec.replicas <= 5","message":"too many"}],"auditAnnotations":[{"key":"a","valueExpression":"'x'"}]}}`,
		Own: []Mut{{Path: "spec.failurePolicy", Val: "Sometimes"}, {Path: "spec.failurePolicy", Val: "Ignore"}, {Path: "spec.failurePolicy", Del: true},
			{Path: "spec.matchConstraints", Del: true}, {Path: "spec.matchConstraints.resourceRules", Val: l{}},
			{Path: "spec.matchConstraints.matchPolicy", Val: "Fuzzy"}, {Path: "spec.matchConstraints.matchPolicy", Val: "Exact"},
			{Path: "spec.matchConstraints.namespaceSelector", Val: m{"matchLabels": m{"env": "prod"}}},
			{Path: "spec.matchConstraints.namespaceSelector", Val: m{"matchExpressions": l{m{"key": "a", "operator": "Near"}}}},
			{Path: "spec.matchConstraints.objectSelector", Val: m{"matchLabels": m{"bad key!": "x"}}},
			{Path: "spec.matchConstraints.resourceRules.0.apiGroups", Val: l{"*", "apps"}}, {Path: "spec.matchConstraints.resourceRules.0.apiGroups", Val: l{}},
			{Path: "spec.matchConstraints.resourceRules.0.apiVersions", Val: l{"", "*"}}, {Path: "spec.matchConstraints.resourceRules.0.operations", Val: l{"READ", "*"}},
			{Path: "spec.matchConstraints.resourceRules.0.operations", Val: l{}}, {Path: "spec.matchConstraints.resourceRules.0.resources", Val: l{"*/*", "pods"}},
			{Path: "spec.matchConstraints.resourceRules.0.resources", Val: l{"pods/*", "pods/status"}}, {Path: "spec.matchConstraints.resourceRules.0.resources", Val: l{"*", "pods", ""}},
			{Path: "spec.matchConstraints.resourceRules.0.resources", Val: l{"*/scale", "deployments/scale"}},
			{Path: "spec.matchConstraints.resourceRules.0.scope", Val: "Anywhere"}, {Path: "spec.matchConstraints.resourceRules.0.resourceNames", Val: l{"a", "a", "b/c"}},
			{Path: "spec.matchConstraints.excludeResourceRules", Val: l{m{"apiGroups": l{""}, "apiVersions": l{"v1"}, "operations": l{"DELETE"}, "resources": l{}}}},
			{Path: "spec.paramKind", Val: m{"apiVersion": "v1", "kind": "ConfigMap"}}, {Path: "spec.paramKind", Val: m{"apiVersion": "a/b/c", "kind": "Not_A_Kind"}},
			{Path: "spec.paramKind", Val: m{}}, {Path: "spec.paramKind", Val: m{"apiVersion": "Bad_Group/v1", "kind": "x"}}, {Path: "spec.paramKind", Val: m{"apiVersion": "g.io/", "kind": "K"}},
			{Path: "spec.validations", Val: l{}}, {Path: "spec.validations", Del: true}, {Path: "spec.auditAnnotations", Del: true},
			{Path: "spec.validations.0.expression", Val: " "}, {Path: "spec.validations.0.message", Val: " "}, {Path: "spec.validations.0.message", Val: "a\nb"},
			{Path: "spec.validations.0.messageExpression", Val: " "}, {Path: "spec.validations.0.reason", Val: "Teapot"}, {Path: "spec.validations.0.reason", Val: "Forbidden"},
			{Path: "spec.auditAnnotations.0.key", Val: "bad key!"}, {Path: "spec.auditAnnotations.1", Val: m{"key": "a", "valueExpression": "'y'"}},
			{Path: "spec.auditAnnotations.0.valueExpression", Val: ""},
			{Path: "spec.variables", Val: l{m{"name": "1x", "expression": "true"}, m{"name": "", "expression": ""}, m{"name": "in", "expression": "1"}}},
			{Path: "spec.matchConditions", Val: l{m{"name": "", "expression": ""}, m{"name": "bad name!", "expression": "true"}, m{"name": "a", "expression": "true"}, m{"name": "a", "expression": "false"}}},
			{Path: "metadata.name", Val: "Bad_Name"}}},
	{Name: "ValidatingAdmissionPolicyBinding", GVK: gvk("admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding"), Plural: "validatingadmissionpolicybindings", Cluster: true,
		Base: `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"b"},"spec":{"policyName":"p","validationActions":["Deny"],` +
			`"paramRef":{"name":"limits","namespace":"default","parameterNotFoundAction":"Deny"},"matchResources":{"namespaceSelector":{"matchLabels":{"env":"prod"}}}}}`,
		Own: []Mut{{Path: "spec.policyName", Val: ""}, {Path: "spec.policyName", Val: "Bad_Policy"}, {Path: "spec.validationActions", Val: l{}},
			{Path: "spec.validationActions", Val: l{"Deny", "Warn"}}, {Path: "spec.validationActions", Val: l{"Audit", "Audit", "Shout"}}, {Path: "spec.validationActions", Del: true},
			{Path: "spec.paramRef", Val: m{}}, {Path: "spec.paramRef.selector", Val: m{"matchLabels": m{"a": "b"}}}, {Path: "spec.paramRef.name", Val: "a/b"},
			{Path: "spec.paramRef.name", Del: true}, {Path: "spec.paramRef.parameterNotFoundAction", Val: "Maybe"}, {Path: "spec.paramRef.parameterNotFoundAction", Del: true},
			{Path: "spec.paramRef", Val: m{"selector": m{"matchExpressions": l{m{"key": "k", "operator": "In"}}}, "parameterNotFoundAction": "Allow"}},
			{Path: "spec.matchResources.matchPolicy", Val: "Fuzzy"}, {Path: "spec.matchResources.namespaceSelector", Val: m{"matchLabels": m{"a": "bad value!"}}},
			{Path: "spec.matchResources.resourceRules", Val: l{m{"apiGroups": l{"*", "x"}, "apiVersions": l{}, "operations": l{"CREATE"}, "resources": l{"*/*", "a"}}}},
			{Path: "spec.matchResources", Del: true}, {Path: "spec.matchResources", Val: m{}},
			{Path: "metadata.name", Val: "Bad_Name"}}},
}
