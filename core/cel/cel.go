// Package cel is the core's side of the Common Expression Language: the
// x-kubernetes-validations rules of CRD schemas and ValidatingAdmissionPolicy.
//
// The core never links cel-go (it would double the browser build). It asks
// an Engine, which lives in the module of its own at cel/ (the real
// k8s.io/apiextensions-apiserver and k8s.io/apiserver code):
//
//   - natively the engine is linked into the server (cel/engine.New());
//   - in the browser the engine is a wasm of its own (cel.wasm), loaded the
//     first time a rule or a policy exists, and reached through a Transport:
//     every call is a method name and a JSON request, answered by a JSON
//     response — Remote is the client end, Dispatch the serving end.
//
// A nil Engine means no CEL: rules are stored but not evaluated (the README
// says where that is the case).
//
// Worked example (native; the browser differs only in the transport):
//
//	srv := apiserver.New(apiserver.Options{CEL: engine.New()})
//	// POST a CRD whose schema has  x-kubernetes-validations:
//	//   [{rule: "self.replicas <= self.maxReplicas"}]
//	//   → the core calls CheckCRD(crd, nil): no causes, 201
//	// POST a custom resource {spec: {replicas: 5, maxReplicas: 3}}
//	//   → ValidateCustomResource(...) answers one cause {Type:
//	//     FieldValueInvalid, Field: spec, Message: "Invalid value: failed
//	//     rule: self.replicas <= self.maxReplicas"}
//	//   → 422 Invalid, nothing stored
package cel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/field"
)

// Engine evaluates CEL for the core. Every method is safe for concurrent
// use. Its halves: CRDRules (crd.go) and Policies (policy.go).
type Engine interface {
	CRDRules
	Policies
}

// Cause is one validation failure as k8s.io/apimachinery's field.Error
// holds it, so that it crosses a JSON boundary unchanged: Type is the
// field.ErrorType's reason string ("FieldValueInvalid", ...), BadValue the
// value as kube renders it.
type Cause struct {
	Type     string `json:"type"`
	Field    string `json:"field"`
	BadValue any    `json:"badValue,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// Message, when set, is the cause's message as kube prints it
	// (field.Error.ErrorBody: "Invalid value: <value>: <detail>"), shown
	// as is: a bad value JSON cannot carry as kube renders it (a CRD
	// rule's ValidationRule struct prints as Go's %#v, a failed rule omits
	// its value) only exists there.
	Message string `json:"message,omitempty"`
}

// Transport carries one call to an engine elsewhere (the browser's
// cel.wasm): method names an Engine method, req and the answer are JSON.
// An error is a failure of the transport or of the engine itself (not a
// validation failure, which is an answer).
type Transport interface {
	Call(method string, req []byte) ([]byte, error)
}

// ErrUnknownMethod answers a call to a method the engine does not have.
var ErrUnknownMethod = errors.New("cel: unknown method")

// dispatchers serve the methods of each half (crd.go, policy.go): ok is
// false for a method the half does not have. A switch, not a table filled
// at init: the core's wasm never dispatches, and so links none of it.
var dispatchers = [...]func(e Engine, method string, req []byte) (resp any, ok bool, err error){dispatchCRD, dispatchPolicy}

// Dispatch serves one Transport call on e: the cel.wasm's side.
func Dispatch(e Engine, method string, req []byte) ([]byte, error) {
	for _, d := range dispatchers {
		resp, ok, err := d(e, method, req)
		if !ok {
			continue
		}
		if err != nil {
			return nil, err
		}
		return json.Marshal(resp)
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownMethod, method)
}

// remote is an Engine whose methods are Transport calls. It remembers
// which CRD keys the engine has compiled (crd.go, sentKeys).
type remote struct {
	t    Transport
	sent sentKeys
}

// Remote is the Engine at the other end of t: the core's side in the
// browser, and the native server's for bin/kubesandbox-cel.
func Remote(t Transport) Engine { return &remote{t: t} }

// call sends req as method and decodes the answer into resp.
func (r *remote) call(method string, req, resp any) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	out, err := r.t.Call(method, b)
	if err != nil {
		return err
	}
	return json.Unmarshal(out, resp)
}

// serve decodes req as f's request and calls f.
func serve[Req, Resp any](req []byte, f func(Req) (Resp, error)) (any, bool, error) {
	var r Req
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, true, err
	}
	resp, err := f(r)
	return resp, true, err
}

// Errors turns an engine's causes back into the core's field errors,
// printed as kube printed them: a cause with a Message (kube's ErrorBody)
// keeps it word for word.
//
//	Errors([]Cause{{Type: "FieldValueInvalid", Field: "spec",
//		Message: "Invalid value: failed rule: self.replicas <= self.maxReplicas"}})
//	// → spec: Invalid value: failed rule: self.replicas <= self.maxReplicas
func Errors(causes []Cause) field.ErrorList {
	errs := make(field.ErrorList, 0, len(causes))
	for _, c := range causes {
		t := field.Type(c.Type)
		fe := &field.Error{Type: t, Field: c.Field, BadValue: c.BadValue, Detail: c.Detail}
		if c.Message != "" {
			fe.BadValue = field.OmitValue
			fe.Detail = strings.TrimPrefix(strings.TrimPrefix(c.Message, t.Text()), ": ")
		}
		errs = append(errs, fe)
	}
	return errs
}
