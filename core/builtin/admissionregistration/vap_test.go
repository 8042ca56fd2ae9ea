package admissionregistration

import (
	"encoding/json"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The texts are those kube-apiserver v1.37.2 answered in the recorded
// transcripts (tests/conformance/transcripts/cel-vap-params.json) and those
// of pkg/apis/admissionregistration/validation.
func TestValidatePolicy(t *testing.T) {
	rules := `"matchConstraints":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],"resources":["deployments"],"scope":"*"}]}`
	for _, tc := range []struct {
		name, spec string
		want       []string
	}{
		{"valid", `{"failurePolicy":"Fail",` + rules + `,"validations":[{"expression":"true"}]}`, nil},
		{"no validations or auditAnnotations", `{"failurePolicy":"Fail",` + rules + `}`, []string{
			"spec.validations: Required value: validations or auditAnnotations must contain at least one item",
			"spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"}},
		{"no matchConstraints", `{"failurePolicy":"Fail","validations":[{"expression":"true"}]}`, []string{"spec.matchConstraints: Required value"}},
		{"bad failurePolicy and reason", `{"failurePolicy":"Sometimes",` + rules + `,"validations":[{"expression":"true","reason":"Teapot"}]}`, []string{
			`spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"`,
			`spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"`}},
		{"paramKind", `{"failurePolicy":"Fail","paramKind":{"apiVersion":"a/b/c","kind":"Not_A_Kind"},` + rules + `,"validations":[{"expression":"true"}]}`, []string{
			`spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`spec.paramKind.kind: Invalid value: "Not_A_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
		{"variables and messages", `{"failurePolicy":"Fail",` + rules + `,"variables":[{"name":"1x","expression":"true"}],"validations":[{"expression":" ","message":" "}]}`, []string{
			`spec.variables[0].name: Invalid value: "1x": must be a valid CEL identifier`,
			"spec.validations[0].expression: Required value: expression is not specified",
			`spec.validations[0].message: Invalid value: " ": must be non-empty if specified`}},
		{"duplicate audit keys", `{"failurePolicy":"Fail",` + rules + `,"auditAnnotations":[{"key":"k","valueExpression":"'a'"},{"key":"k","valueExpression":"'b'"}]}`, []string{
			`spec.auditAnnotations[1].key: Duplicate value: "k"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := decode(t, `{"metadata":{"name":"p"},"spec":`+tc.spec+`}`)
			var got []string
			for _, e := range ValidatePolicy(obj, nil) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestValidateBinding(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       []string
	}{
		{"valid", `{"policyName":"p","validationActions":["Warn","Audit"]}`, nil},
		{"no actions", `{"policyName":"x"}`, []string{"spec.validationActions: Required value"}},
		{"Deny and Warn, no policyName, bad paramRef", `{"paramRef":{"name":"a","selector":{"matchLabels":{"a":"b"}}},"validationActions":["Deny","Warn","Deny"]}`, []string{
			"spec.policyName: Required value",
			"spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
			"spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
			"spec.paramRef.parameterNotFoundAction: Required value",
			`spec.validationActions[2]: Duplicate value: "Deny"`,
			`spec.validationActions: Invalid value: ["Deny","Warn","Deny"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`}},
		{"paramRef with neither", `{"policyName":"p","paramRef":{"parameterNotFoundAction":"Maybe"},"validationActions":["Deny"]}`, []string{
			"spec.paramRef: Required value: one of name or selector must be specified",
			`spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range ValidateBinding(decode(t, `{"metadata":{"name":"b"},"spec":`+tc.spec+`}`), nil) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	p := decode(t, `{"spec":{"matchConstraints":{"resourceRules":[{"resources":["pods"]}]}}}`)
	DefaultPolicy(p)
	b, _ := json.Marshal(p)
	if want := `{"spec":{"failurePolicy":"Fail","matchConstraints":{"matchPolicy":"Equivalent","namespaceSelector":{},"objectSelector":{},"resourceRules":[{"resources":["pods"],"scope":"*"}]}}}`; string(b) != want {
		t.Errorf("policy defaults:\n%s\nwant\n%s", b, want)
	}
	bd := decode(t, `{"spec":{"policyName":"p"}}`)
	DefaultBinding(bd)
	if b, _ := json.Marshal(bd); string(b) != `{"spec":{"policyName":"p"}}` {
		t.Errorf("a binding without matchResources gets none: %s", b)
	}
}
