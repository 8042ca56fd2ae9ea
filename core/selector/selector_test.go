package selector

import (
	"reflect"
	"strings"
	"testing"
)

// The objects and answers of transcript list-label-selectors.
var transcriptObjects = []struct {
	name   string
	labels map[string]string
}{
	{"w1", map[string]string{"app": "web", "env": "prod"}},
	{"w2", map[string]string{"app": "web", "env": "dev"}},
	{"w3", map[string]string{"app": "db"}},
	{"w4", nil},
}

func TestLabelsMatchTranscript(t *testing.T) {
	cases := []struct {
		selector string
		want     []string
	}{
		{"app=web", []string{"w1", "w2"}},
		{"app==db", []string{"w3"}},
		{"app!=web", []string{"w3", "w4"}},
		{"env in (prod,staging)", []string{"w1"}},
		{"env notin (prod)", []string{"w2", "w3", "w4"}},
		{"env", []string{"w1", "w2"}},
		{"!env", []string{"w3", "w4"}},
		{"app=web,env!=prod", []string{"w2"}},
		{"", []string{"w1", "w2", "w3", "w4"}},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			sel, err := ParseLabels(c.selector)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range transcriptObjects {
				if sel.Matches(o.labels) {
					got = append(got, o.name)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("matched %v, want %v", got, c.want)
			}
		})
	}
}

func TestLabelsGreaterLess(t *testing.T) {
	cases := []struct {
		selector string
		labels   map[string]string
		want     bool
	}{
		{"n>2", map[string]string{"n": "3"}, true},
		{"n>2", map[string]string{"n": "2"}, false},
		{"n<2", map[string]string{"n": "-5"}, true},
		{"n>2", map[string]string{"n": "abc"}, false},
		{"n>2", nil, false},
		{"n<2", nil, false},
	}
	for _, c := range cases {
		t.Run(c.selector+"/"+c.labels["n"], func(t *testing.T) {
			sel, err := ParseLabels(c.selector)
			if err != nil {
				t.Fatal(err)
			}
			if got := sel.Matches(c.labels); got != c.want {
				t.Fatalf("Matches = %v, want %v", got, c.want)
			}
		})
	}
}

func TestLabelsRequirements(t *testing.T) {
	sel, err := ParseLabels("z in (b,a,b), !y, x")
	if err != nil {
		t.Fatal(err)
	}
	want := []Requirement{
		{Key: "x", Operator: Exists, Values: []string{}},
		{Key: "y", Operator: DoesNotExist, Values: []string{}},
		{Key: "z", Operator: In, Values: []string{"a", "b"}},
	}
	if got := sel.Requirements(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Requirements() = %#v, want %#v", got, want)
	}
	if sel.Empty() {
		t.Fatal("Empty() = true")
	}
	var zero Labels
	if !zero.Empty() || !zero.Matches(nil) || zero.String() != "" {
		t.Fatal("zero Labels must select everything")
	}
}

func TestFieldsRequirementsAndMatch(t *testing.T) {
	sel, err := ParseFields("metadata.namespace!=kube-public,metadata.name==w1")
	if err != nil {
		t.Fatal(err)
	}
	want := []FieldRequirement{
		{Field: "metadata.name", Operator: Equals, Value: "w1"},
		{Field: "metadata.namespace", Operator: NotEquals, Value: "kube-public"},
	}
	if got := sel.Requirements(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Requirements() = %#v, want %#v", got, want)
	}
	obj := func(name, ns string) func(string) (string, bool) {
		return func(f string) (string, bool) {
			switch f {
			case "metadata.name":
				return name, true
			case "metadata.namespace":
				return ns, true
			}
			return "", false
		}
	}
	cases := []struct {
		name, ns string
		want     bool
	}{
		{"w1", "default", true},
		{"w1", "kube-public", false},
		{"w2", "default", false},
	}
	for _, c := range cases {
		t.Run(c.name+"/"+c.ns, func(t *testing.T) {
			if got := sel.Matches(obj(c.name, c.ns)); got != c.want {
				t.Fatalf("Matches = %v, want %v", got, c.want)
			}
		})
	}
	// An unknown field has the value "", as fields.Set.Get gives.
	unknown, _ := ParseFields("spec.x=")
	if !unknown.Matches(obj("a", "b")) {
		t.Fatal(`"spec.x=" must match an object without spec.x`)
	}
	unknown, _ = ParseFields("spec.x=a")
	if unknown.Matches(obj("a", "b")) {
		t.Fatal(`"spec.x=a" must not match an object without spec.x`)
	}
}

func TestFieldsUnsupported(t *testing.T) {
	// Transcript list-field-selectors: 400 BadRequest with this message.
	if got := UnsupportedFieldError("spec.color").Error(); got != "field label not supported: spec.color" {
		t.Fatalf("got %q", got)
	}
	supported := func(f string) bool { return f == "metadata.name" || f == "metadata.namespace" }
	cases := []struct{ selector, err string }{
		{"spec.color=red", "field label not supported: spec.color"},
		{"metadata.name=a,metadata.namespace=b", ""},
		// Terms are checked in sorted order: "a.y" before "b.x".
		{"b.x=1,a.y=2", "field label not supported: a.y"},
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			sel, err := ParseFields(c.selector)
			if err != nil {
				t.Fatal(err)
			}
			err = sel.Check(supported)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.err {
				t.Fatalf("Check = %q, want %q", got, c.err)
			}
		})
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	for _, v := range []string{"", "plain", `a,b=c\d`, `\\`, "ünï"} {
		t.Run(v, func(t *testing.T) {
			got, err := UnescapeValue(EscapeValue(v))
			if err != nil || got != v {
				t.Fatalf("UnescapeValue(EscapeValue(%q)) = %q, %v", v, got, err)
			}
		})
	}
	if _, err := UnescapeValue(`a\`); err == nil || !strings.Contains(err.Error(), `invalid escape sequence: \`) {
		t.Fatalf("trailing backslash: %v", err)
	}
}

func TestFieldsRequiresExactMatch(t *testing.T) {
	cases := []struct {
		selector, value string
		found           bool
	}{
		{"metadata.name=w1", "w1", true},
		{"metadata.name==w1,metadata.namespace=x", "w1", true},
		{"metadata.name!=w1", "", false},
		{"metadata.namespace=x", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		t.Run(c.selector, func(t *testing.T) {
			sel, err := ParseFields(c.selector)
			if err != nil {
				t.Fatal(err)
			}
			v, ok := sel.RequiresExactMatch("metadata.name")
			if v != c.value || ok != c.found {
				t.Fatalf("RequiresExactMatch = %q, %v; want %q, %v", v, ok, c.value, c.found)
			}
		})
	}
}
