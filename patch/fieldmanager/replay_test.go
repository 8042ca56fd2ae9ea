package fieldmanager

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// This test replays the write steps of recorded transcripts of the real
// server (testdata/transcripts.json, extracted from
// shared/conformance/transcripts) through a minimal in-memory server that
// does what the real handlers do around the field manager (defaulting,
// status subresource strategy, dry-run), and compares the managedFields,
// the merged spec/status and the apply conflicts with the recording.

type tStep struct {
	Name          string            `json:"name"`
	Method        string            `json:"method"`
	Path          string            `json:"path"`
	Query         map[string]string `json:"query"`
	ContentType   string            `json:"contentType"`
	Status        int               `json:"status"`
	Body          json.RawMessage   `json:"body"`
	BodyText      string            `json:"bodyText"`
	Error         json.RawMessage   `json:"error"`
	ManagedFields json.RawMessage   `json:"managedFields"`
	Object        json.RawMessage   `json:"object"`
}

type tScenario struct {
	Scenario string  `json:"scenario"`
	Group    string  `json:"group"`
	Steps    []tStep `json:"steps"`
}

func widgetSchema(t testing.TB) *schema.Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/widget-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// applyDefaults fills schema defaults (a small stand-in for the schema
// package's defaulting, enough for the Widget schema).
func applyDefaults(s *schema.Schema, v any) {
	if s == nil {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for name, p := range s.Properties {
			if _, ok := t[name]; !ok && p != nil && p.Default != nil {
				t[name] = jsonx.DeepCopy(p.Default)
			}
			if c, ok := t[name]; ok {
				applyDefaults(p, c)
			}
		}
		if s.AdditionalProperties != nil {
			for k, c := range t {
				if _, ok := s.Properties[k]; !ok {
					applyDefaults(s.AdditionalProperties, c)
				}
			}
		}
	case []any:
		for _, c := range t {
			applyDefaults(s.Items, c)
		}
	}
}

func widgetManager(t testing.TB, gv string) *Manager {
	s := widgetSchema(t)
	m, err := New(Options{
		GroupVersion: gv, Kind: "Widget", Schema: s,
		ResetFields: map[string][][]string{"": {{"status"}}, "status": {{"spec"}}},
		Defaulter:   func(o map[string]any) { applyDefaults(s, o) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type fakeServer struct {
	m      *Manager
	schema *schema.Schema
	objs   map[string]map[string]any
	now    time.Time
	uids   int
}

func mergePatch(dst map[string]any, patch map[string]any) map[string]any {
	for k, v := range patch {
		if v == nil {
			delete(dst, k)
			continue
		}
		if pm, ok := v.(map[string]any); ok {
			dm, _ := dst[k].(map[string]any)
			if dm == nil {
				dm = map[string]any{}
			}
			dst[k] = mergePatch(dm, pm)
			continue
		}
		dst[k] = jsonx.DeepCopy(v)
	}
	return dst
}

func metaOf(o map[string]any) map[string]any {
	md, _ := o["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		o["metadata"] = md
	}
	return md
}

// do runs one step; skip means the step is about something else (stale
// resourceVersions, validation, deletes) than the field manager.
func (s *fakeServer) do(st tStep) (obj map[string]any, err error, skip bool) {
	s.now = s.now.Add(time.Second)
	parts := strings.Split(strings.TrimPrefix(st.Path, "/"), "/")
	// apis/<group>/v1/namespaces/default/widgets[/name[/status]]
	if len(parts) < 6 {
		return nil, nil, true
	}
	name := ""
	if len(parts) > 6 {
		name = parts[6]
	}
	sub := ""
	if len(parts) > 7 {
		sub = parts[7]
	}
	manager := st.Query["fieldManager"]
	if manager == "" && st.ContentType != "application/apply-patch+yaml" {
		manager = "conformance-client"
	}
	dryRun := st.Query["dryRun"] == "All"
	var body map[string]any
	if len(st.Body) > 0 {
		if body, err = jsonx.DecodeObject(st.Body); err != nil {
			panic(err)
		}
	}
	ok2xx := st.Status/100 == 2
	live := s.objs[name]
	switch st.Method {
	case http.MethodGet:
		if live == nil || !ok2xx {
			return nil, nil, true
		}
		return live, nil, false
	case http.MethodPost:
		if !ok2xx {
			return nil, nil, true
		}
		name, _ = metaOf(body)["name"].(string)
		applyDefaults(s.schema, body)
		out, err := s.m.Update(nil, body, manager, "", s.now)
		if err != nil {
			return nil, err, false
		}
		delete(out, "status")
		s.created(out)
		s.objs[name] = out
		return out, nil, false
	case http.MethodPut:
		if !ok2xx {
			return nil, nil, true
		}
		applyDefaults(s.schema, body)
		out, err := s.m.Update(live, body, manager, sub, s.now)
		if err != nil {
			return nil, err, false
		}
		next := jsonx.CopyObject(live)
		if sub == "status" {
			next["status"] = out["status"]
			metaOf(next)["managedFields"] = metaOf(out)["managedFields"]
		} else {
			next = out
			for _, k := range []string{"uid", "namespace", "creationTimestamp", "generation"} {
				metaOf(next)[k] = metaOf(live)[k]
			}
			if st, ok := live["status"]; ok {
				next["status"] = st
			} else {
				delete(next, "status")
			}
		}
		s.objs[name] = next
		return next, nil, false
	case http.MethodPatch:
		switch st.ContentType {
		case "application/merge-patch+json":
			if !ok2xx {
				return nil, nil, true
			}
			patched := mergePatch(jsonx.CopyObject(live), body)
			applyDefaults(s.schema, patched)
			out, err := s.m.Update(live, patched, manager, sub, s.now)
			if err != nil {
				return nil, err, false
			}
			if !dryRun {
				s.objs[name] = out
			}
			return out, nil, false
		case "application/apply-patch+yaml":
			if manager == "" || len(manager) > 128 {
				return nil, nil, true // PatchOptions validation, not ours
			}
			applied, err := ParseApplyBody([]byte(st.BodyText))
			if err != nil {
				return nil, err, false
			}
			out, err := s.m.Apply(live, applied, manager, sub, st.Query["force"] == "true", s.now)
			if err != nil {
				return nil, err, false
			}
			if live == nil {
				s.created(out)
			}
			if !dryRun {
				s.objs[name] = out
			}
			return out, nil, false
		}
	}
	return nil, nil, true
}

func (s *fakeServer) created(o map[string]any) {
	s.uids++
	md := metaOf(o)
	md["uid"] = fmt.Sprintf("00000000-0000-0000-0000-%012d", s.uids)
	md["namespace"] = "default"
	md["creationTimestamp"] = s.now.UTC().Format(time.RFC3339)
	md["generation"] = int64(1)
}

// normalizeManagedFields does what the transcript normaliser does: times
// become "<time>", entries are sorted by operation, manager, subresource,
// apiVersion.
func normalizeManagedFields(t *testing.T, v any) string {
	t.Helper()
	l, _ := jsonx.DeepCopy(v).([]any)
	key := func(e any) string {
		m, _ := e.(map[string]any)
		var parts []string
		for _, k := range []string{"operation", "manager", "subresource", "apiVersion"} {
			s, _ := m[k].(string)
			parts = append(parts, s)
		}
		return strings.Join(parts, "\x00")
	}
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			if _, ok := m["time"]; ok {
				m["time"] = "<time>"
			}
		}
	}
	sort.SliceStable(l, func(i, j int) bool { return key(l[i]) < key(l[j]) })
	b, err := json.MarshalIndent(l, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReplayTranscripts(t *testing.T) {
	b, err := os.ReadFile("testdata/transcripts.json")
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []tScenario
	if err := json.Unmarshal(b, &scenarios); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, sc := range scenarios {
		t.Run(sc.Scenario, func(t *testing.T) {
			gv := sc.Group + "/v1"
			srv := &fakeServer{m: widgetManager(t, gv), schema: widgetSchema(t), objs: map[string]map[string]any{},
				now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
			for _, st := range sc.Steps {
				obj, err, skip := srv.do(st)
				if skip {
					continue
				}
				checked++
				t.Run(st.Name, func(t *testing.T) {
					if len(st.Error) > 0 {
						if err == nil {
							t.Fatalf("want error %s, got success", st.Error)
						}
						checkStatus(t, err, st.Error)
						return
					}
					if err != nil {
						t.Fatalf("unexpected error: %v", err)
					}
					wantObj, _ := jsonx.DecodeObject(st.Object)
					wantMF, _ := jsonx.Decode(st.ManagedFields)
					if got, w := normalizeManagedFields(t, metaOf(obj)["managedFields"]), normalizeManagedFields(t, wantMF); got != w {
						t.Errorf("managedFields:\n got %s\nwant %s", got, w)
					}
					for _, k := range []string{"spec", "status"} {
						g, _ := jsonx.Marshal(obj[k])
						w, _ := jsonx.Marshal(wantObj[k])
						if string(g) != string(w) {
							t.Errorf("%s: got %s want %s", k, g, w)
						}
					}
					g, _ := jsonx.Marshal(metaOf(obj)["labels"])
					w, _ := jsonx.Marshal(metaOf(wantObj)["labels"])
					if string(g) != string(w) {
						t.Errorf("labels: got %s want %s", g, w)
					}
				})
			}
		})
	}
	if checked < 30 {
		t.Errorf("only %d steps checked", checked)
	}
}

func checkStatus(t *testing.T, err error, want json.RawMessage) {
	t.Helper()
	ae := asStatusError(err)
	if ae == nil {
		t.Fatalf("error %v is not an API error", err)
	}
	st := apierr.ToStatus(ae)
	if st.Details != nil {
		sort.SliceStable(st.Details.Causes, func(i, j int) bool {
			a, b := st.Details.Causes[i], st.Details.Causes[j]
			return a.Field+"\x00"+a.Type+"\x00"+a.Message < b.Field+"\x00"+b.Type+"\x00"+b.Message
		})
	}
	gb, _ := json.Marshal(st)
	g, _ := jsonx.Decode(gb)
	w, _ := jsonx.Decode(want)
	gs, _ := json.MarshalIndent(g, "", " ")
	ws, _ := json.MarshalIndent(w, "", " ")
	if string(gs) != string(ws) {
		t.Errorf("status:\n got %s\nwant %s", gs, ws)
	}
}

// asStatusError is the API error the server answers for an error of
// Apply, or nil. A *ConflictError becomes its 409 as patch.ToAPIError
// maps it (that table is tested in package patch, which imports this one).
func asStatusError(err error) *apierr.Error {
	var ce *ConflictError
	if errors.As(err, &ce) {
		return apierr.ApplyConflict(ce.Causes(), ce.Error())
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return nil
}
