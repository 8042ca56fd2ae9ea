package cel

import (
	"errors"
	"fmt"
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

// keyedRules is an engine that keeps CRDs by key, as cel/crd does: a
// request without a CRD needs its key kept. forgetAll plays a restart.
type keyedRules struct {
	Engine
	kept     map[string]bool
	withCRD  int  // requests that carried the CRD
	oldStyle bool // an engine that fails its own way on a missing CRD
}

func (k *keyedRules) ValidateCustomResource(r CustomResourceRequest) (CustomResourceResponse, error) {
	if len(r.CRD) == 0 {
		if !k.kept[r.CRDKey] {
			if k.oldStyle {
				return CustomResourceResponse{}, errors.New("unexpected end of JSON input")
			}
			return CustomResourceResponse{}, ErrUnknownCRDKey
		}
	} else {
		k.withCRD++
		k.kept[r.CRDKey] = true
	}
	return CustomResourceResponse{Warnings: []string{r.CRDKey + " " + string(r.Object)}}, nil
}

// TestRemoteSendsCRDOnce: the CRD crosses the transport with the first
// write under its key, again after the engine lost it, and with every
// write that names no key.
func TestRemoteSendsCRDOnce(t *testing.T) {
	type write struct {
		key     string
		restart bool // the engine forgets every CRD first
	}
	cases := []struct {
		name     string
		oldStyle bool
		writes   []write
		withCRD  int
	}{
		{"one key, three writes", false, []write{{key: "u/1"}, {key: "u/1"}, {key: "u/1"}}, 1},
		{"a new key per CRD write", false, []write{{key: "u/1"}, {key: "u/2"}, {key: "u/2"}, {key: "u/1"}}, 2},
		{"engine restarted", false, []write{{key: "u/1"}, {key: "u/1", restart: true}, {key: "u/1"}}, 2},
		{"an engine without the protocol", true, []write{{key: "u/1"}, {key: "u/1", restart: true}, {key: "u/1"}}, 2},
		{"no key", false, []write{{}, {}}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &keyedRules{kept: map[string]bool{}, oldStyle: c.oldStyle}
			r := Remote(loop{e})
			for i, w := range c.writes {
				if w.restart {
					e.kept = map[string]bool{}
				}
				obj := fmt.Sprintf(`{"n":%d}`, i)
				resp, err := r.ValidateCustomResource(CustomResourceRequest{CRDKey: w.key, CRD: []byte(`{"kind":"CustomResourceDefinition"}`), Version: "v1", Object: []byte(obj)})
				if err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
				if want := w.key + " " + obj; len(resp.Warnings) != 1 || resp.Warnings[0] != want {
					t.Fatalf("write %d answered %+v, want the warning %q", i, resp, want)
				}
			}
			if e.withCRD != c.withCRD {
				t.Errorf("the CRD crossed %d times, want %d", e.withCRD, c.withCRD)
			}
		})
	}
}
