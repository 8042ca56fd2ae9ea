package replay

import (
	"strings"
	"testing"
)

func ct(s string) *string { return &s }

// TestNormaliseRules checks each numbered rule on hand-written raw runs,
// including forms the transcripts do not happen to contain.
func TestNormaliseRules(t *testing.T) {
	json := ct("application/json")
	cases := []struct {
		name  string
		steps []RawStep
		want  []string // substrings of each rendered step, in order
		not   []string // substrings that must not appear in any step
	}{{
		name: "labels by first appearance in sorted key order",
		steps: []RawStep{
			{Kind: KindRequest, Status: 201, ContentType: json,
				Body: []byte(`{"metadata":{"uid":"2b6f0cc9-0c38-4ae5-9e4a-3c8e8c3c1a11","resourceVersion":"900","creationTimestamp":"2026-11-22T07:39:04Z"}}`)},
			{Kind: KindRequest, Status: 200, ContentType: json,
				Body: []byte(`{"b":{"resourceVersion":"100"},"a":{"resourceVersion":"900"}}`)},
		},
		want: []string{`"creationTimestamp": "<time>"`, `"resourceVersion": "RV1"`, `"uid": "UID1"`,
			"\"a\": {\n    \"resourceVersion\": \"RV1\"", "\"b\": {\n    \"resourceVersion\": \"RV2\""},
	}, {
		name: "resourceVersion and uid inside texts",
		steps: []RawStep{{Kind: KindRequest, Status: 409, ContentType: json,
			Warnings: []string{`299 - "object 0b2f1e36-11aa-4b9c-8d2e-6f0e8c3c1a11 at 77"`},
			Body: []byte(`{"kind":"Status","message":"the ResourceVersion in the precondition (5) does not match the ResourceVersion in record (6); patch {\"metadata\":{\"resourceVersion\":\"7\"}} uid ` +
				`6f1c2a9e-0000-4000-8000-000000000000 at 2026-11-22T07:39:04.123+02:00"}`)}},
		want: []string{`Warning: 299 - "object UID1 at 77"`,
			`precondition (RV1) does not match the ResourceVersion in record (RV2); patch {\"metadata\":{\"resourceVersion\":\"RV3\"}} uid UID2 at <time>`},
	}, {
		name: "YAML text: resourceVersion, continue, times",
		steps: []RawStep{{Kind: KindRequest, Status: 200, ContentType: ct("application/yaml"),
			Body: []byte("metadata:\n  continue: eyJ2IjoiMSJ9\n  creationTimestamp: \"2026-11-22T07:39:04Z\"\n  resourceVersion: \"812\"\n  uid: 6f1c2a9e-0000-4000-8000-000000000001\nother:\n  continue: \"\"\n")}},
		want: []string{"continue: CONT1\n", "creationTimestamp: \"<time>\"", "resourceVersion: \"RV1\"", "uid: UID1", "continue: \"\"\n"},
	}, {
		name: "the same raw value keeps its label across steps and kinds",
		steps: []RawStep{
			{Kind: KindRequest, Status: 200, ContentType: json, Body: []byte(`{"metadata":{"continue":"tok","resourceVersion":"5"}}`)},
			{Kind: KindRead, Events: [][]byte{[]byte(`{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}`)}},
			{Kind: KindRequest, Status: 200, ContentType: json, Body: []byte(`{"metadata":{"continue":"tok2","resourceVersion":"6"}}`)},
		},
		want: []string{`"continue": "CONT1"`, "events: 1\nevent 1:\n{\n  \"object\": {\n    \"metadata\": {\n      \"resourceVersion\": \"RV1\"", `"continue": "CONT2"`},
	}, {
		name: "managedFields and causes sorted, message list rewritten",
		steps: []RawStep{{Kind: KindRequest, Status: 422, ContentType: json, Body: []byte(`{"kind":"Status",` +
			`"message":"W \"w\" is invalid: [spec.b: Invalid value: 1: x, spec.a: Required value]",` +
			`"details":{"causes":[{"field":"spec.b","reason":"FieldValueInvalid","message":"Invalid value: 1: x"},{"field":"spec.a","reason":"FieldValueRequired","message":"Required value"}]},` +
			`"managedFields":[{"manager":"z","operation":"Update"},{"manager":"b","operation":"Apply"},{"manager":"a","operation":"Update","subresource":"status"},{"manager":"a","operation":"Update"}]}`)}},
		want: []string{"\"field\": \"spec.a\",\n        \"message\": \"Required value\"",
			`"manager": "b",` + "\n      \"operation\": \"Apply\"", `"manager": "a",` + "\n      \"operation\": \"Update\"\n",
			`"subresource": "status"`, `"manager": "z"`,
			`is invalid: [spec.a: Required value, spec.b: Invalid value: 1: x]`,
		},
	}, {
		name: "generated names: objects and error messages",
		steps: []RawStep{
			{Kind: KindRequest, Status: 201, ContentType: json, RequestBody: []byte(`{"metadata":{"generateName":"alpha-"}}`),
				Body: []byte(`{"metadata":{"generateName":"alpha-","name":"alpha-q8z2k"},"note":"made alpha-q8z2k"}`)},
			{Kind: KindRequest, Status: 422, ContentType: json, RequestBody: []byte(`{"metadata":{"generateName":"bad_"}}`),
				Body: []byte(`{"kind":"Status","message":"Widget \"bad_k2j4x\" is invalid; bad_toolong stays"}`)},
			{Kind: KindRequest, Status: 201, ContentType: ct("application/yaml"), RequestBody: []byte("metadata:\n  generateName: gamma-\n"),
				Body: []byte("name: gamma-abc12\n")},
		},
		want: []string{`"name": "alpha-<rand>"`, `"note": "made alpha-<rand>"`, `Widget \"bad_<rand>\" is invalid; bad_toolong stays`, "name: gamma-<rand>"},
	}, {
		name: "Table date columns become <age>",
		steps: []RawStep{{Kind: KindRequest, Status: 200, ContentType: json,
			Body: []byte(`{"kind":"Table","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Age","type":"date"}],"rows":[{"cells":["w1","5s"]},{"cells":["w2"]}]}`)}},
		want: []string{"\"w1\",\n        \"<age>\"", "\"cells\": [\n        \"w2\"\n      ]"},
	}, {
		name: "built-in printers' age columns (typed string) become <age>, text cells only",
		steps: []RawStep{{Kind: KindRequest, Status: 200, ContentType: json,
			Body: []byte(`{"kind":"Table","columnDefinitions":[{"name":"Name","type":"string"},{"name":"Last Seen","type":"string"},{"name":"Duration","type":"string"},{"name":"Count","type":"integer"}],"rows":[{"cells":["e1","7s",null,3]}]}`)}},
		want: []string{"\"e1\",\n        \"<age>\",\n        null,\n        3"},
	}, {
		name: "ignore paths, numbers as written, text and binary bodies",
		steps: []RawStep{
			{Kind: KindRequest, Status: 200, ContentType: json, Ignore: []string{"items.*.metadata.managedFields", "paths"},
				Body: []byte(`{"items":[{"metadata":{"managedFields":[1],"n":1.0}},{"metadata":{"n":1}}],"paths":["/x"]}`)},
			{Kind: KindRequest, Status: 201, ContentType: json, Ignore: []string{"$"}, Body: []byte(`{"a":1}`)},
			{Kind: KindRequest, Status: 404, ContentType: ct("text/plain; charset=utf-8"), Body: []byte("404 page not found\n")},
			{Kind: KindRequest, Status: 406, ContentType: ct("application/vnd.kubernetes.protobuf"), Body: []byte{0x6b, 0x38, 0x73, 0x00, 0xff}},
			{Kind: KindWatch, Status: 200, ContentType: json},
		},
		want: []string{"\"metadata\": {\n        \"n\": 1.0\n      }", "status: 201\nContent-Type: application/json\nbody:\n",
			"body:\n404 page not found\n\n", "body:\n(base64) azhzAP8=\n", "status: 200\nContent-Type: application/json\n"},
		not: []string{"managedFields", "paths", `"a": 1`},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(Normalise(c.steps), "\n---\n")
			rest := got
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (in order) %q in:\n%s", w, got)
				}
				rest = rest[i+len(w):]
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in:\n%s", n, got)
				}
			}
		})
	}
}

func TestDiff(t *testing.T) {
	cases := []struct{ name, a, b, want string }{
		{"equal", "x\n", "x\n", ""},
		{"change", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"append", "a\n", "a\nb\n", "@@ -1,1 +1,2 @@\n a\n+b\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "0\n2\n3\n4\n5\n6\n7\n8\n9\nX\n",
			"@@ -1,4 +1,4 @@\n-1\n+0\n 2\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+X\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Diff(c.a, c.b); got != c.want {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestLookupPath: the dotted paths of captures and waits, with "#" (length)
// and "key=value" (first list element whose key has that value).
func TestLookupPath(t *testing.T) {
	doc, _ := decodeJSON([]byte(`{"status":{"observedGeneration":2,"ready":true,"conditions":[{"type":"Available","status":"False"},{"type":"Progressing","reason":"NewReplicaSetAvailable"}]},"items":[1,2,3]}`))
	cases := []struct{ path, want string }{
		{"status.observedGeneration", "2"},
		{"status.ready", "true"},
		{"status.conditions.type=Progressing.reason", "NewReplicaSetAvailable"},
		{"status.conditions.type=Available.status", "False"},
		{"status.conditions.type=Missing.status", ""},
		{"status.conditions.1.type", "Progressing"},
		{"items.#", "3"},
		{"status.#", "3"},
		{"status.replicas", ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			v, _ := lookupPath(doc, c.path)
			if got := fieldText(v); got != c.want {
				t.Errorf("%s = %q, want %q", c.path, got, c.want)
			}
		})
	}
}
