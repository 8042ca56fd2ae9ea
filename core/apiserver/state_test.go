package apiserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kubesandbox/kubesandbox/core/persist"
)

func do(t *testing.T, h http.Handler, method, path, ctype, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	return w.Code, out
}

const stateCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
 "metadata":{"name":"widgets.example.com"},
 "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}},"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}`

func seed(t *testing.T, s http.Handler) {
	t.Helper()
	for _, r := range []struct{ path, body string }{
		{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}}`},
		{"/api/v1/namespaces/team/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","labels":{"a":"b"}},"data":{"k":"v"}}`},
		{"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", stateCRD},
		{"/apis/example.com/v1/namespaces/team/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":3}}`},
	} {
		if code, out := do(t, s, "POST", r.path, "application/json", r.body); code != 201 {
			t.Fatalf("POST %s: %d %v", r.path, code, out)
		}
	}
}

func TestDurableRestart(t *testing.T) {
	m := persist.NewMem()
	a, err := NewDurable(Options{}, persist.New(m, persist.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	seed(t, a)
	rev := a.Store().Rev()

	b, err := NewDurable(Options{}, persist.New(m, persist.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("same revision, no second bootstrap", func(t *testing.T) {
		if b.Store().Rev() != rev {
			t.Fatalf("rev %d, want %d", b.Store().Rev(), rev)
		}
	})
	t.Run("custom resources are served again", func(t *testing.T) {
		code, out := do(t, b, "GET", "/apis/example.com/v1/namespaces/team/widgets/w1", "", "")
		if code != 200 || out["spec"].(map[string]any)["size"] != float64(3) {
			t.Fatalf("%d %v", code, out)
		}
	})
	t.Run("resourceVersions continue upward", func(t *testing.T) {
		code, out := do(t, b, "POST", "/api/v1/namespaces/team/configmaps", "application/json",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"later"}}`)
		if code != 201 || out["metadata"].(map[string]any)["resourceVersion"] != itoa(int64(rev)+1) {
			t.Fatalf("%d %v", code, out["metadata"])
		}
	})
	t.Run("a quota error fails the write with a Status and leaves nothing", func(t *testing.T) {
		m.Quota = m.Size() + 10
		defer func() { m.Quota = 0 }()
		before := b.Store().Rev()
		code, out := do(t, b, "POST", "/api/v1/namespaces/team/configmaps", "application/json",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":"`+strings.Repeat("x", 200)+`"}}`)
		want := "Internal error occurred: kubesandbox storage: quota exceeded (QuotaExceededError)"
		if code != 500 || out["reason"] != "InternalError" || out["message"] != want {
			t.Fatalf("%d %v", code, out)
		}
		if b.Store().Rev() != before {
			t.Errorf("rev moved to %d", b.Store().Rev())
		}
		if code, _ := do(t, b, "GET", "/api/v1/namespaces/team/configmaps/big", "", ""); code != 404 {
			t.Errorf("GET after the failed create: %d", code)
		}
	})
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestExportImport(t *testing.T) {
	a := New(Options{})
	seed(t, a)
	y, err := a.Export()
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		APIVersion string           `json:"apiVersion"`
		Kind       string           `json:"kind"`
		Items      []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(y, &list); err != nil {
		t.Fatal(err)
	}
	t.Run("a List, CRDs first, no default namespaces, no server fields", func(t *testing.T) {
		var got []string
		for _, it := range list.Items {
			md := it["metadata"].(map[string]any)
			got = append(got, it["kind"].(string)+" "+md["name"].(string))
			for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"} {
				if _, ok := md[k]; ok {
					t.Errorf("%v keeps metadata.%s", got[len(got)-1], k)
				}
			}
			if _, ok := it["status"]; ok {
				t.Errorf("%v keeps its status", got[len(got)-1])
			}
		}
		want := []string{"CustomResourceDefinition widgets.example.com", "Namespace team", "ConfigMap cfg", "Widget w1"}
		if list.APIVersion != "v1" || list.Kind != "List" || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%s %s %v, want %v", list.APIVersion, list.Kind, got, want)
		}
	})
	t.Run("import into a fresh server brings everything back", func(t *testing.T) {
		b := New(Options{})
		if err := b.Import(y); err != nil {
			t.Fatal(err)
		}
		code, out := do(t, b, "GET", "/apis/example.com/v1/namespaces/team/widgets/w1", "", "")
		if code != 200 || out["spec"].(map[string]any)["size"] != float64(3) {
			t.Fatalf("%d %v", code, out)
		}
		code, out = do(t, b, "GET", "/api/v1/namespaces/team/configmaps/cfg", "", "")
		if code != 200 || out["data"].(map[string]any)["k"] != "v" || out["metadata"].(map[string]any)["labels"].(map[string]any)["a"] != "b" {
			t.Fatalf("%d %v", code, out)
		}
		again, _ := b.Export()
		if string(again) != string(y) {
			t.Errorf("export after import differs:\n%s\nwas\n%s", again, y)
		}
		// importing twice is an update, not a conflict
		if err := b.Import(y); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("failures are reported per object and do not stop the rest", func(t *testing.T) {
		b := New(Options{})
		err := b.Import([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\napiVersion: nope/v1\nkind: Thing\nmetadata: {name: x}\n"))
		want := "import: 1 of 2 objects failed:\nThing x: no matches for kind \"Thing\" in version \"nope/v1\""
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v", err)
		}
		if code, _ := do(t, b, "GET", "/api/v1/namespaces/default/configmaps/ok", "", ""); code != 200 {
			t.Errorf("the good object was not imported: %d", code)
		}
	})
}

func FuzzImport(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n"))
	f.Add([]byte("---\n--- # x\n{}\n---\nkind: List\nitems: [1]\n"))
	f.Add([]byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  generateName: x-\n"))
	s := New(Options{})
	f.Fuzz(func(t *testing.T, doc []byte) {
		s.Import(doc) // must not panic
	})
}

// What the cluster makes by itself is not exported: an import next to
// running controllers would duplicate it (Pods beside the ReplicaSet's new
// ones) or fail on it (the Nodes, a namespace's default ServiceAccount).
func TestExportLeavesOutWhatTheClusterMakes(t *testing.T) {
	s := New(Options{})
	write := func(ua, body string) {
		t.Helper()
		req := httptest.NewRequest("POST", "/api/v1/namespaces/default/configmaps", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", ua)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != 201 {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	const kcm = "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/kubesandbox"
	write("kubectl/v1.37.2", `{"metadata":{"name":"users"}}`)
	write(kcm, `{"metadata":{"name":"components"},"data":{"ca.crt":"x"}}`)
	write("kubectl/v1.37.2", `{"metadata":{"name":"owned","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"1b4e28ba-2fa1-11d2-883f-0016d3cca427","controller":true}]}}`)
	write("kubectl/v1.37.2", `{"metadata":{"name":"referenced","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"users","uid":"1b4e28ba-2fa1-11d2-883f-0016d3cca428"}]}}`)
	// a component's object that a user then changed names the user too
	write(kcm, `{"metadata":{"name":"shared"},"data":{"c":"d"}}`)
	req := httptest.NewRequest("PATCH", "/api/v1/namespaces/default/configmaps/shared", strings.NewReader(`{"data":{"a":"b"}}`))
	req.Header.Set("Content-Type", "application/merge-patch+json")
	req.Header.Set("User-Agent", "kubectl/v1.37.2")
	s.ServeHTTP(httptest.NewRecorder(), req)

	y, err := s.Export()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		kept bool
	}{{"users", true}, {"components", false}, {"owned", false}, {"referenced", true}, {"shared", true}} {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Contains(string(y), "name: "+c.name+"\n"); got != c.kept {
				t.Errorf("exported: %v, want %v\n%s", got, c.kept, y)
			}
		})
	}
}
