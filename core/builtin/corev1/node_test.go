package corev1_test

import (
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// TestValidateNode checks ValidateNode / ValidateNodeUpdate's texts (the
// real server's, from reference/validation's differential).
func TestValidateNode(t *testing.T) {
	node := func(spec string) string {
		return `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","resourceVersion":"1"},"spec":` + spec + `}`
	}
	dup := `metadata.taints[1]: Duplicate value: {"Key":"a","Value":"","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair`
	vtest.Run(t, "", "nodes", []vtest.Case{
		{Name: "a node", Obj: node(`{"podCIDRs":["10.244.0.0/24","fd00::/64"]}`)},
		{Name: "duplicate taint, checked under metadata", Obj: node(`{"taints":[{"key":"a","effect":"NoSchedule"},{"key":"a","effect":"NoSchedule"}]}`), Want: []string{dup}},
		{Name: "two IPv4 pod CIDRs", Obj: node(`{"podCIDRs":["10.0.0.0/24","10.1.0.0/24"]}`), Want: []string{
			`spec.podCIDRs: Invalid value: ["10.0.0.0/24","10.1.0.0/24"]: may specify no more than one CIDR for each IP family`}},
		{Name: "update: taints twice, podCIDRs and providerID fixed once set", Old: node(`{"podCIDRs":["10.0.0.0/24"],"providerID":"p"}`),
			Obj: node(`{"podCIDRs":["10.9.0.0/24"],"providerID":"q","taints":[{"key":"a","effect":"NoSchedule"},{"key":"a","effect":"NoSchedule"}]}`), Want: []string{
				dup,
				`spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`,
				`spec.providerID: Invalid value: null: field cannot be modified once set`,
				dup}},
	})
}

func TestNodeWarnings(t *testing.T) {
	got := corev1.NodeWarnings(map[string]any{"spec": map[string]any{"externalID": "x", "podCIDRs": []any{"2001:DB8::/64"}}}, nil)
	want := `spec.externalID: this field is deprecated, and is unused by Kubernetes|spec.podCIDRs[0]: IPv6 CIDR value "2001:DB8::/64" should be in RFC 5952 canonical format ("2001:db8::/64")`
	if strings.Join(got, "|") != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
