package jsonx

import (
	"reflect"
	"testing"
)

func TestDuplicateFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []string
	}{
		{"none", `{"a":1,"b":{"a":2,"c":[{"a":1},{"a":2}]}}`, nil},
		{"top level", `{"a":1,"b":2,"a":3}`, []string{"a"}},
		{"nested, in list", `{"spec":{"ports":[{"name":"x","name":"y"}]}}`, []string{"spec.ports[0].name"}},
		{"escaped key equal to a plain one", `{"ab":1,"a\u0062":2}`, []string{"ab"}},
		{"invalid UTF-8 keys both become U+FFFD", "{\"\xff\":1,\"\xfe\":2}", []string{"\ufffd"}},
		{"before a syntax error", `{"a":1,"a":2,`, []string{"a"}},
		{"after a syntax error: not seen", `{"a":tru,"a":2}`, nil},
		{"whitespace", " { \"a\" : [ 1 , 2 ] , \"a\" : { } } ", []string{"a"}},
		{"quotes and backslashes in values", `{"a":"x\\","b":"\"a\":1","a":0}`, []string{"a"}},
		{"not JSON", `nope`, nil},
		{"empty", ``, nil},
		{"trailing data", `{"a":1} {"a":1,"a":2}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DuplicateFields([]byte(tc.in))
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if slow := duplicateFieldsByTokens([]byte(tc.in)); !reflect.DeepEqual(got, slow) {
				t.Fatalf("got %q, the token scan %q", got, slow)
			}
		})
	}
}

// FuzzDuplicateFields: the byte scan never hides what the token scan finds.
func FuzzDuplicateFields(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":[{"b":1,"b":2}],"c":"\"}"}`, `{"a\u0061":1,"aa":2}`, `[1,{"x":null}]`, `{"a":{"b":{}},"b":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := DuplicateFields(b), duplicateFieldsByTokens(b); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %q, want %q", b, got, want)
		}
	})
}

// The byte scan answers for ordinary bodies (else it saves nothing).
func TestNoDuplicatesAnswersOrdinaryBodies(t *testing.T) {
	for _, in := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"x"}},"data":{"k":"v\n\"q\""}}`,
		"{\n  \"spec\": {\"containers\": [{\"name\": \"c\", \"ports\": [{\"containerPort\": 80}], \"env\": []}], \"replicas\": 3.5e2, \"paused\": false, \"x\": null}\n}\n",
	} {
		if !noDuplicates([]byte(in)) {
			t.Errorf("%s: the token scan would run", in)
		}
	}
}
