package validation

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The two 422 answers of transcript bad-requests: each is one StatusCause
// (field, reason, message).
func TestBadRequestsTranscript(t *testing.T) {
	cases := []struct {
		name, meta             string
		field, reason, message string
	}{
		{
			"invalid metadata.name", `{"name":"Bad_Name","namespace":"default"}`,
			"metadata.name", "FieldValueInvalid",
			`Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
		},
		{
			"invalid label value", `{"labels":{"app":"not ok!"},"name":"w1","namespace":"default"}`,
			"metadata.labels", "FieldValueInvalid",
			`Invalid value: "not ok!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonx.DecodeObject([]byte(c.meta))
			if err != nil {
				t.Fatal(err)
			}
			errs := ValidateObjectMeta(m, true, NameIsDNSSubdomain, field.NewPath("metadata"))
			if len(errs) != 1 {
				t.Fatalf("got %d errors: %s", len(errs), errs.Message())
			}
			e := errs[0]
			if e.Field != c.field || string(e.Type) != c.reason || e.Body() != c.message {
				t.Fatalf("got cause {%s %s %s}\nwant      {%s %s %s}", e.Field, e.Type, e.Body(), c.field, c.reason, c.message)
			}
			if want := c.field + ": " + c.message; errs.Message() != want {
				t.Fatalf("Message() = %s\nwant        %s", errs.Message(), want)
			}
		})
	}
}

func TestValidateObjectMetaShapes(t *testing.T) {
	cases := []struct {
		name string
		meta map[string]any
		want string
	}{
		{"nil metadata", nil, "[metadata.name: Required value: name or generateName is required, metadata.namespace: Required value]"},
		// Wrongly typed fields are treated as absent (the decoder drops them).
		{"wrong types", map[string]any{"name": "ok", "namespace": "default", "labels": "x", "annotations": []any{1},
			"finalizers": "f", "ownerReferences": map[string]any{}, "generation": "1"}, ""},
		{"non-string label value", map[string]any{"name": "ok", "namespace": "default", "labels": map[string]any{"a": int64(1)}}, ""},
		{"path segment name", map[string]any{"name": "..", "namespace": "default"}, `metadata.name: Invalid value: "..": may not be '..'`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fn := NameIsDNSSubdomain
			if c.name == "path segment name" {
				fn = NameIsPathSegment
			}
			got := ValidateObjectMeta(c.meta, true, fn, field.NewPath("metadata"))
			if c.want == "" {
				if len(got) != 0 {
					t.Fatalf("unexpected errors: %s", got.Message())
				}
				return
			}
			if got.Message() != c.want {
				t.Fatalf("got  %s\nwant %s", got.Message(), c.want)
			}
		})
	}
}

func TestMaskTrailingDash(t *testing.T) {
	cases := map[string]string{"web-": "wea", "a-": "a", "-": "-", "web": "web", "": ""}
	for in, want := range cases {
		t.Run(in, func(t *testing.T) {
			if got := maskTrailingDash(in); got != want {
				t.Fatalf("maskTrailingDash(%q) = %q, want %q", in, got, want)
			}
		})
	}
}
