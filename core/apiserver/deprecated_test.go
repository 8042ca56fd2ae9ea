package apiserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDeprecationWarning(t *testing.T) {
	cronjob := apiLifecycle{"batch", "v1beta1", "cronjobs", "CronJob", 21, 25, "batch/v1 CronJob"}
	tests := []struct {
		name  string
		l     apiLifecycle
		minor int
		want  string
	}{
		// the text kube-apiserver v1.21–v1.24 sent for batch/v1beta1 CronJob
		{"deprecated with removal and replacement", cronjob, 21,
			"batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"},
		{"not yet deprecated", cronjob, 20, ""},
		{"no replacement", apiLifecycle{"policy", "v1beta1", "podsecuritypolicies", "PodSecurityPolicy", 21, 25, ""}, 22,
			"policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+"},
		{"no removal planned", apiLifecycle{"", "v1", "componentstatuses", "ComponentStatus", 19, 0, ""}, 37,
			"v1 ComponentStatus is deprecated in v1.19+"},
		{"not deprecated at all", apiLifecycle{"apps", "v1", "deployments", "Deployment", 0, 0, ""}, 37, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := deprecationWarning(tt.l, tt.minor); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRemovedAPIHint(t *testing.T) {
	tests := []struct {
		name                     string
		group, version, resource string
		minor                    int
		want                     string
	}{
		{"apps/v1beta1", "apps", "v1beta1", "deployments", 37,
			"apps/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment"},
		{"extensions/v1beta1", "extensions", "v1beta1", "deployments", 37,
			"extensions/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment"},
		{"apps/v1beta2 daemonsets", "apps", "v1beta2", "daemonsets", 37,
			"apps/v1beta2 DaemonSet is removed since v1.16; use apps/v1 DaemonSet"},
		{"batch/v1beta1 cronjobs", "batch", "v1beta1", "cronjobs", 37,
			"batch/v1beta1 CronJob is removed since v1.25; use batch/v1 CronJob"},
		{"policy/v1beta1 podsecuritypolicies: no replacement", "policy", "v1beta1", "podsecuritypolicies", 37,
			"policy/v1beta1 PodSecurityPolicy is removed since v1.25"},
		{"flowcontrol v1beta3", "flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas", 37,
			"flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is removed since v1.32; use flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
		{"still served at that version", "batch", "v1beta1", "cronjobs", 24, ""},
		{"served API", "apps", "v1", "deployments", 37, ""},
		{"unknown group", "nonexistent.example.com", "v1", "widgets", 37, ""},
		{"unknown resource in a removed version", "apps", "v1beta1", "widgets", 37, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := removedAPIHint(tt.group, tt.version, tt.resource, tt.minor); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestAPILifecyclesTable(t *testing.T) {
	seen := map[gvrKey]bool{}
	for _, l := range apiLifecycles {
		k := gvrKey{l.Group, l.Version, l.Resource}
		if seen[k] {
			t.Errorf("duplicate row %v", k)
		}
		seen[k] = true
		if l.Kind == "" || l.Deprecated <= 0 || l.Removed <= l.Deprecated || l.Removed > serverMinor {
			t.Errorf("row %v: kind %q deprecated %d removed %d", k, l.Kind, l.Deprecated, l.Removed)
		}
		if strings.ToLower(l.Resource) != l.Resource {
			t.Errorf("row %v: resource must be the lower-case plural", k)
		}
	}
	// no removed row may shadow a resource we serve
	s := New(Options{})
	for _, res := range s.reg.all() {
		if _, ok := lookupLifecycle(res.Group, res.Version, res.Resource); ok {
			t.Errorf("%s/%s %s is served but listed as removed", res.Group, res.Version, res.Resource)
		}
	}
}

func TestCompareKubeAwareVersions(t *testing.T) {
	// apimachinery's order: v2, v1, v1beta2, v1beta1, v1alpha1, then
	// non-Kubernetes names
	order := []string{"v10", "v2", "v1", "v11beta2", "v1beta2", "v1beta1", "v1alpha1", "foo1", "foo10"}
	for i := range order {
		for j := range order {
			got := compareKubeAwareVersions(order[i], order[j])
			switch {
			case i < j && got <= 0, i > j && got >= 0, i == j && got != 0:
				t.Errorf("compare(%s, %s) = %d", order[i], order[j], got)
			}
		}
	}
	for _, v := range []string{"v", "v1beta", "v1gamma1", "1", "v1beta1x", "v99999999999999999999", "v1beta-1"} {
		t.Run(v, func(t *testing.T) {
			if _, _, _, ok := parseKubeVersion(v); ok {
				t.Errorf("%q parsed as a Kubernetes version", v)
			}
		})
	}
}

func TestWarningHeader(t *testing.T) {
	tests := []struct {
		name, text, want string
		ok               bool
	}{
		{"plain", "apps/v1beta1 Deployment is deprecated", `299 - "apps/v1beta1 Deployment is deprecated"`, true},
		{"quotes and backslashes escaped", `use "v1" \ now`, `299 - "use \"v1\" \\ now"`, true},
		{"non-ASCII kept as is", "Widget ist veraltet – nutze v2", `299 - "Widget ist veraltet – nutze v2"`, true},
		{"control character refused", "a\nb", "", false},
		{"invalid UTF-8 refused", "a\xffb", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := warningHeader(tt.text)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func crdWithVersions(versions ...map[string]any) map[string]any {
	vs := make([]any, len(versions))
	for i, v := range versions {
		vs[i] = v
	}
	return map[string]any{"spec": map[string]any{
		"group": "example.com", "names": map[string]any{"kind": "Widget", "plural": "widgets"},
		"versions": vs,
	}}
}

func ver(name string, served, deprecated bool, extra ...string) map[string]any {
	v := map[string]any{"name": name, "served": served, "storage": false}
	if deprecated {
		v["deprecated"] = true
	}
	if len(extra) > 0 {
		v["deprecationWarning"] = extra[0]
	}
	return v
}

func TestCRDDeprecationWarning(t *testing.T) {
	tests := []struct {
		name    string
		crd     map[string]any
		version string
		want    string
	}{
		{"not deprecated", crdWithVersions(ver("v1", true, false)), "v1", ""},
		{"custom text", crdWithVersions(ver("v1beta1", true, true, "use v1, v1beta1 goes away in June"), ver("v1", true, false)), "v1beta1",
			"use v1, v1beta1 goes away in June"},
		{"default names the newest newer served version",
			crdWithVersions(ver("v1alpha1", true, true), ver("v1beta1", true, false), ver("v1", true, false), ver("v2", false, false)), "v1alpha1",
			"example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget"},
		{"default without a newer version",
			crdWithVersions(ver("v1", true, false), ver("v2", true, true)), "v2",
			"example.com/v2 Widget is deprecated"},
		{"deprecated newer versions are not suggested",
			crdWithVersions(ver("v1beta1", true, true), ver("v1beta2", true, true)), "v1beta1",
			"example.com/v1beta1 Widget is deprecated"},
		{"unknown version", crdWithVersions(ver("v1", true, true)), "v9", ""},
		{"malformed CRD", map[string]any{"spec": "nope"}, "v1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := crdDeprecationWarning(tt.crd, tt.version); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestAddAPIWarnings drives the one call serveResource makes, with paths
// parsed as the server parses them and a CRD created through the API.
func TestAddAPIWarnings(t *testing.T) {
	s := New(Options{})
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	 "metadata":{"name":"widgets.example.com"},
	 "spec":{"group":"example.com","scope":"Namespaced",
	  "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
	  "versions":[
	   {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
	   {"name":"v1beta1","served":true,"storage":false,"deprecated":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
	   {"name":"v1alpha1","served":true,"storage":false,"deprecated":true,"deprecationWarning":"v1alpha1 is going away","schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	req := httptest.NewRequest("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", strings.NewReader(crd))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create CRD: %d %s", rec.Code, rec.Body)
	}
	tests := []struct {
		name, method, path string
		want               string
	}{
		{"removed built-in", "GET", "/apis/extensions/v1beta1/namespaces/default/deployments",
			`299 - "extensions/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment"`},
		{"removed built-in object", "DELETE", "/apis/batch/v1beta1/namespaces/default/cronjobs/c1",
			`299 - "batch/v1beta1 CronJob is removed since v1.25; use batch/v1 CronJob"`},
		{"served built-in", "GET", "/apis/apps/v1/namespaces/default/deployments", ""},
		// k8s.io/api core/v1 lifecycle.go; recorded from kube-apiserver v1.37.2
		// on list, watch, create, get, a missing object and delete
		{"deprecated served built-in", "GET", "/api/v1/namespaces/default/endpoints",
			`299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"`},
		{"deprecated served built-in object", "DELETE", "/api/v1/namespaces/default/endpoints/e1",
			`299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"`},
		{"its replacement", "GET", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", ""},
		{"unknown group", "GET", "/apis/nonexistent.example.com/v1/namespaces/default/widgets", ""},
		{"CRD default text", "GET", "/apis/example.com/v1beta1/namespaces/default/widgets",
			`299 - "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"`},
		{"CRD default text on a subresource", "GET", "/apis/example.com/v1beta1/namespaces/default/widgets/w1/status",
			`299 - "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"`},
		{"CRD list across namespaces", "GET", "/apis/example.com/v1beta1/widgets",
			`299 - "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"`},
		{"CRD get without namespace goes to the 404 handler", "GET", "/apis/example.com/v1beta1/widgets/w1", ""},
		{"CRD custom text", "POST", "/apis/example.com/v1alpha1/namespaces/default/widgets",
			`299 - "v1alpha1 is going away"`},
		{"CRD current version", "GET", "/apis/example.com/v1/namespaces/default/widgets", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.path, nil)
			ri, ok := parsePath(r.Method, r.URL.Path, r.URL.Query().Get)
			if !ok {
				t.Fatalf("parsePath(%s) not ok", tt.path)
			}
			w := httptest.NewRecorder()
			s.addAPIWarnings(w, ri, s.reg.lookup(ri.group, ri.version, ri.resource))
			if got := w.Header().Get("Warning"); got != tt.want {
				t.Errorf("Warning\n got  %q\n want %q", got, tt.want)
			}
		})
	}
}

func FuzzParseKubeVersion(f *testing.F) {
	for _, s := range []string{"v1", "v1beta1", "v2alpha3", "v", "v01", "v1beta", "foo", "v99999999999999999999"} {
		f.Add(s, "v1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := compareKubeAwareVersions(a, b), compareKubeAwareVersions(b, a)
		if (ab > 0) != (ba < 0) || (ab == 0) != (ba == 0) {
			t.Fatalf("compare(%q,%q)=%d but compare(%q,%q)=%d", a, b, ab, b, a, ba)
		}
		if a != b && ab == 0 {
			if _, _, _, ok := parseKubeVersion(a); !ok {
				t.Fatalf("distinct non-kube versions %q %q compare equal", a, b)
			}
		}
		if h, ok := warningHeader(a); ok && (!strings.HasPrefix(h, `299 - "`) || !strings.HasSuffix(h, `"`)) {
			t.Fatalf("warningHeader(%q) = %q", a, h)
		}
	})
}
