package fieldmanager

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

const testGV = "example.com/v1"

var t0 = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

func obj(t testing.TB, s string) map[string]any {
	t.Helper()
	o, err := jsonx.DecodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// entries summarises managedFields as "manager/operation[/subresource]=fieldsV1".
func entries(o map[string]any) []string {
	md, _ := o["metadata"].(map[string]any)
	l, _ := md["managedFields"].([]any)
	var out []string
	for _, e := range l {
		m := e.(map[string]any)
		s := fmt.Sprintf("%v/%v", m["manager"], m["operation"])
		if sub, ok := m["subresource"]; ok {
			s += "/" + sub.(string)
		}
		b, _ := jsonx.Marshal(m["fieldsV1"])
		out = append(out, s+"="+string(b))
	}
	return out
}

func mustEqual(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("managedFields:\n got %q\nwant %q", got, want)
	}
}

func created(t *testing.T, m *Manager, manager string) map[string]any {
	t.Helper()
	o, err := m.Update(nil, obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"replicas":1,"color":"blue"}}`), manager, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	o["metadata"].(map[string]any)["uid"] = "u1"
	return o
}

func TestUpdateManagedFieldsResetRules(t *testing.T) {
	m := widgetManager(t, testGV)
	live := created(t, m, "creator")
	withMF := func(mf string) map[string]any {
		return obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","uid":"u1","managedFields":`+mf+`},"spec":{"replicas":1,"color":"blue"}}`)
	}
	creator := []string{`creator/Update={"f:spec":{".":{},"f:color":{},"f:replicas":{}}}`}
	for _, tc := range []struct {
		name     string
		mf       string
		emptyRes bool
		want     []string
	}{
		{"one empty entry clears", `[{}]`, false, nil},
		{"empty list keeps the live entries (custom resources)", `[]`, false, creator},
		{"empty list clears for built-ins", `[]`, true, nil},
		{"invalid operation falls back to the live entries", `[{"manager":"x","operation":"Foo","apiVersion":"v1","fieldsType":"FieldsV1"}]`, false, creator},
		{"malformed entry is ignored", `[{"manager":5}]`, false, creator},
		{"client-edited entries are taken", `[{"manager":"edited","operation":"Update","apiVersion":"example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]`, false,
			[]string{`edited/Update={"f:spec":{"f:replicas":{}}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mm := *m
			mm.opts.EmptyListResets = tc.emptyRes
			out, err := mm.Update(live, withMF(tc.mf), "creator", "", t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, entries(out), tc.want)
		})
	}
}

func TestUpdateTimeOnlyChangesWhenFieldsChange(t *testing.T) {
	m := widgetManager(t, testGV)
	live := created(t, m, "creator")
	out, err := m.Update(live, jsonx.CopyObject(live), "other", "", t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	mf := out["metadata"].(map[string]any)["managedFields"].([]any)
	if len(mf) != 1 || mf[0].(map[string]any)["time"] != "2030-01-01T00:00:00Z" {
		t.Errorf("no-op update changed managedFields: %v", mf)
	}
}

func TestCapUpdateManagers(t *testing.T) {
	m := widgetManager(t, testGV)
	live := created(t, m, "m00")
	for i := 1; i <= 11; i++ {
		next := jsonx.CopyObject(live)
		md := next["metadata"].(map[string]any)
		labels, _ := md["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
		}
		labels[fmt.Sprintf("k%02d", i)] = "v"
		md["labels"] = labels
		var err error
		live, err = m.Update(live, next, fmt.Sprintf("m%02d", i), "", t0.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
	}
	got := entries(live)
	if len(got) != 10 {
		t.Fatalf("want 10 entries, got %d: %q", len(got), got)
	}
	// 12 updaters (m00..m11, each adding a label): the two oldest merge
	// into ancient-changes.
	found := false
	for _, e := range got {
		if strings.HasPrefix(e, "ancient-changes/Update=") {
			found = true
		}
	}
	if !found {
		t.Errorf("no ancient-changes entry: %q", got)
	}
}

func TestUpdateUntrackedObjectStaysUntracked(t *testing.T) {
	m := widgetManager(t, testGV)
	live := obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","uid":"u1"},"spec":{"replicas":1}}`)
	out, err := m.Update(live, obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","uid":"u1"},"spec":{"replicas":2}}`), "x", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(out), nil)
	// The first apply attributes the existing fields to before-first-apply.
	out, err = m.Apply(out, obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"color":"red"}}`), "alice", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(out), []string{
		`alice/Apply={"f:spec":{"f:color":{}}}`,
		`before-first-apply/Update={"f:spec":{".":{},"f:replicas":{}}}`,
	})
}

func TestApplyErrors(t *testing.T) {
	m := widgetManager(t, testGV)
	live := created(t, m, "creator")
	for _, tc := range []struct {
		name, applied string
		code          int
		reason        apierr.Reason
		msg           string
	}{
		{"wrong kind", `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"w1"}}`, 400, apierr.ReasonBadRequest,
			"invalid object type: example.com/v1, Kind=Gadget"},
		{"no apiVersion", `{}`, 400, apierr.ReasonBadRequest, "invalid object type: /, Kind="},
		{"managedFields set", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","managedFields":[]}}`, 400, apierr.ReasonBadRequest,
			"metadata.managedFields must be nil"},
		{"unknown field", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"foo":1}}`, 500, "",
			"failed to create typed patch object (/w1; example.com/v1, Kind=Widget): .spec.foo: field not declared in schema"},
		{"map list item without its key", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"ports":[{"port":1}]}}`, 500, "",
			`failed to create typed patch object (/w1; example.com/v1, Kind=Widget): .spec.ports: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`},
		{"conflict with an updater", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"color":"red"}}`, 409, apierr.ReasonConflict,
			`Apply failed with 1 conflict: conflict with "creator" using example.com/v1: .spec.color`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Apply(live, obj(t, tc.applied), "alice", "", false, t0)
			ae := asStatusError(err)
			if ae == nil {
				t.Fatalf("want API error, got %v", err)
			}
			if ae.Code != tc.code || ae.Reason != tc.reason || ae.Message != tc.msg {
				t.Errorf("got %d %q %q\nwant %d %q %q", ae.Code, ae.Reason, ae.Message, tc.code, tc.reason, tc.msg)
			}
		})
	}
}

func TestConflictMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		cs   []Conflict
		want string
	}{
		{"applier", []Conflict{{`{"manager":"alice","operation":"Apply"}`, ".spec.color"}},
			`Apply failed with 1 conflict: conflict with "alice": .spec.color`},
		{"updater of a subresource", []Conflict{{`{"manager":"kubelet","operation":"Update","apiVersion":"v1","subresource":"status"}`, ".status.phase"}},
			`Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using v1: .status.phase`},
		{"several managers", []Conflict{
			{`{"manager":"bob","operation":"Apply"}`, ".spec.a"},
			{`{"manager":"alice","operation":"Apply"}`, ".spec.b"},
			{`{"manager":"alice","operation":"Apply"}`, ".spec.c"},
		}, "Apply failed with 3 conflicts: conflicts with \"alice\":\n- .spec.b\n- .spec.c\nconflicts with \"bob\":\n- .spec.a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &ConflictError{Conflicts: tc.cs}
			if got := e.Error(); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			var ae *apierr.Error
			if errors.As(e, &ae) {
				t.Errorf("a conflict is a plain error, not %+v: patch.ToAPIError decides its Status", ae)
			}
			if cs := e.Causes(); len(cs) != len(tc.cs) || cs[0].Type != apierr.CauseTypeFieldManagerConflict || cs[0].Field != tc.cs[0].Path {
				t.Errorf("causes: %+v", cs)
			}
		})
	}
}

func TestApplyForceAndRemoval(t *testing.T) {
	m := widgetManager(t, testGV)
	a := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","labels":{"a":"1"}},"spec":{"replicas":2,"config":{"x":"1"}}}`
	live, err := m.Apply(nil, obj(t, a), "alice", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	live["metadata"].(map[string]any)["uid"] = "u1"
	live, err = m.Apply(live, obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"replicas":5}}`), "bob", "", true, t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(live), []string{
		`alice/Apply={"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:config":{"f:x":{}}}}`,
		`bob/Apply={"f:spec":{"f:replicas":{}}}`,
	})
	// alice stops applying labels and config: both go, nobody else owns them.
	live, err = m.Apply(live, obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":"s"}}`), "alice", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := jsonx.Marshal(live["spec"])
	if string(b) != `{"color":"blue","replicas":5,"size":"s"}` {
		t.Errorf("spec = %s", b)
	}
	if _, ok := live["metadata"].(map[string]any)["labels"]; ok {
		t.Errorf("labels not removed: %v", live["metadata"])
	}
}

func TestKubectlLastApplied(t *testing.T) {
	m := widgetManager(t, testGV)
	// An object made by client-side apply: kubectl's annotation, fields owned
	// by the Update manager "kubectl-client-side-apply".
	last := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"replicas":2}}`
	o := obj(t, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","annotations":{}},"spec":{"replicas":2,"color":"blue"}}`)
	o["metadata"].(map[string]any)["annotations"].(map[string]any)[LastAppliedConfigAnnotation] = last
	live, err := m.Update(nil, o, "kubectl-client-side-apply", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	live["metadata"].(map[string]any)["uid"] = "u1"
	applied := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"replicas":3}}`
	// Another manager conflicts; kubectl takes over the fields it applied.
	if _, err := m.Apply(live, obj(t, applied), "someone", "", false, t0); err == nil {
		t.Fatal("want a conflict for a manager other than kubectl")
	}
	out, err := m.Apply(live, obj(t, applied), "kubectl", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	ann := out["metadata"].(map[string]any)["annotations"].(map[string]any)[LastAppliedConfigAnnotation]
	if ann != applied+"\n" {
		t.Errorf("annotation = %q", ann)
	}
}

func TestParseableTypes(t *testing.T) {
	// A cyclic schema (a tree of nodes) and a list merged by a patch merge key.
	node := &schema.Schema{Type: "object"}
	node.Properties = map[string]*schema.Schema{
		"name":     {Type: "string"},
		"children": {Type: "array", Items: node, PatchStrategy: "merge", PatchMergeKey: "name"},
	}
	root := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{"spec": node}}
	m, err := New(Options{GroupVersion: "v1", Kind: "Tree", Schema: root})
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Apply(nil, obj(t, `{"apiVersion":"v1","kind":"Tree","metadata":{"name":"t"},"spec":{"children":[{"name":"a","children":[{"name":"b"}]}]}}`), "x", "", false, t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(out), []string{`x/Apply={"f:spec":{"f:children":{"k:{\"name\":\"a\"}":{".":{},"f:children":{"k:{\"name\":\"b\"}":{".":{},"f:name":{}}},"f:name":{}}}}}`})

	// No schema: everything deduced, lists atomic.
	d, err := New(Options{GroupVersion: "v1", Kind: "Thing"})
	if err != nil {
		t.Fatal(err)
	}
	out, err = d.Update(nil, obj(t, `{"apiVersion":"v1","kind":"Thing","metadata":{"name":"t","finalizers":["f"]},"data":{"a":[1,2]}}`), "u", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	mustEqual(t, entries(out), []string{`u/Update={"f:data":{".":{},"f:a":{}},"f:metadata":{"f:finalizers":{}}}`})
}

func TestDecodeManagedFieldsErrors(t *testing.T) {
	for _, tc := range []struct{ name, mf, want string }{
		{"bad operation", `[{"manager":"a","operation":"Create","apiVersion":"v1","fieldsType":"FieldsV1"}]`, "operation must be `Apply` or `Update`"},
		{"no apiVersion", `[{"manager":"a","operation":"Apply","fieldsType":"FieldsV1"}]`, "apiVersion must not be empty"},
		{"no fieldsType", `[{"manager":"a","operation":"Apply","apiVersion":"v1"}]`, "missing fieldsType in managed fields entry 0"},
		{"bad fieldsType", `[{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV2"}]`, `invalid fieldsType "FieldsV2" in managed fields entry 0`},
		{"bad fields", `[{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":"abc"}]`, "error decoding versioned set from"},
		{"valid", `[{"manager":"a","operation":"Apply","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:a":{}},"time":"2030-01-01T00:00:00Z"}]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mg, err := DecodeManagedFields(obj(t, `{"metadata":{"managedFields":`+tc.mf+`}}`))
			if tc.want == "" {
				if err != nil || len(mg.Fields) != 1 {
					t.Fatalf("got %v, %v", mg, err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseApplyBody(t *testing.T) {
	for _, tc := range []struct{ name, body, want, err string }{
		{"yaml", "apiVersion: v1\nkind: K\nspec: {i: 2, f: 1.5, y: yes}\n", `{"apiVersion":"v1","kind":"K","spec":{"f":1.5,"i":2,"true":true}}` /* YAML 1.1: y is true, as on the real server */, ""},
		{"json", `{"a":1}`, `{"a":1}`, ""},
		{"empty", ``, `{}`, ""},
		{"list", "- a\n", "", "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}"},
		{"bad yaml", "a: [\n", "", "error encoding patch: yaml: line 1: did not find expected node content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseApplyBody([]byte(tc.body))
			if tc.err != "" {
				var ae *apierr.Error
				if !errors.As(err, &ae) || ae.Code != 400 || ae.Message != tc.err {
					t.Fatalf("got %v, want 400 %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := jsonx.Marshal(o)
			if string(b) != tc.want {
				t.Errorf("got %s want %s", b, tc.want)
			}
		})
	}
}
