package controllers_test

import (
	"fmt"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

// TestResourceQuota: the controller fills a quota's status, admission
// counts what it admits at once and refuses what exceeds it, and a
// deleted object's usage is given back.
func TestResourceQuota(t *testing.T) {
	e := startWith(t, apiserver.Options{}, controllers.Options{Nodes: 0, Instant: true})
	const ns = "/api/v1/namespaces/default"
	e.must(201, "POST", ns+"/resourcequotas", "application/json", m{"metadata": m{"name": "q"},
		"spec": m{"hard": m{"pods": "2", "configmaps": "5", "requests.cpu": "1"}}})
	used := func(res string) string {
		return gets(e.must(200, "GET", ns+"/resourcequotas/q", "", nil), "status", "used", res)
	}
	status := func(want map[string]string) func() (bool, string) {
		return func() (bool, string) {
			q := e.must(200, "GET", ns+"/resourcequotas/q", "", nil)
			got := fmt.Sprint(get(q, "status"))
			for k, v := range want {
				if gets(q, "status", "used", k) != v {
					return false, got
				}
			}
			return gets(q, "status", "hard", "pods") == "2", got
		}
	}
	// default holds kube-root-ca.crt once the controller published it
	e.eventually("status filled", status(map[string]string{"pods": "0", "requests.cpu": "0", "configmaps": "1"}))
	pod := func(name, cpu string) m {
		return m{"metadata": m{"name": name}, "spec": m{"containers": []any{m{"name": "a", "image": "x",
			"resources": m{"requests": m{"cpu": cpu}}}}}}
	}
	e.must(201, "POST", ns+"/pods", "application/json", pod("a", "600m"))
	if got := used("requests.cpu"); got != "600m" {
		t.Errorf("after a create, used requests.cpu %q, want 600m (admission counts at once)", got)
	}
	cases := []struct {
		name, pod, cpu string
		code           int
		msg            string
	}{
		{"over requests.cpu", "b", "500m", 403, `pods "b" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1`},
		{"within", "c", "400m", 201, ""},
		{"over pods and cpu", "d", "1", 403, `pods "d" is forbidden: exceeded quota: q, requested: pods=1,requests.cpu=1, used: pods=2,requests.cpu=1, limited: pods=2,requests.cpu=1`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := e.do("POST", ns+"/pods", "application/json", pod(c.pod, c.cpu))
			if code != c.code || (c.msg != "" && out["message"] != c.msg) {
				t.Errorf("%d %v, want %d %q", code, out["message"], c.code, c.msg)
			}
		})
	}
	e.must(200, "DELETE", ns+"/pods/a", "", nil)
	e.eventually("usage given back", status(map[string]string{"pods": "1", "requests.cpu": "400m"}))
	e.must(200, "PUT", ns+"/resourcequotas/q", "application/json", m{"metadata": m{"name": "q"},
		"spec": m{"hard": m{"pods": "3", "secrets": "4"}}})
	e.eventually("new hard computed", func() (bool, string) {
		q := e.must(200, "GET", ns+"/resourcequotas/q", "", nil)
		return gets(q, "status", "hard", "pods") == "3" && gets(q, "status", "used", "secrets") == "0" && get(q, "status", "used", "requests.cpu") == nil, fmt.Sprint(q["status"])
	})
}
