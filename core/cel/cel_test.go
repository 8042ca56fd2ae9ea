package cel

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fake answers every method with what it was told, and records the
// request it got (after its trip through JSON).
type fake struct {
	causes   []Cause
	warnings []string
	adm      AdmissionResponse
	// typeWarnings answer TypeCheck
	typeWarnings []ExpressionWarning
	err          error
	got          any
}

func (f *fake) CheckCRD(r CheckCRDRequest) ([]Cause, error) { f.got = r; return f.causes, f.err }
func (f *fake) ValidateCustomResource(r CustomResourceRequest) (CustomResourceResponse, error) {
	f.got = r
	return CustomResourceResponse{Causes: f.causes, Warnings: f.warnings}, f.err
}
func (f *fake) CheckPolicy(r CheckPolicyRequest) ([]Cause, error) { f.got = r; return f.causes, f.err }
func (f *fake) Admit(r AdmissionRequest) (AdmissionResponse, error) {
	f.got = r
	return f.adm, f.err
}
func (f *fake) TypeCheck(r TypeCheckRequest) ([]ExpressionWarning, error) {
	f.got = r
	return f.typeWarnings, f.err
}

// wire is the browser's transport without the browser: bytes in, bytes
// out, and an error is only its text (as kubesandboxCEL's [error, null]).
type wire struct {
	e     Engine
	calls []string
}

func (w *wire) Call(method string, req []byte) ([]byte, error) {
	w.calls = append(w.calls, method)
	out, err := Dispatch(w.e, method, append([]byte(nil), req...))
	if err != nil {
		return nil, errors.New(err.Error())
	}
	return out, nil
}

func TestRemoteDispatchRoundTrip(t *testing.T) {
	causes := []Cause{
		{Type: "FieldValueInvalid", Field: "spec", BadValue: "object", Detail: "failed rule: self.replicas <= self.maxReplicas"},
		{Type: "FieldValueRequired", Field: "spec.x-kubernetes-validations[0].rule"},
		{Type: "FieldValueInvalid", Field: "spec.n", BadValue: float64(5)}, // JSON numbers come back as float64
	}
	crd := json.RawMessage(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"}`)
	obj := json.RawMessage(`{"spec":{"replicas":5,"maxReplicas":3}}`)
	for _, tc := range []struct {
		name   string
		method string
		call   func(Engine) (any, error)
		want   any // the request the engine gets
	}{
		{"CheckCRD create", "CheckCRD", func(e Engine) (any, error) { return e.CheckCRD(CheckCRDRequest{CRD: crd}) }, CheckCRDRequest{CRD: crd}},
		{"CheckCRD update", "CheckCRD", func(e Engine) (any, error) { return e.CheckCRD(CheckCRDRequest{CRD: crd, Old: crd}) }, CheckCRDRequest{CRD: crd, Old: crd}},
		{"ValidateCustomResource", "ValidateCustomResource", func(e Engine) (any, error) {
			resp, err := e.ValidateCustomResource(CustomResourceRequest{CRDKey: "uid/7", CRD: crd, Version: "v1", Subresource: "status", Object: obj, Old: obj})
			return resp.Causes, err
		}, CustomResourceRequest{CRDKey: "uid/7", CRD: crd, Version: "v1", Subresource: "status", Object: obj, Old: obj}},
		{"CheckPolicy", "CheckPolicy", func(e Engine) (any, error) { return e.CheckPolicy(CheckPolicyRequest{Object: obj}) }, CheckPolicyRequest{Object: obj}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fake{causes: causes}
			w := &wire{e: f}
			got, err := tc.call(Remote(w))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, causes) {
				t.Errorf("causes = %#v, want %#v", got, causes)
			}
			if !reflect.DeepEqual(f.got, tc.want) {
				t.Errorf("the engine got %#v, want %#v", f.got, tc.want)
			}
			if len(w.calls) != 1 || w.calls[0] != tc.method {
				t.Errorf("calls = %v, want [%s]", w.calls, tc.method)
			}
		})
	}

	t.Run("no causes", func(t *testing.T) {
		got, err := Remote(&wire{e: &fake{}}).CheckCRD(CheckCRDRequest{CRD: crd})
		if err != nil || len(got) != 0 {
			t.Fatalf("CheckCRD = %v, %v; want no causes", got, err)
		}
	})
	t.Run("Admit", func(t *testing.T) {
		adm := AdmissionResponse{Denied: json.RawMessage(`{"kind":"Status","code":403}`), Warnings: []string{"Validation failed"}}
		f := &fake{adm: adm}
		req := AdmissionRequest{Operation: "CREATE", Object: obj, Policies: []PolicyInput{{Policy: crd, ParamScope: "Namespaced"}}, Bindings: []BindingInput{{Binding: obj, Params: []json.RawMessage{obj}}}}
		got, err := Remote(&wire{e: f}).Admit(req)
		if err != nil || !reflect.DeepEqual(got, adm) || !reflect.DeepEqual(f.got, req) {
			t.Fatalf("Admit = %#v, %v (engine got %#v)", got, err, f.got)
		}
	})
	t.Run("TypeCheck", func(t *testing.T) {
		ws := []ExpressionWarning{{FieldRef: "spec.validations[0].expression", Warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'\n"}}
		f := &fake{typeWarnings: ws}
		req := TypeCheckRequest{Policy: obj,
			Kinds:   []ResourceKind{{Resource: GVR{Group: "apps", Version: "v1", Resource: "deployments"}, Kind: GVK{Group: "apps", Version: "v1", Kind: "Deployment"}}},
			Schemas: map[string]json.RawMessage{"apis/apps/v1": json.RawMessage(`{"components":{"schemas":{}}}`)}}
		got, err := Remote(&wire{e: f}).TypeCheck(req)
		if err != nil || !reflect.DeepEqual(got, ws) || !reflect.DeepEqual(f.got, req) {
			t.Fatalf("TypeCheck = %#v, %v (engine got %#v)", got, err, f.got)
		}
	})
	t.Run("ValidateCustomResource warnings", func(t *testing.T) {
		f := &fake{causes: causes[:1], warnings: []string{"ratcheted: spec: Invalid value"}}
		got, err := Remote(&wire{e: f}).ValidateCustomResource(CustomResourceRequest{CRD: crd, Object: obj, Old: obj})
		if err != nil || !reflect.DeepEqual(got, CustomResourceResponse{Causes: causes[:1], Warnings: f.warnings}) {
			t.Fatalf("ValidateCustomResource = %#v, %v", got, err)
		}
	})
	t.Run("an engine error is the call's error", func(t *testing.T) {
		_, err := Remote(&wire{e: &fake{err: errors.New("cel: not built yet")}}).ValidateCustomResource(CustomResourceRequest{CRD: crd, Object: obj})
		if err == nil || err.Error() != "cel: not built yet" {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		name, method, req, want string
	}{
		{"unknown method", "Mutate", `{}`, `cel: unknown method "Mutate"`},
		{"request not JSON", "CheckCRD", `{"crd":`, "unexpected end of JSON input"},
		{"request of the wrong shape", "Admit", `{"operation": 3}`, "cannot unmarshal number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Dispatch(&fake{}, tc.method, []byte(tc.req))
			if err == nil || !strings.Contains(err.Error(), tc.want) || out != nil {
				t.Fatalf("Dispatch = %q, %v; want the error %q", out, err, tc.want)
			}
		})
	}
	out, err := Dispatch(&fake{causes: []Cause{{Type: "FieldValueForbidden", Field: "spec"}}}, "CheckCRD", []byte(`{"crd":{}}`))
	if err != nil || string(out) != `[{"type":"FieldValueForbidden","field":"spec"}]` {
		t.Fatalf("Dispatch = %s, %v", out, err)
	}
	if !errors.Is(func() error { _, err := Dispatch(&fake{}, "x", nil); return err }(), ErrUnknownMethod) {
		t.Fatal("an unknown method is not ErrUnknownMethod")
	}
}

// failing is a transport that cannot reach its engine.
type failing struct{}

func (failing) Call(string, []byte) ([]byte, error) {
	return nil, errors.New("cel.wasm could not be loaded")
}

func TestRemoteTransportFailure(t *testing.T) {
	if _, err := Remote(failing{}).CheckPolicy(CheckPolicyRequest{}); err == nil || err.Error() != "cel.wasm could not be loaded" {
		t.Fatalf("err = %v", err)
	}
	bad := transportFunc(func(string, []byte) ([]byte, error) { return []byte(`{"not":"causes"}`), nil })
	if _, err := Remote(bad).CheckCRD(CheckCRDRequest{}); err == nil {
		t.Fatal("an answer of the wrong shape decoded")
	}
}

type transportFunc func(string, []byte) ([]byte, error)

func (f transportFunc) Call(m string, r []byte) ([]byte, error) { return f(m, r) }
