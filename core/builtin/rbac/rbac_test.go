package rbac_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateRBAC(t *testing.T) {
	const g = "rbac.authorization.k8s.io"
	role := `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r","namespace":"default"},"rules":[{"apiGroups":[""],"resources":["pods"]},{"nonResourceURLs":["/x"],"verbs":["get"]}]}`
	vtest.Run(t, g, "roles", []vtest.Case{
		{Name: "rules without verbs, URLs in a namespace", Obj: role, Want: []string{
			"rules[0].verbs: Required value: verbs must contain at least one value",
			`rules[1].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs`}},
	})
	rb := func(ref string) string {
		return `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"b","namespace":"default","resourceVersion":"1"},"roleRef":` + ref + `,"subjects":[{"kind":"User","name":"jane"}]}`
	}
	vtest.Run(t, g, "rolebindings", []vtest.Case{
		{Name: "groups defaulted", Obj: rb(`{"kind":"Role","name":"reader"}`)},
		{Name: "roleRef is immutable", Old: rb(`{"kind":"Role","name":"reader"}`), Obj: rb(`{"kind":"ClusterRole","name":"reader"}`), Want: []string{
			`roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"reader"}: field is immutable`}},
	})
}
