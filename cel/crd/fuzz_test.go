package crd_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// FuzzDispatchCRD feeds arbitrary JSON to the engine's two CRD methods as
// the browser's transport would (cel.Dispatch): a bad request is an error,
// never a panic (in cel.wasm a panic ends the engine).
func FuzzDispatchCRD(f *testing.F) {
	crd := widgetCRD(true)
	f.Add("CheckCRD", `{"crd":`+crd+`}`)
	f.Add("CheckCRD", `{"crd":`+crd+`,"old":`+widgetCRD(false)+`}`)
	f.Add("CheckCRD", `{"crd":{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"x-kubernetes-validations":[{"rule":"self.a <"}]}}}]}}}`)
	f.Add("ValidateCustomResource", `{"crdKey":"k","crd":`+crd+`,"version":"v1","object":{"spec":{"replicas":5,"maxReplicas":3}}}`)
	f.Add("ValidateCustomResource", `{"crdKey":"k","crd":`+crd+`,"version":"v1","object":{"spec":{"id":"b"}},"old":{"spec":{"id":"a"}}}`)
	f.Add("ValidateCustomResource", `{"crd":`+crd+`,"version":"v9","object":[]}`)
	f.Add("ValidateCustomResource", `{"crd":null,"object":null}`)
	f.Add("CheckCRD", `not json`)
	e := engine.New()
	f.Fuzz(func(t *testing.T, method, req string) {
		if method != "CheckCRD" && method != "ValidateCustomResource" {
			method = "ValidateCustomResource"
		}
		out, err := cel.Dispatch(e, method, []byte(req))
		if err == nil && out == nil {
			t.Fatal("no answer and no error")
		}
	})
}
