package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// panicky is an engine whose every method panics.
type panicky struct{ cel.Engine }

func (panicky) CheckCRD(cel.CheckCRDRequest) ([]cel.Cause, error) { panic("boom") }

func TestCall(t *testing.T) {
	crd, _ := json.Marshal(cel.CheckCRDRequest{CRD: json.RawMessage(`{"kind":"CustomResourceDefinition"}`)})
	for _, tc := range []struct {
		name, method string
		engine       cel.Engine
		req          []byte
		wantErr      string
	}{
		{"a panic is the call's error", "CheckCRD", panicky{}, crd, "cel: CheckCRD panicked: boom"},
		{"an unknown method", "Nope", engine.New(), []byte(`{}`), `cel: unknown method "Nope"`},
		{"a request that is not JSON", "CheckCRD", engine.New(), []byte(`{`), "unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := call(tc.engine, tc.method, tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || out != nil {
				t.Fatalf("call = %q, %v; want the error %q", out, err, tc.wantErr)
			}
		})
	}
	// the composed engine answers every method of the contract — never an
	// unknown method
	for _, m := range []string{"CheckCRD", "ValidateCustomResource", "CheckPolicy", "Admit"} {
		t.Run("engine answers "+m, func(t *testing.T) {
			_, err := call(engine.New(), m, []byte(`{}`))
			if errors.Is(err, cel.ErrUnknownMethod) {
				t.Fatalf("%s: %v", m, err)
			}
		})
	}
}

func TestWarm(t *testing.T) {
	if err := warm(engine.New()); err != nil {
		t.Fatalf("warm: %v", err)
	}
	causes, err := engine.New().CheckCRD(cel.CheckCRDRequest{CRD: json.RawMessage(warmCRD[len(`{"crd": `) : len(warmCRD)-1])})
	if err != nil || len(causes) != 0 {
		t.Fatalf("warmCRD is not a valid CRD with a rule: %v, %v", causes, err)
	}
	if err := warmPolicyCheck(engine.New()); err != nil {
		t.Fatalf("warmPolicyCheck: %v", err)
	}
	causes, err = engine.New().CheckPolicy(cel.CheckPolicyRequest{Object: json.RawMessage(warmPolicy[len(`{"object": `) : len(warmPolicy)-1])})
	if err != nil || len(causes) != 0 {
		t.Fatalf("warmPolicy is not a valid policy: %v, %v", causes, err)
	}
	// a policy with a bad expression has causes: the check above can fail
	bad := strings.Replace(warmPolicy[len(`{"object": `):len(warmPolicy)-1], "variables.r <= 5", "variables.r <=", 1)
	if causes, err := engine.New().CheckPolicy(cel.CheckPolicyRequest{Object: json.RawMessage(bad)}); err != nil || len(causes) == 0 {
		t.Fatalf("a broken warmPolicy passes: %v, %v", causes, err)
	}
}
