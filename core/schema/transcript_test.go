package schema

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/internal/conformance"
)

// The cases below are the validation, defaulting and pruning steps of the
// conformance transcripts (recorded from kube-apiserver v1.37.2) against
// the Widget CRD of scenarios/_fixtures/widgets-crd.yaml, whose
// openAPIV3Schema is testdata/widgets-schema.json.

func widgetSchema(t testing.TB) *Schema {
	t.Helper()
	b, err := os.ReadFile("testdata/widgets-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonx.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromCRD(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type cause struct{ Field, Reason, Message string }

func causesOf(errs field.ErrorList) []cause {
	out := []cause{}
	for _, e := range errs {
		out = append(out, cause{e.Field, string(e.Type), e.Body()})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Reason != b.Reason {
			return a.Reason < b.Reason
		}
		return a.Message < b.Message
	})
	return out
}

// createPipeline runs what the server runs on a Widget create: decode
// coercion (pruning), defaulting, then the validations of the custom
// resource strategy.
func createPipeline(t *testing.T, s *Schema, body string) (map[string]any, []string, field.ErrorList) {
	t.Helper()
	obj, err := jsonx.DecodeObject([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := Coerce(s, obj, true)
	if err != nil {
		t.Fatal(err)
	}
	Default(s, obj)
	errs := ValidateTypeMeta(obj, "g.example.com", "v1", "Widget")
	if len(errs) == 0 {
		errs = append(errs, Validate(s, obj)...)
		errs = append(errs, ValidateScaleSpec(obj, ".spec.replicas")...)
		errs = append(errs, ValidateScaleStatus(obj, ".status.replicas", ".status.selector")...)
	}
	return obj, unknown, errs
}

func TestTranscriptSteps(t *testing.T) {
	s := widgetSchema(t)
	const head = `"apiVersion":"g.example.com/v1","kind":"Widget"`
	cases := []struct {
		name        string
		body        string
		wantCauses  []cause
		wantUnknown []string
		wantSpec    string // JSON of spec after defaulting; "" = not checked, "absent" = no spec
		wantTop     []string
	}{
		{
			name: "schema-validation/replicas below minimum",
			body: `{` + head + `,"metadata":{"name":"w1"},"spec":{"replicas":-1}}`,
			wantCauses: []cause{
				{".spec.replicas", "FieldValueInvalid", "Invalid value: -1: should be a non-negative integer"},
				{"spec.replicas", "FieldValueInvalid", "Invalid value: -1: spec.replicas in body should be greater than or equal to 0"},
			},
		},
		{
			name: "schema-validation/color outside the enum",
			body: `{` + head + `,"metadata":{"name":"w1"},"spec":{"color":"purple"}}`,
			wantCauses: []cause{
				{"spec.color", "FieldValueNotSupported", `Unsupported value: "purple": supported values: "red", "green", "blue"`},
			},
		},
		{
			name: "schema-validation/replicas of the wrong type",
			body: `{` + head + `,"metadata":{"name":"w1"},"spec":{"replicas":"three"}}`,
			wantCauses: []cause{
				{".spec.replicas", "FieldValueInvalid", "Invalid value: 0: .spec.replicas accessor error: three is of the type string, expected int64"},
				{"spec.replicas", "FieldValueTypeInvalid", `Invalid value: "string": spec.replicas in body must be of type integer: "string"`},
			},
		},
		{
			name: "schema-validation/several errors at once",
			body: `{` + head + `,"metadata":{"name":"w1"},"spec":{"color":"black","replicas":101,"size":"much-too-long"}}`,
			wantCauses: []cause{
				{"spec.color", "FieldValueNotSupported", `Unsupported value: "black": supported values: "red", "green", "blue"`},
				{"spec.replicas", "FieldValueInvalid", "Invalid value: 101: spec.replicas in body should be less than or equal to 100"},
				{"spec.size", "FieldValueTooLong", "Too long: may not be more than 8 bytes"},
			},
		},
		{
			name: "schema-validation/map-list item without its key",
			body: `{` + head + `,"metadata":{"name":"w1"},"spec":{"ports":[{"port":80}]}}`,
			wantCauses: []cause{
				{"spec.ports[0].name", "FieldValueRequired", "Required value"},
			},
		},
		{
			name: "bad-requests/kind does not match the resource",
			body: `{"apiVersion":"g.example.com/v1","kind":"Gizmo","metadata":{"name":"w1"},"spec":{}}`,
			wantCauses: []cause{
				{"kind", "FieldValueInvalid", `Invalid value: "Gizmo": must be Widget`},
			},
		},
		{
			name:     "defaults-and-pruning/create with an empty spec (defaults)",
			body:     `{` + head + `,"metadata":{"name":"empty"},"spec":{}}`,
			wantSpec: `{"color":"blue","replicas":1}`,
		},
		{
			name:     "defaults-and-pruning/create without spec",
			body:     `{` + head + `,"metadata":{"name":"nospec"}}`,
			wantSpec: "absent",
		},
		{
			name:     "defaults-and-pruning/create with map-list items (protocol defaulted per item)",
			body:     `{` + head + `,"metadata":{"name":"ports"},"spec":{"ports":[{"name":"http","port":80},{"name":"dns","port":53,"protocol":"UDP"}]}}`,
			wantSpec: `{"color":"blue","ports":[{"name":"http","port":80,"protocol":"TCP"},{"name":"dns","port":53,"protocol":"UDP"}],"replicas":1}`,
		},
		{
			name:        "defaults-and-pruning/create with unknown fields (pruned) and a preserved subtree",
			body:        `{` + head + `,"metadata":{"name":"pruned"},"spec":{"extra":{"anything":{"goes":[1,2]},"here":true},"junk":{"a":1},"replicas":4},"topLevelJunk":1}`,
			wantUnknown: []string{"spec.junk", "topLevelJunk"},
			wantSpec:    `{"color":"blue","extra":{"anything":{"goes":[1,2]},"here":true},"replicas":4}`,
			wantTop:     []string{"apiVersion", "kind", "metadata", "spec"},
		},
		{
			name:        "field-validation-unknown/create with unknown fields",
			body:        `{` + head + `,"metadata":{"bogusMeta":1,"name":"warn"},"spec":{"bogus":true,"replicas":1}}`,
			wantUnknown: []string{"metadata.bogusMeta", "spec.bogus"},
			wantSpec:    `{"color":"blue","replicas":1}`,
		},
		{
			name:        "field-validation-duplicate/duplicate field and unknown field",
			body:        `{` + head + `,"metadata":{"name":"w3"},"spec":{"replicas":2,"bogus":1}}`,
			wantUnknown: []string{"spec.bogus"},
			wantSpec:    `{"color":"blue","replicas":2}`,
		},
		{
			name:     "create-get-basic/create widget w1",
			body:     `{` + head + `,"metadata":{"annotations":{"note":"first"},"labels":{"app":"demo"},"name":"w1"},"spec":{"replicas":2,"tags":["a","b"]}}`,
			wantSpec: `{"color":"blue","replicas":2,"tags":["a","b"]}`,
		},
		{
			name:     "apply-list-map/bob applies port https (merged by key)",
			body:     `{` + head + `,"metadata":{"name":"w1"},"spec":{"ports":[{"name":"http","port":80},{"name":"https","port":443,"protocol":"UDP"}]}}`,
			wantSpec: `{"color":"blue","ports":[{"name":"http","port":80,"protocol":"TCP"},{"name":"https","port":443,"protocol":"UDP"}],"replicas":1}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj, unknown, errs := createPipeline(t, s, tc.body)
			want := tc.wantCauses
			if want == nil {
				want = []cause{}
			}
			if got := causesOf(errs); !reflect.DeepEqual(got, want) {
				t.Errorf("causes:\n got %q\nwant %q", got, want)
			}
			if tc.wantUnknown != nil || unknown != nil {
				if !reflect.DeepEqual(unknown, tc.wantUnknown) {
					t.Errorf("unknown fields: got %q, want %q", unknown, tc.wantUnknown)
				}
			}
			switch tc.wantSpec {
			case "":
			case "absent":
				if _, ok := obj["spec"]; ok {
					t.Errorf("spec should be absent: %v", obj["spec"])
				}
			default:
				got, _ := jsonx.Marshal(obj["spec"])
				var a, b any
				_ = json.Unmarshal(got, &a)
				_ = json.Unmarshal([]byte(tc.wantSpec), &b)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("spec:\n got %s\nwant %s", got, tc.wantSpec)
				}
			}
			if tc.wantTop != nil {
				if got := slices.Sorted(maps.Keys(obj)); !reflect.DeepEqual(got, tc.wantTop) {
					t.Errorf("top-level keys: got %q, want %q", got, tc.wantTop)
				}
			}
		})
	}
}

// TestRecordedCauses replays the 422 steps of schema-validation.json
// straight from the transcript when the shared conformance directory is
// next to the repository, so the table above cannot drift from it.
func TestRecordedCauses(t *testing.T) {
	b := conformance.Read(t, "schema-validation.json")
	var tr struct {
		Steps []struct {
			Name    string `json:"name"`
			Request struct {
				Body json.RawMessage `json:"body"`
			} `json:"request"`
			Response struct {
				Status int `json:"status"`
				Body   struct {
					Details struct {
						Causes []struct {
							Field   string `json:"field"`
							Message string `json:"message"`
							Reason  string `json:"reason"`
						} `json:"causes"`
					} `json:"details"`
				} `json:"body"`
			} `json:"response"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	s := widgetSchema(t)
	n := 0
	for _, st := range tr.Steps {
		if st.Response.Status != 422 {
			continue
		}
		n++
		t.Run(st.Name, func(t *testing.T) {
			obj, err := jsonx.DecodeObject(st.Request.Body)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Coerce(s, obj, true); err != nil {
				t.Fatal(err)
			}
			Default(s, obj)
			errs := Validate(s, obj)
			errs = append(errs, ValidateScaleSpec(obj, ".spec.replicas")...)
			want := []cause{}
			for _, c := range st.Response.Body.Details.Causes {
				want = append(want, cause{c.Field, c.Reason, c.Message})
			}
			sort.Slice(want, func(i, j int) bool {
				if want[i].Field != want[j].Field {
					return want[i].Field < want[j].Field
				}
				return want[i].Message < want[j].Message
			})
			if got := causesOf(errs); !reflect.DeepEqual(got, want) {
				t.Errorf("causes:\n got %q\nwant %q", got, want)
			}
		})
	}
	if n != 5 {
		t.Errorf("expected 5 recorded 422 steps, found %d", n)
	}
}
