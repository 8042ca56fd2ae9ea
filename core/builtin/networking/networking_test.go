package networking_test

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apiserver"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
	"github.com/kubesandbox/kubesandbox/core/builtin/networking"
)

// The texts are kube-apiserver v1.37.2's (reference/validation compares
// them case by case with k8s.io/kubernetes).
func TestValidateIngress(t *testing.T) {
	ing := func(spec string) string {
		return `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i","namespace":"default"},"spec":` + spec + `}`
	}
	vtest.Run(t, "networking.k8s.io", "ingresses", []vtest.Case{
		{Name: "a rule to a service", Obj: ing(`{"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}`)},
		{Name: "nothing to route", Obj: ing(`{}`), Want: []string{"spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"}},
		{Name: "no pathType, no port", Obj: ing(`{"rules":[{"http":{"paths":[{"path":"/","backend":{"service":{"name":"web"}}}]}}],"defaultBackend":{"service":{"name":"web"}}}`), Want: []string{
			"spec.defaultBackend: Required value: port name or number is required",
			"spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"}},
		{Name: "an IP as host", Obj: ing(`{"rules":[{"host":"10.0.0.1"}]}`), Want: []string{
			`spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address`}},
	})
}

func TestValidateNetworkPolicy(t *testing.T) {
	np := func(spec string) string {
		return `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"n","namespace":"default"},"spec":` + spec + `}`
	}
	vtest.Run(t, "networking.k8s.io", "networkpolicies", []vtest.Case{
		{Name: "deny all", Obj: np(`{"podSelector":{}}`)},
		{Name: "empty peer, bad range", Obj: np(`{"podSelector":{},"ingress":[{"from":[{}],"ports":[{"port":80,"endPort":79}]}]}`), Want: []string{
			"spec.ingress[0].ports[0].endPort: Invalid value: 79: must be greater than or equal to `port`",
			"spec.ingress[0].from[0]: Required value: must specify a peer"}},
		{Name: "ambiguous CIDR", Obj: np(`{"podSelector":{},"egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}`), Want: []string{
			`spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.1/8": must not have bits set beyond the prefix length`}},
		{Name: "an invalid CIDR kept on update", Old: np(`{"podSelector":{},"egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}`),
			Obj: np(`{"podSelector":{"matchLabels":{"a":"b"}},"egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.1/8"}}]}]}`)},
	})
}

func TestWarnings(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"ingress class annotation", networking.IngressWarnings(map[string]any{"metadata": map[string]any{"annotations": map[string]any{"kubernetes.io/ingress.class": "nginx"}}, "spec": map[string]any{}}, nil),
			[]string{`annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`}},
		{"class name set", networking.IngressWarnings(map[string]any{"metadata": map[string]any{"annotations": map[string]any{"kubernetes.io/ingress.class": "nginx"}}, "spec": map[string]any{"ingressClassName": "nginx"}}, nil), nil},
		{"IPv6 CIDR not canonical", networking.NetworkPolicyWarnings(map[string]any{"spec": map[string]any{"ingress": []any{map[string]any{"from": []any{map[string]any{"ipBlock": map[string]any{"cidr": "2001:DB8::/32"}}}}}}}, nil),
			[]string{`spec.ingress[0].from[0].ipBlock.cidr: IPv6 CIDR value "2001:DB8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
}

// The warning reaches the client as a Warning header, on a successful
// create only (kubectl prints it as "Warning: annotation ...").
func TestIngressWarningHeader(t *testing.T) {
	h := apiserver.New(apiserver.Options{})
	const path = "/apis/networking.k8s.io/v1/namespaces/default/ingresses"
	body := func(name, spec string) string {
		return `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"` + name +
			`","annotations":{"kubernetes.io/ingress.class":"nginx"}},"spec":` + spec + `}`
	}
	const backend = `{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}}`
	for _, c := range []struct {
		name, body string
		code       int
		warning    string
	}{
		{"annotation only", body("a", backend), 201, `299 - "annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"`},
		{"refused", body("b", `{}`), 422, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != c.code || rec.Header().Get("Warning") != c.warning {
				t.Errorf("got %d, Warning %q; want %d, %q\n%s", rec.Code, rec.Header().Get("Warning"), c.code, c.warning, rec.Body)
			}
		})
	}
}
