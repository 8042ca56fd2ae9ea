package replay

import (
	"strings"
	"testing"
)

// FuzzParse: any input either fails to parse or yields checked steps whose
// Expected rendering does not panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"scenario":"s","steps":[{"name":"a","request":{"method":"GET","path":"/x"},"response":{"status":200,"headers":{"Content-Type":"application/json","Warning":"w"},"body":{"a":1}}}]}`))
	f.Add([]byte(`{"steps":[{"name":"r","read":{"handle":"h","events":1,"timeoutSeconds":1},"result":{"events":[{"type":"ADDED"}],"timedOut":false,"ended":false}},{"name":"c","close":"h"}]}`))
	f.Add([]byte(`{"steps":[{"name":"w","wait":{"path":"/p","status":404}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Parse(b)
		if err != nil {
			return
		}
		for i := range tr.Steps {
			if tr.Steps[i].Compared() {
				_ = Expected(&tr.Steps[i])
			}
		}
	})
}

// FuzzNormalise: normalising arbitrary bodies, warnings, events and ignore
// paths never panics and is deterministic.
func FuzzNormalise(f *testing.F) {
	f.Add([]byte(`{"metadata":{"uid":"6f1c2a9e-0000-4000-8000-000000000000","resourceVersion":"5","managedFields":[{"manager":"b"},{"manager":"a"}]}}`), "299 - \"x\"", "items.*.metadata", []byte(`{"type":"ADDED","object":{"metadata":{"resourceVersion":"5"}}}`))
	f.Add([]byte(`{"kind":"Status","message":"x: [b: y, a: z]","details":{"causes":[{"field":"b","message":"y"},{"field":"a","message":"z"}]}}`), "", "$", []byte(`[]`))
	f.Add([]byte("resourceVersion: \"12\"\ncontinue: abc\ngenerateName: p-\nname: p-abcde\n"), "ResourceVersion in record (3)", "0", []byte{0xff})
	f.Add([]byte(`{"kind":"Table","columnDefinitions":[{"type":"date"}],"rows":[{"cells":[]},{"cells":["1s"]},7]}`), "2026-11-22T07:39:04Z", "rows.0", []byte(`{"metadata":{"generateName":"g-","name":"g-12345"}}`))
	f.Fuzz(func(t *testing.T, body []byte, warning, ignore string, ev []byte) {
		steps := []RawStep{
			{Kind: KindRequest, Status: 200, Warnings: []string{warning}, Body: body, Ignore: strings.Split(ignore, ","), RequestBody: ev},
			{Kind: KindRead, Events: [][]byte{ev, body}, Ignore: []string{ignore}},
			{Kind: KindWatch, Status: 500, Body: ev},
		}
		a := strings.Join(Normalise(steps), "\x00")
		b := strings.Join(Normalise(steps), "\x00")
		if a != b {
			t.Fatalf("not deterministic:\n%s\n---\n%s", a, b)
		}
	})
}

// FuzzDiff: Diff is empty exactly for equal texts, and its hunks account
// for every changed line.
func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "0\n2\n3\n4\n5\n6\n7\n8\nX\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Diff(a, b)
		if (d == "") != (a == b) {
			t.Fatalf("Diff(%q, %q) = %q", a, b, d)
		}
		var minus, plus []string
		for _, l := range splitLines(d) {
			switch {
			case strings.HasPrefix(l, "-"):
				minus = append(minus, l[1:])
			case strings.HasPrefix(l, "+"):
				plus = append(plus, l[1:])
			}
		}
		if d != "" && len(minus) == 0 && len(plus) == 0 && strings.TrimSuffix(a, "\n") != strings.TrimSuffix(b, "\n") {
			t.Fatalf("Diff(%q, %q) shows no change: %q", a, b, d)
		}
	})
}
