package openapi

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

func TestAggregatedDiscovery(t *testing.T) {
	rs := []*resource.Resource{
		{Group: "a.example.com", Version: "v1beta1", Resource: "gadgets", Singular: "gadget", Kind: "Gadget", CRD: true},
		{Group: "a.example.com", Version: "v1", Resource: "gadgets", Singular: "gadget", Kind: "Gadget", CRD: true, Namespaced: true,
			ShortNames: []string{"gd"}, Categories: []string{"all"}, Status: true, Scale: &resource.Scale{}},
		{Group: "batch", Version: "v1", Resource: "jobs", Singular: "job", Kind: "Job", Namespaced: true, Status: true},
		{Group: "apps", Version: "v1", Resource: "deployments", Singular: "deployment", Kind: "Deployment", Namespaced: true, Status: true, Scale: &resource.Scale{}},
		{Version: "v1", Resource: "namespaces", Singular: "namespace", Kind: "Namespace", Verbs: []string{"get", "list"}},
	}
	t.Run("apis", func(t *testing.T) {
		got := string(AggregatedDiscovery(rs, false))
		want := `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[` +
			`{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[{"resource":"deployments","responseKind":{"group":"","version":"","kind":"Deployment"},"scope":"Namespaced","singularResource":"deployment","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],` +
			`"subresources":[{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]},{"subresource":"status","responseKind":{"group":"","version":"","kind":"Deployment"},"verbs":["get","patch","update"]}]}],"freshness":"Current"}]},` +
			`{"metadata":{"name":"batch"},"versions":[{"version":"v1","resources":[{"resource":"jobs","responseKind":{"group":"","version":"","kind":"Job"},"scope":"Namespaced","singularResource":"job","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],` +
			`"subresources":[{"subresource":"status","responseKind":{"group":"","version":"","kind":"Job"},"verbs":["get","patch","update"]}]}],"freshness":"Current"}]},` +
			`{"metadata":{"name":"a.example.com"},"versions":[{"version":"v1","resources":[{"resource":"gadgets","responseKind":{"group":"a.example.com","version":"v1","kind":"Gadget"},"scope":"Namespaced","singularResource":"gadget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["gd"],"categories":["all"],` +
			`"subresources":[{"subresource":"status","responseKind":{"group":"a.example.com","version":"v1","kind":"Gadget"},"verbs":["get","patch","update"]},{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]}]}],"freshness":"Current"},` +
			`{"version":"v1beta1","resources":[{"resource":"gadgets","responseKind":{"group":"a.example.com","version":"v1beta1","kind":"Gadget"},"scope":"Cluster","singularResource":"gadget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"]}],"freshness":"Current"}]}]}`
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("api", func(t *testing.T) {
		got := string(AggregatedDiscovery(rs, true))
		want := `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{},"versions":[{"version":"v1","resources":[` +
			`{"resource":"namespaces","responseKind":{"group":"","version":"","kind":"Namespace"},"scope":"Cluster","singularResource":"namespace","verbs":["get","list"]}],"freshness":"Current"}]}]}`
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("own subresources sorted with status", func(t *testing.T) {
		// kube-apiserver v1.37.2's pods: binding, eviction (policy/v1), status
		pods := []*resource.Resource{{Version: "v1", Resource: "pods", Singular: "pod", Kind: "Pod", Namespaced: true, Status: true,
			Verbs: []string{"get"}, Subresources: []resource.Subresource{
				{Name: "eviction", Group: "policy", Version: "v1", Kind: "Eviction", Verbs: []string{"create"}},
				{Name: "binding", Kind: "Binding", Verbs: []string{"create"}},
			}}}
		got := string(AggregatedDiscovery(pods, true))
		want := `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{},"versions":[{"version":"v1","resources":[` +
			`{"resource":"pods","responseKind":{"group":"","version":"","kind":"Pod"},"scope":"Namespaced","singularResource":"pod","verbs":["get"],"subresources":[` +
			`{"subresource":"binding","responseKind":{"group":"","version":"","kind":"Binding"},"verbs":["create"]},` +
			`{"subresource":"eviction","responseKind":{"group":"policy","version":"v1","kind":"Eviction"},"verbs":["create"]},` +
			`{"subresource":"status","responseKind":{"group":"","version":"","kind":"Pod"},"verbs":["get","patch","update"]}]}],"freshness":"Current"}]}]}`
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("empty", func(t *testing.T) {
		want := `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[]}`
		if got := string(AggregatedDiscovery(nil, false)); got != want {
			t.Fatalf("got %s", got)
		}
	})
}

func TestAggregatedDiscoveryMedia(t *testing.T) {
	const v2 = "g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	for _, tc := range []struct {
		name, accept, media string
	}{
		{"client-go", "application/json;" + v2 + ",application/json", "application/json"},
		{"kubectl 1.32", "application/json;" + v2 + ",application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", "application/json"},
		{"nopeer profile", "application/json;" + v2 + ";profile=nopeer", "application/json"},
		{"plain json", "application/json", ""},
		{"no header", "", ""},
		{"v2beta1 only", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", ""},
		{"aggregated clause after a plain one", "application/json, application/json;" + v2, "application/json"},
		{"yaml", "application/yaml;" + v2, "application/yaml"},
		{"wildcard", "*/*;" + v2, "application/json"},
		{"q decides", "application/json;" + v2 + ";q=0.5,application/yaml;" + v2, "application/yaml"},
		{"specific before wildcard whatever q", "application/*;" + v2 + ",application/yaml;" + v2 + ";q=0.9", "application/yaml"},
		{"protobuf skipped", "application/vnd.kubernetes.protobuf;" + v2 + ",application/json;" + v2, "application/json"},
		{"stream=watch on yaml", "application/yaml;" + v2 + ";stream=watch", ""},
		{"server version", "application/json;" + v2 + ";sv=v1", ""},
		{"missing as", "application/json;g=apidiscovery.k8s.io;v=v2", ""},
		{"other type", "text/plain;" + v2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			media, ok := AggregatedDiscoveryMedia(tc.accept)
			if media != tc.media || ok != (tc.media != "") {
				t.Fatalf("got (%q, %v), want %q", media, ok, tc.media)
			}
		})
	}
}

func TestCompareKubeAwareVersions(t *testing.T) {
	vs := []string{"v1alpha1", "foo", "v2", "v1", "v1beta2", "bar", "v1beta1", "v10", "v3alpha2"}
	sort.Slice(vs, func(i, j int) bool { return CompareKubeAwareVersions(vs[i], vs[j]) > 0 })
	if got := strings.Join(vs, " "); got != "v10 v2 v1 v1beta2 v1beta1 v3alpha2 v1alpha1 bar foo" {
		t.Fatalf("order %s", got)
	}
}

// parseKubeVersion reads what apimachinery's expression matches, and only that.
func TestParseKubeVersionIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^v([\d]+)(?:(alpha|beta)([\d]+))?$`)
	for _, v := range []string{"v1", "v10", "v0", "v1beta1", "v2alpha3", "v1beta", "v1alpha", "v1gamma1", "vbeta1",
		"v", "", "1", "v1 ", " v1", "v1beta1x", "v1beta01", "v-1", "v+1", "v1beta+1", "V1", "v1Beta1", "v١",
		"v99999999999999999999", "v1beta99999999999999999999", "foo", "v1.2"} {
		t.Run(v, func(t *testing.T) {
			m := re.FindStringSubmatch(v)
			major, typ, minor, ok := parseKubeVersion(v)
			want := m != nil
			if want {
				mj, err := strconv.Atoi(m[1])
				want = err == nil
				if want && m[2] != "" {
					mn, err := strconv.Atoi(m[3])
					want = err == nil
					if want && (mn != minor || typ != map[string]int{"alpha": 0, "beta": 1}[m[2]]) {
						t.Errorf("typ %d minor %d, want %s %s", typ, minor, m[2], m[3])
					}
				} else if want && typ != 2 {
					t.Errorf("typ %d, want 2 (GA)", typ)
				}
				if want && mj != major {
					t.Errorf("major %d, want %s", major, m[1])
				}
			}
			if ok != want {
				t.Errorf("ok %v, want %v (regexp match %q)", ok, want, m)
			}
		})
	}
}
