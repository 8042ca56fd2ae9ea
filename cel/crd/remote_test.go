package crd_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/cel/crd"
	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// wire carries calls to an engine as the pipe and cel.wasm do (bytes in,
// bytes or an error's text out) and keeps what it carried.
type wire struct {
	e    cel.Engine
	sent []string
}

func (w *wire) Call(method string, req []byte) ([]byte, error) {
	w.sent = append(w.sent, string(req))
	out, err := cel.Dispatch(w.e, method, req)
	if err != nil {
		return nil, errors.New(err.Error())
	}
	return out, nil
}

// TestCRDSentOnceAcrossTheWire: the core's Remote sends a CRD's JSON with
// the first write under its key only, and again to an engine that lost it
// (a restart); the verdicts are the engine's either way.
func TestCRDSentOnceAcrossTheWire(t *testing.T) {
	w := &wire{e: engine.New()}
	r := cel.Remote(w)
	write := func(key, spec string) []string {
		t.Helper()
		resp, err := r.ValidateCustomResource(cel.CustomResourceRequest{CRDKey: key, CRD: []byte(widgetCRD(true)), Version: "v1",
			Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":` + spec + `}`)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range resp.Causes {
			got = append(got, c.Field+": "+c.Detail)
		}
		return got
	}
	steps := []struct {
		name, spec string
		restart    bool
		causes     int
		crdSent    bool
	}{
		{"first write compiles", `{"replicas":5,"maxReplicas":3}`, false, 1, true},
		{"second write, no CRD", `{"replicas":5,"maxReplicas":3}`, false, 1, false},
		{"valid object, no CRD", `{"replicas":1,"maxReplicas":3}`, false, 0, false},
		{"engine restarted: asked again", `{"replicas":5,"maxReplicas":3}`, true, 1, true},
		{"and kept again", `{"replicas":1,"maxReplicas":3}`, false, 0, false},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.restart {
				w.e = engine.New()
			}
			w.sent = nil
			got := write("uid-1/7", s.spec)
			if len(got) != s.causes {
				t.Errorf("causes %q, want %d", got, s.causes)
			}
			last := w.sent[len(w.sent)-1]
			if sent := strings.Contains(last, "CustomResourceDefinition"); sent != s.crdSent {
				t.Errorf("the CRD sent: %v, want %v (calls %d)", sent, s.crdSent, len(w.sent))
			}
		})
	}
	if _, err := crd.New().ValidateCustomResource(cel.CustomResourceRequest{CRDKey: "uid-2/1", Version: "v1", Object: []byte(`{}`)}); !errors.Is(err, cel.ErrUnknownCRDKey) {
		t.Errorf("a key the engine never saw, without its CRD: %v, want ErrUnknownCRDKey", err)
	}
}

// BenchmarkCRDOverTheWire: one custom resource write's CEL call across a
// transport, under a CRD of ~100 KB (400 documented properties, as large
// operators' CRDs are), with the CRD in every call (before) and sent once
// per key (Remote now). The engine's compiled validator is cached by key
// in both; the difference is carrying and scanning the CRD's JSON.
func BenchmarkCRDOverTheWire(b *testing.B) {
	var props strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&props, `,"field%d":{"type":"string","description":"%s"}`, i, strings.Repeat("words of documentation ", 9))
	}
	big := strings.Replace(widgetCRD(true), `"replicas":{"type":"integer"}`, `"replicas":{"type":"integer"}`+props.String(), 1)
	obj := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":1,"maxReplicas":3}}`)
	req := cel.CustomResourceRequest{CRDKey: "uid/1", CRD: []byte(big), Version: "v1", Object: obj}
	b.Logf("CRD %d bytes", len(big))
	b.Run("CRD every call", func(b *testing.B) {
		e := engine.New()
		for i := 0; i < b.N; i++ {
			line, err := json.Marshal(req)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cel.Dispatch(e, "ValidateCustomResource", line); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("CRD once per key", func(b *testing.B) {
		r := cel.Remote(&wire{e: engine.New()})
		for i := 0; i < b.N; i++ {
			if _, err := r.ValidateCustomResource(req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
