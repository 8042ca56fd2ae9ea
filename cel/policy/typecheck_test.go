package policy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/cel/policy"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// A hand-made OpenAPI v3 document of one kind, widgets.example.com/v1
// Widget {spec: {size: integer}}, with a $ref as served documents have.
const widgetDoc = `{"openapi":"3.0.0","components":{"schemas":{
 "com.example.v1.Widget":{"type":"object","x-kubernetes-group-version-kind":[{"group":"example.com","version":"v1","kind":"Widget"}],
  "properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"spec":{"$ref":"#/components/schemas/com.example.v1.WidgetSpec"}}},
 "com.example.v1.WidgetSpec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}`

func TestTypeCheck(t *testing.T) {
	widgets := []cel.ResourceKind{{Resource: cel.GVR{Group: "example.com", Version: "v1", Resource: "widgets"}, Kind: cel.GVK{Group: "example.com", Version: "v1", Kind: "Widget"}}}
	docs := map[string]json.RawMessage{"apis/example.com/v1": json.RawMessage(widgetDoc)}
	pol := func(group, expr string) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"p"},
		 "spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["` + group + `"],"apiVersions":["v1"],"operations":["CREATE"],"resources":["widgets"]}]},
		 "validations":[{"expression":` + strings.TrimSpace(string(mustJSON(expr))) + `}]}}`)
	}
	for _, tc := range []struct {
		name    string
		req     cel.TypeCheckRequest
		want    string // the warnings' JSON
		wantErr string
	}{
		{"type-checks", cel.TypeCheckRequest{Policy: pol("example.com", "object.spec.size <= 5"), Kinds: widgets, Schemas: docs}, `[]`, ""},
		{"a field through a $ref that does not exist", cel.TypeCheckRequest{Policy: pol("example.com", "object.spec.sise <= 5"), Kinds: widgets, Schemas: docs},
			`[{"fieldRef":"spec.validations[0].expression","warning":"example.com/v1, Kind=Widget: ERROR: \u003cinput\u003e:1:12: undefined field 'sise'\n | object.spec.sise \u003c= 5\n | ...........^\n"}]`, ""},
		{"a type mismatch", cel.TypeCheckRequest{Policy: pol("example.com", "object.spec.size == 'x'"), Kinds: widgets, Schemas: docs},
			`[{"fieldRef":"spec.validations[0].expression","warning":"example.com/v1, Kind=Widget: ERROR: \u003cinput\u003e:1:18: found no matching overload for '_==_' applied to '(int, string)'\n | object.spec.size == 'x'\n | .................^\n"}]`, ""},
		{"a resource the mapper does not know is not checked", cel.TypeCheckRequest{Policy: pol("other.com", "object.spec.sise <= 5"), Kinds: widgets, Schemas: docs}, `[]`, ""},
		{"a kind without a schema is not checked", cel.TypeCheckRequest{Policy: pol("example.com", "object.spec.sise <= 5"), Kinds: widgets}, `[]`, ""},
		{"a policy that is not JSON", cel.TypeCheckRequest{Policy: json.RawMessage(`{`)}, "", "policy: unexpected end of JSON input"},
		{"a schema that is not a document", cel.TypeCheckRequest{Policy: pol("example.com", "true"), Schemas: map[string]json.RawMessage{"api/v1": json.RawMessage(`[]`)}}, "", "schema api/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := policy.New().TypeCheck(tc.req)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := string(mustJSON(got)); b != tc.want {
				t.Errorf("warnings = %s\nwant       %s", b, tc.want)
			}
		})
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
