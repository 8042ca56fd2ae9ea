package controllers_test

import (
	"strings"
	"testing"
)

// What kube-controller-manager's serviceaccount and root-ca-cert-publisher
// controllers put in every namespace, as the real control plane answers
// (GET .../serviceaccounts/default and .../configmaps/kube-root-ca.crt).
func TestNamespaceDefaults(t *testing.T) {
	e := startNodes(t, 0)
	e.must(201, "POST", "/api/v1/namespaces", "application/json", m{"metadata": m{"name": "team"}})
	sa := "/api/v1/namespaces/team/serviceaccounts/default"
	cm := "/api/v1/namespaces/team/configmaps/kube-root-ca.crt"
	waitFor := func(path string) m {
		t.Helper()
		var out m
		e.eventually(path, func() (bool, string) {
			code, o := e.do("GET", path, "", nil)
			out = o
			return code == 200, gets(o, "message")
		})
		return out
	}
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease", "team"} {
		t.Run("in "+ns, func(t *testing.T) {
			s := waitFor("/api/v1/namespaces/" + ns + "/serviceaccounts/default")
			if mf := get(s, "metadata", "managedFields"); mf != nil {
				t.Errorf("ServiceAccount managedFields = %v, want none (the write sets no field)", mf)
			}
			if len(s) != 3 { // kind, apiVersion, metadata
				t.Errorf("ServiceAccount = %v, want only its metadata", s)
			}
			c := waitFor("/api/v1/namespaces/" + ns + "/configmaps/kube-root-ca.crt")
			if ca := gets(c, "data", "ca.crt"); !strings.HasPrefix(ca, "-----BEGIN CERTIFICATE-----\n") {
				t.Errorf("ca.crt = %q", ca)
			}
			if d := gets(c, "metadata", "annotations", "kubernetes.io/description"); !strings.HasPrefix(d, "Contains a CA bundle") {
				t.Errorf("description = %q", d)
			}
			mf, _ := get(c, "metadata", "managedFields").([]any)
			if len(mf) != 1 || gets(mf[0], "manager") != "kube-controller-manager" {
				t.Errorf("ConfigMap managedFields = %v", mf)
			}
		})
	}
	t.Run("deleted, they come back", func(t *testing.T) {
		old := gets(waitFor(sa), "metadata", "uid")
		e.must(200, "DELETE", sa, "", nil)
		e.must(200, "DELETE", cm, "", nil)
		e.eventually("a new default ServiceAccount", func() (bool, string) {
			code, o := e.do("GET", sa, "", nil)
			return code == 200 && gets(o, "metadata", "uid") != old, gets(o, "metadata", "uid")
		})
		waitFor(cm)
	})
	t.Run("edited, the CA bundle is put back", func(t *testing.T) {
		c := waitFor(cm)
		want := gets(c, "data", "ca.crt")
		c["data"] = m{"ca.crt": "forged", "extra": "x"}
		e.must(200, "PUT", cm, "application/json", c)
		e.eventually("the CA bundle back", func() (bool, string) {
			o := e.must(200, "GET", cm, "", nil)
			d, _ := get(o, "data").(map[string]any)
			return len(d) == 1 && d["ca.crt"] == want, gets(o, "data", "ca.crt")
		})
	})
}
