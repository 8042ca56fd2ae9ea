package apiserver

import (
	"encoding/json"
	"testing"
)

// One Event, two APIs (resource.View): what is written through
// events.k8s.io/v1 is read through core/v1 and the other way round, as
// kube-apiserver's cohabiting events storage answers; lists, field
// selectors in the viewing API's names, and deletes see the same objects.
func TestEventsView(t *testing.T) {
	const core = "/api/v1/namespaces/default/events"
	const v1 = "/apis/events.k8s.io/v1/namespaces/default/events"
	s := New(Options{})
	mustDo(t, s, 201, "POST", v1, "application/json", `{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"new"},
		"eventTime":"2026-01-01T00:00:05.000000Z","reportingController":"example.com/c","reportingInstance":"c-1","action":"Pull",
		"reason":"Pulled","note":"pulled","type":"Normal","regarding":{"kind":"Pod","name":"web","namespace":"default"}}`)
	mustDo(t, s, 201, "POST", core, "application/json", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"old"},
		"involvedObject":{"kind":"Pod","name":"db","namespace":"default"},"reason":"Started","message":"started","type":"Normal",
		"source":{"component":"kubelet"},"count":3,"firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:10Z"}`)

	for _, c := range []struct {
		name, path string
		want       map[string]any
		absent     []string
	}{
		{"events.k8s.io as core/v1", core + "/new", map[string]any{"apiVersion": "v1", "message": "pulled", "reportingComponent": "example.com/c",
			"involvedObject": map[string]any{"kind": "Pod", "name": "web", "namespace": "default"}, "source": map[string]any{}, "firstTimestamp": nil},
			[]string{"note", "regarding", "reportingController", "count", "deprecatedSource"}},
		{"core/v1 as events.k8s.io", v1 + "/old", map[string]any{"apiVersion": "events.k8s.io/v1", "note": "started", "deprecatedCount": float64(3),
			"deprecatedSource": map[string]any{"component": "kubelet"}, "deprecatedFirstTimestamp": "2026-01-01T00:00:00Z", "eventTime": nil,
			"regarding": map[string]any{"kind": "Pod", "name": "db", "namespace": "default"}},
			[]string{"message", "involvedObject", "source", "count", "reportingController", "reportingComponent", "reportingInstance"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := mustDo(t, s, 200, "GET", c.path, "", "")
			for k, v := range c.want {
				if g, _ := json.Marshal(got[k]); string(g) != jsonText(v) {
					t.Errorf("%s = %s, want %s", k, g, jsonText(v))
				}
			}
			for _, k := range c.absent {
				if _, ok := got[k]; ok {
					t.Errorf("%s is set: %v", k, got[k])
				}
			}
		})
	}
	t.Run("list and field selectors", func(t *testing.T) {
		for _, c := range []struct{ path, want string }{
			{v1, "new,old"}, {core, "new,old"},
			{v1 + "?fieldSelector=regarding.name%3Ddb", "old"},
			{core + "?fieldSelector=involvedObject.name%3Dweb", "new"},
		} {
			if got := itemNames(mustDo(t, s, 200, "GET", c.path, "", "")); got != c.want {
				t.Errorf("%s: %s, want %s", c.path, got, c.want)
			}
		}
	})
	t.Run("delete through the other API", func(t *testing.T) {
		mustDo(t, s, 200, "DELETE", core+"/new", "", "")
		mustDo(t, s, 404, "GET", v1+"/new", "", "")
		if got := itemNames(mustDo(t, s, 200, "GET", v1, "", "")); got != "old" {
			t.Errorf("left: %s", got)
		}
	})
	t.Run("an update through events.k8s.io keeps the core fields", func(t *testing.T) {
		ev := mustDo(t, s, 200, "GET", v1+"/old", "", "")
		ev["metadata"].(map[string]any)["labels"] = map[string]any{"a": "b"}
		b, _ := json.Marshal(ev)
		mustDo(t, s, 200, "PUT", v1+"/old", "application/json", string(b))
		got := mustDo(t, s, 200, "GET", core+"/old", "", "")
		if got["count"] != float64(3) || got["message"] != "started" || metaOf(got)["labels"] == nil {
			t.Errorf("core/v1 after the update: %v", got)
		}
	})
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

func itemNames(list map[string]any) string {
	out := ""
	items, _ := list["items"].([]any)
	for i, it := range items {
		if i > 0 {
			out += ","
		}
		out += metaStr(it.(map[string]any), "name")
	}
	return out
}
