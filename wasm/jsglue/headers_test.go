package jsglue

import (
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestJoinHeaders(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    http.Header
		want []string // lines in pairs, in any order of pairs
	}{
		{"empty", http.Header{}, nil},
		{"one", http.Header{"Content-Type": {"application/json"}}, []string{"Content-Type\napplication/json\n"}},
		{"repeated name", http.Header{"Vary": {"a", "b"}}, []string{"Vary\na\n", "Vary\nb\n"}},
		{"empty value", http.Header{"X": {""}}, []string{"X\n\n"}},
		{"newlines become spaces", http.Header{"X\nY": {"a\r\nb"}}, []string{"X Y\na  b\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := JoinHeaders(tc.h)
			var pairs []string
			for _, kv := range SplitHeaders(got) {
				pairs = append(pairs, kv[0]+"\n"+kv[1]+"\n")
			}
			sort.Strings(pairs)
			if strings.Join(pairs, "") != got && len(pairs) == 1 {
				t.Errorf("split then joined: %q, want %q", strings.Join(pairs, ""), got)
			}
			if !reflect.DeepEqual(pairs, tc.want) {
				t.Errorf("JoinHeaders = %q, want the pairs %q", got, tc.want)
			}
		})
	}
}

func TestSplitHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     [][2]string
	}{
		{"empty", "", [][2]string{}},
		{"pairs in order", "accept\n*/*\nx\n1\nx\n2\n", [][2]string{{"accept", "*/*"}, {"x", "1"}, {"x", "2"}}},
		{"empty value", "a\n\nb\nc\n", [][2]string{{"a", ""}, {"b", "c"}}},
		{"value with colon and commas", "accept\napplication/json, */*;q=0.5\n", [][2]string{{"accept", "application/json, */*;q=0.5"}}},
		{"a name without its value is dropped", "a\n1\nb\n", [][2]string{{"a", "1"}}},
		{"no final newline: dropped", "a\n1", [][2]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SplitHeaders(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("SplitHeaders(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
