package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// The kinds a learner meets beyond the workloads are served as a cluster
// serves them: created, read back, listed, printed as a Table with their
// own first columns, and named in discovery.
func TestKindsServed(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct {
		name, path, body, column string
	}{
		{"lease", "/apis/coordination.k8s.io/v1/namespaces/default/leases", `{"metadata":{"name":"l"},"spec":{"holderIdentity":"me"}}`, "Holder"},
		{"limitrange", "/api/v1/namespaces/default/limitranges", `{"metadata":{"name":"l"},"spec":{"limits":[{"type":"Container","default":{"cpu":"500m"}}]}}`, "Created At"},
		{"resourcequota", "/api/v1/namespaces/default/resourcequotas", `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"10"}}}`, "Request"},
		{"pvc", "/api/v1/namespaces/default/persistentvolumeclaims", `{"metadata":{"name":"c"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`, "Status"},
		{"pv", "/api/v1/persistentvolumes", `{"metadata":{"name":"v"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp"}}}`, "Capacity"},
		{"storageclass", "/apis/storage.k8s.io/v1/storageclasses", `{"metadata":{"name":"standard"},"provisioner":"rancher.io/local-path"}`, "Provisioner"},
		{"ingress", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", `{"metadata":{"name":"i"},"spec":{"rules":[{"host":"a.example.com"}]}}`, "Class"},
		{"ingressclass", "/apis/networking.k8s.io/v1/ingressclasses", `{"metadata":{"name":"nginx"},"spec":{"controller":"k8s.io/ingress-nginx"}}`, "Controller"},
		{"networkpolicy", "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies", `{"metadata":{"name":"n"},"spec":{"podSelector":{}}}`, "Pod-Selector"},
		{"hpa", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", `{"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5}}`, "Reference"},
		{"pdb", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", `{"metadata":{"name":"p"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}}}}`, "Min Available"},
		{"priorityclass", "/apis/scheduling.k8s.io/v1/priorityclasses", `{"metadata":{"name":"high"},"value":1000}`, "Value"},
		{"controllerrevision", "/apis/apps/v1/namespaces/default/controllerrevisions", `{"metadata":{"name":"r"},"revision":1,"data":{}}`, "Controller"},
		{"role", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", `{"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}`, "Created At"},
		{"clusterrole", "/apis/rbac.authorization.k8s.io/v1/clusterroles", `{"metadata":{"name":"r"},"rules":[]}`, "Created At"},
		{"rolebinding", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", `{"metadata":{"name":"b"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":[{"kind":"User","name":"jane"}]}`, "Role"},
		{"clusterrolebinding", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", `{"metadata":{"name":"b"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"r"}}`, "Role"},
	} {
		t.Run(c.name, func(t *testing.T) {
			mustDo(t, s, 201, "POST", c.path, "application/json", c.body)
			var obj struct{ Metadata struct{ Name string } }
			_ = json.Unmarshal([]byte(c.body), &obj)
			name := obj.Metadata.Name
			mustDo(t, s, 200, "GET", c.path+"/"+name, "", "")
			req := httptest.NewRequest("GET", c.path, nil)
			req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var tbl struct {
				Columns []struct{ Name string } `json:"columnDefinitions"`
				Rows    []struct{ Cells []any } `json:"rows"`
			}
			err := json.Unmarshal(w.Body.Bytes(), &tbl)
			// the object written, beside what the cluster holds from its
			// start (the system PriorityClasses)
			tbl.Rows = slices.DeleteFunc(tbl.Rows, func(r struct{ Cells []any }) bool { return len(r.Cells) == 0 || r.Cells[0] != name })
			if err != nil || w.Code != 200 || len(tbl.Rows) != 1 || len(tbl.Columns) < 2 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			found := false
			for _, col := range tbl.Columns {
				found = found || col.Name == c.column
			}
			if !found || tbl.Rows[0].Cells[0] != name {
				t.Errorf("columns %v, row %v; want a %q column and the name first", tbl.Columns, tbl.Rows[0].Cells, c.column)
			}
		})
	}
}

// Columns kube-apiserver v1.37.2 prints, in full (kubectl get output):
// a ServiceAccount has Name and Age only — kube's printer dropped Secrets.
func TestTableColumnsExactly(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct{ name, path, want string }{
		{"serviceaccounts", "/api/v1/namespaces/default/serviceaccounts", "Name,Age"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", c.path, nil)
			req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var tbl struct {
				Columns []struct{ Name string } `json:"columnDefinitions"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &tbl); err != nil || w.Code != 200 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			var names []string
			for _, col := range tbl.Columns {
				names = append(names, col.Name)
			}
			if got := strings.Join(names, ","); got != c.want {
				t.Errorf("columns %s, want %s", got, c.want)
			}
		})
	}
}

// Cells kube's printers write where a JSONPath default would differ:
// a RoleBinding's service accounts as namespace/name
// (rbac.SubjectsStrings), an unbound claim's empty Volume.
func TestTableCellsAsKubePrints(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct{ name, path, body, column, want string }{
		{"rolebinding service accounts", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
			`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"rb"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":[{"kind":"ServiceAccount","name":"robot","namespace":"tour"},{"kind":"ServiceAccount","name":"b","namespace":"x"}]}`,
			"ServiceAccounts", "tour/robot, x/b"},
		{"unbound claim's volume", "/api/v1/namespaces/default/persistentvolumeclaims",
			`{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`,
			"Volume", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			mustDo(t, s, 201, "POST", c.path, "application/json", c.body)
			req := httptest.NewRequest("GET", c.path, nil)
			req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			var tbl struct {
				Columns []struct{ Name string } `json:"columnDefinitions"`
				Rows    []struct{ Cells []any } `json:"rows"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &tbl); err != nil || w.Code != 200 || len(tbl.Rows) != 1 {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			for i, col := range tbl.Columns {
				if col.Name == c.column {
					if got := tbl.Rows[0].Cells[i]; got != c.want {
						t.Errorf("%s = %q, want %q", c.column, got, c.want)
					}
					return
				}
			}
			t.Errorf("no %s column in %v", c.column, tbl.Columns)
		})
	}
}
