package selector

import (
	"reflect"
	"sort"
	"testing"
)

func reqStrings(s Labels) []string {
	out := make([]string, 0, len(s.reqs))
	for i := range s.reqs {
		out = append(out, s.reqs[i].String())
	}
	sort.Strings(out)
	return out
}

// FuzzParseLabels: parsing never panics, and String() of a parsed selector
// parses again to the same requirements.
func FuzzParseLabels(f *testing.F) {
	for _, c := range labelGolden {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseLabels(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error text", s)
			}
			return
		}
		again, err := ParseLabels(sel.String())
		if err != nil {
			t.Fatalf("%q: String() %q does not parse: %v", s, sel.String(), err)
		}
		if a, b := reqStrings(sel), reqStrings(again); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: round trip %v != %v", s, a, b)
		}
		sel.Matches(map[string]string{"a": "1", "x": "y"})
	})
}

func sortedFieldReqs(s Fields) []FieldRequirement {
	out := append([]FieldRequirement(nil), s.reqs...)
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Operator != b.Operator {
			return a.Operator < b.Operator
		}
		return a.Value < b.Value
	})
	return out
}

// FuzzParseFields: parsing never panics, and String() of a parsed selector
// parses again to the same requirements.
func FuzzParseFields(f *testing.F) {
	for _, c := range fieldGolden {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseFields(s)
		if err != nil {
			return
		}
		again, err := ParseFields(sel.String())
		if err != nil {
			t.Fatalf("%q: String() %q does not parse: %v", s, sel.String(), err)
		}
		if a, b := sortedFieldReqs(sel), sortedFieldReqs(again); !reflect.DeepEqual(a, b) {
			t.Fatalf("%q: round trip %v != %v", s, a, b)
		}
		sel.Matches(func(string) (string, bool) { return "", false })
	})
}
