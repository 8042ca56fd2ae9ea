package controllers_test

import (
	"strings"
	"testing"
)

// TestNamespaceTermination deletes a namespace holding a Deployment with
// Pods, ConfigMaps, a Job and a ConfigMap that a finalizer holds, and
// follows the namespace controller's status conditions to the end.
func TestNamespaceTermination(t *testing.T) {
	e := start(t)
	const ns = "/api/v1/namespaces/demo"
	e.must(201, "POST", "/api/v1/namespaces", "application/json", m{"metadata": m{"name": "demo"}})
	e.must(201, "POST", "/apis/apps/v1/namespaces/demo/deployments", "application/json", deployment("web", 2, "nginx"))
	e.must(201, "POST", ns+"/configmaps", "application/json", m{"metadata": m{"name": "conf"}, "data": m{"a": "b"}})
	e.must(201, "POST", ns+"/configmaps", "application/json", m{"metadata": m{"name": "held", "finalizers": []any{"example.com/hold"}}})
	e.must(201, "POST", "/apis/batch/v1/namespaces/demo/jobs", "application/json", m{"metadata": m{"name": "pi"},
		"spec": m{"template": m{"spec": m{"restartPolicy": "Never", "containers": []any{m{"name": "pi", "image": "perl"}}}}}})
	e.eventually("workloads up", func() (bool, string) {
		return len(e.items(ns+"/pods")) == 3, ""
	})
	e.must(200, "DELETE", ns, "", nil)

	want := map[string][3]string{ // type → status, reason, message while "held" holds the namespace
		"NamespaceDeletionDiscoveryFailure":           {"False", "ResourcesDiscovered", "All resources successfully discovered"},
		"NamespaceDeletionGroupVersionParsingFailure": {"False", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
		"NamespaceDeletionContentFailure":             {"False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
		"NamespaceContentRemaining":                   {"True", "SomeResourcesRemain", "Some resources are remaining: configmaps. has 1 resource instances"},
		"NamespaceFinalizersRemaining":                {"True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"},
	}
	var last m
	e.eventually("held by the finalizer", func() (bool, string) {
		last = e.must(200, "GET", ns, "", nil)
		c := cond(last, "NamespaceContentRemaining")
		return c != nil && c["message"] == want["NamespaceContentRemaining"][2], js(get(last, "status"))
	})
	if gets(last, "status", "phase") != "Terminating" {
		t.Errorf("phase = %q", gets(last, "status", "phase"))
	}
	var order []string
	for _, c := range anyList(get(last, "status", "conditions")) {
		order = append(order, gets(c, "type"))
	}
	if got := strings.Join(order, ","); got != "NamespaceDeletionDiscoveryFailure,NamespaceDeletionGroupVersionParsingFailure,NamespaceDeletionContentFailure,NamespaceContentRemaining,NamespaceFinalizersRemaining" {
		t.Errorf("condition order = %s", got)
	}
	for typ, w := range want {
		t.Run(typ, func(t *testing.T) {
			c := cond(last, typ)
			if c == nil || c["status"] != w[0] || c["reason"] != w[1] || c["message"] != w[2] || gets(c, "lastTransitionTime") == "" {
				t.Errorf("%s = %v, want %v", typ, c, w)
			}
		})
	}
	for _, p := range []string{ns + "/pods", ns + "/configmaps", "/apis/apps/v1/namespaces/demo/deployments",
		"/apis/apps/v1/namespaces/demo/replicasets", "/apis/batch/v1/namespaces/demo/jobs"} {
		var names []string
		for _, o := range e.items(p) {
			names = append(names, gets(o, "metadata", "name"))
		}
		if want := map[string]string{ns + "/configmaps": "held"}[p]; strings.Join(names, ",") != want {
			t.Errorf("%s holds %v, want [%s]", p, names, want)
		}
	}
	mf := anyList(get(last, "metadata", "managedFields"))
	found := false
	for _, f := range mf {
		found = found || (gets(f, "manager") == "kube-controller-manager" && gets(f, "subresource") == "status")
	}
	if !found {
		t.Errorf("no status entry of kube-controller-manager in managedFields: %s", js(mf))
	}

	e.must(200, "PATCH", ns+"/configmaps/held", "application/merge-patch+json", m{"metadata": m{"finalizers": nil}})
	e.eventually("namespace gone", func() (bool, string) {
		code, o := e.do("GET", ns, "", nil)
		return code == 404, js(get(o, "status"))
	})
}
