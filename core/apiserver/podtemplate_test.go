package apiserver

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"
)

// tableCells is the cells of a Table GET of path.
func tableCells(t *testing.T, s *Server, path string) (cols []string, rows [][]any) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var tbl struct {
		Columns []struct{ Name string } `json:"columnDefinitions"`
		Rows    []struct{ Cells []any } `json:"rows"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &tbl); err != nil || w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	for _, c := range tbl.Columns {
		cols = append(cols, c.Name)
	}
	for _, r := range tbl.Rows {
		rows = append(rows, r.Cells)
	}
	return cols, rows
}

// A PodTemplate as kube-apiserver v1.37.2 serves it (the oracle's
// answers): the template gets the PodSpec defaults, the Table is
// printPodTemplate's (no Age), the generation moves with the template only,
// a DELETE answers the object at the deletion's resourceVersion, and
// validation is the workloads' template checks without their
// restartPolicy rule.
func TestPodTemplate(t *testing.T) {
	s := New(Options{})
	const pts = "/api/v1/namespaces/default/podtemplates"
	created := mustDo(t, s, 201, "POST", pts, "application/json",
		`{"metadata":{"name":"pt1"},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"nginx"},{"name":"d","image":"busybox"}]}}}`)
	t.Run("defaults", func(t *testing.T) {
		spec := created["template"].(map[string]any)["spec"].(map[string]any)
		c := spec["containers"].([]any)[0].(map[string]any)
		if spec["restartPolicy"] != "Always" || spec["dnsPolicy"] != "ClusterFirst" || c["imagePullPolicy"] != "Always" || c["terminationMessagePath"] != "/dev/termination-log" {
			t.Errorf("template spec not defaulted: %v", spec)
		}
		if g := created["metadata"].(map[string]any)["generation"]; g != float64(1) {
			t.Errorf("generation %v, want 1", g)
		}
	})
	t.Run("table", func(t *testing.T) {
		cols, rows := tableCells(t, s, pts)
		if want := []string{"Name", "Containers", "Images", "Pod Labels"}; !reflect.DeepEqual(cols, want) {
			t.Errorf("columns %v, want %v", cols, want)
		}
		if want := [][]any{{"pt1", "c,d", "nginx,busybox", "app=x"}}; !reflect.DeepEqual(rows, want) {
			t.Errorf("rows %v, want %v", rows, want)
		}
	})
	t.Run("generation", func(t *testing.T) {
		out := mustDo(t, s, 200, "PATCH", pts+"/pt1", "application/merge-patch+json", `{"metadata":{"labels":{"x":"y"}}}`)
		if g := out["metadata"].(map[string]any)["generation"]; g != float64(1) {
			t.Errorf("after a label change: generation %v, want 1", g)
		}
		out = mustDo(t, s, 200, "PATCH", pts+"/pt1", "application/merge-patch+json", `{"template":{"metadata":{"labels":{"x":"y"}}}}`)
		if g := out["metadata"].(map[string]any)["generation"]; g != float64(2) {
			t.Errorf("after a template change: generation %v, want 2", g)
		}
	})
	for _, tc := range []struct{ name, body, field string }{
		{"no containers", `{"metadata":{"name":"e"},"template":{"spec":{"containers":[]}}}`, "template.spec.containers"},
		{"bad restartPolicy", `{"metadata":{"name":"r"},"template":{"spec":{"restartPolicy":"Sometimes","containers":[{"name":"c","image":"x"}]}}}`, "template.spec.restartPolicy"},
		{"bad template label", `{"metadata":{"name":"l"},"template":{"metadata":{"labels":{"a b":"c"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}`, "template.labels"},
	} {
		t.Run("invalid "+tc.name, func(t *testing.T) {
			out := mustDo(t, s, 422, "POST", pts, "application/json", tc.body)
			causes := out["details"].(map[string]any)["causes"].([]any)
			if len(causes) != 1 || causes[0].(map[string]any)["field"] != tc.field {
				t.Errorf("causes %v, want one on %s", causes, tc.field)
			}
		})
	}
	t.Run("Never and a deadline are allowed", func(t *testing.T) {
		mustDo(t, s, 201, "POST", pts, "application/json", `{"metadata":{"name":"n"},"template":{"spec":{"restartPolicy":"Never","activeDeadlineSeconds":5,"containers":[{"name":"c","image":"x"}]}}}`)
	})
	t.Run("delete answers the object at a new resourceVersion", func(t *testing.T) {
		before := mustDo(t, s, 200, "GET", pts+"/n", "", "")
		out := mustDo(t, s, 200, "DELETE", pts+"/n", "", "")
		if out["kind"] != "PodTemplate" {
			t.Fatalf("got %v", out)
		}
		rv := func(o map[string]any) any { return o["metadata"].(map[string]any)["resourceVersion"] }
		if rv(out) == rv(before) {
			t.Errorf("resourceVersion %v unchanged by the deletion", rv(out))
		}
	})
}
