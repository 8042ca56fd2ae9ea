package cel

import (
	"testing"
)

// TestErrorsKeepKubeMessages: a cause's Message (kube's ErrorBody) prints
// word for word; a cause without one prints from its value and detail.
func TestErrorsKeepKubeMessages(t *testing.T) {
	cases := []struct {
		name  string
		cause Cause
		want  string
	}{
		{"failed rule, value omitted", Cause{Type: "FieldValueInvalid", Field: "spec", Detail: "failed rule: self.a < self.b",
			Message: "Invalid value: failed rule: self.a < self.b"}, "spec: Invalid value: failed rule: self.a < self.b"},
		{"a rule's struct as kube renders it", Cause{Type: "FieldValueInvalid", Field: "x.rule", Detail: "compilation failed",
			Message: `Invalid value: {"Rule":"self.a <","Message":""}: compilation failed`}, `x.rule: Invalid value: {"Rule":"self.a <","Message":""}: compilation failed`},
		{"reason Required", Cause{Type: "FieldValueRequired", Field: "spec.labels", Detail: "needs an owner",
			Message: "Required value: needs an owner"}, "spec.labels: Required value: needs an owner"},
		{"duplicate without detail", Cause{Type: "FieldValueDuplicate", Field: "spec", Message: "Duplicate value"}, "spec: Duplicate value"},
		{"no message: value and detail", Cause{Type: "FieldValueInvalid", Field: "spec.name", BadValue: "Abc", Detail: "lowercase"}, `spec.name: Invalid value: "Abc": lowercase`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := Errors([]Cause{c.cause})
			if len(errs) != 1 || errs[0].Error() != c.want || string(errs[0].Type) != c.cause.Type {
				t.Errorf("got %v, want %q", errs, c.want)
			}
		})
	}
}

// fakeRules answers ValidateCustomResource with what it was given.
type fakeRules struct{ Engine }

func (fakeRules) ValidateCustomResource(r CustomResourceRequest) (CustomResourceResponse, error) {
	return CustomResourceResponse{Causes: []Cause{{Type: "FieldValueInvalid", Field: r.Version, Message: string(r.Object)}}, Warnings: []string{r.CRDKey}}, nil
}

type loop struct{ e Engine }

func (l loop) Call(method string, req []byte) ([]byte, error) { return Dispatch(l.e, method, req) }

// TestValidateCustomResourceAcrossTransport: Remote and Dispatch carry a
// request and its answer unchanged.
func TestValidateCustomResourceAcrossTransport(t *testing.T) {
	r := Remote(loop{fakeRules{}})
	resp, err := r.ValidateCustomResource(CustomResourceRequest{CRDKey: "uid/7", Version: "v1", Object: []byte(`{"a":1}`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Causes) != 1 || resp.Causes[0].Field != "v1" || resp.Causes[0].Message != `{"a":1}` || len(resp.Warnings) != 1 || resp.Warnings[0] != "uid/7" {
		t.Errorf("answer %+v", resp)
	}
}
