package crd

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// crdWith returns a v1 CRD (JSON) whose single version has the given
// openAPIV3Schema (JSON).
func crdWith(schema string) []byte {
	return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"things.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + schema + `}}]},
"status":{"storedVersions":["v1"]}}`)
}

// celCases are schemas with rules, good and bad.
var celCases = []struct{ name, schema string }{
	{"good rule", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a <= self.b"}]}}}`},
	{"syntax error", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a <"}]}}}`},
	{"unknown field", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.zz > 0"}]}}}`},
	{"not a bool", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a"}]}}}`},
	{"messageExpression errors", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 0","messageExpression":"'x' +"},{"rule":"self.a > 1","messageExpression":"self.a"}]}}}`},
	{"rule cost over budget", `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"}}},"x-kubernetes-validations":[{"rule":"self.l.all(x, self.l.all(y, x == y))"}]}}}`},
	{"messageExpression cost over budget", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 0","messageExpression":"'n: ' + string(self.a)"}]}}}`},
	{"total cost over budget", `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","maxItems":1000,"items":{"type":"array","maxItems":1000,"items":{"type":"string","maxLength":1000,"x-kubernetes-validations":[{"rule":"self.contains('a')"},{"rule":"self.contains('b')"}]}}}}}}}`},
	{"oldSelf under atomic list", `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","maxItems":3,"items":{"type":"object","properties":{"v":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.v == oldSelf.v"}]}}}}}}`},
	{"oldSelf under map list", `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","maxItems":3,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string","maxLength":5},"v":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.v == oldSelf.v"}]}}}}}}`},
	{"oldSelf under atomic map", `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}}}`},
	{"optionalOldSelf without oldSelf", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer","x-kubernetes-validations":[{"rule":"self > 0","optionalOldSelf":true}]}}}}}`},
	{"rule fields", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a > 0","reason":"Bogus"},{"rule":"self.a > 1","message":" "},{"rule":"self.a > 2","fieldPath":".zz"},{"rule":"self.a > 3","fieldPath":" "},{"rule":" "},{"rule":"self.a\n> 4"},{"rule":"self.a > 5","messageExpression":" "},{"rule":"self.a > 6","message":"a\nb"}]}}}`},
	{"fieldPath into a list", `{"type":"object","properties":{"spec":{"type":"object","properties":{"l":{"type":"array","maxItems":2,"items":{"type":"string","maxLength":3}}},"x-kubernetes-validations":[{"rule":"size(self.l) > 0","fieldPath":".l[0]"},{"rule":"size(self.l) > 1","fieldPath":".l"}]}}}`},
	{"root and metadata", `{"type":"object","x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('a')"},{"rule":"self.metadata.labels.size() > 0"}],"properties":{"spec":{"type":"object"}}}`},
	{"additionalProperties", `{"type":"object","properties":{"spec":{"type":"object","properties":{"m":{"type":"object","maxProperties":4,"additionalProperties":{"type":"string","maxLength":8,"x-kubernetes-validations":[{"rule":"self != ''"},{"rule":"self.x"}]}}}}}}`},
	{"int-or-string and preserve unknown", `{"type":"object","properties":{"spec":{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == int || self.size() < 5"}]},"x":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[{"rule":"has(self.y)"}]}}}}}`},
	{"non-structural schema: no CEL", `{"type":"object","properties":{"spec":{"properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a <"}]}}}`},
	{"two versions", ``},
}

// twoVersions is a CRD whose versions have different schemas (kube
// validates each under spec.versions[i]).
const twoVersions = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"things.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"things","singular":"thing","kind":"Thing","listKind":"ThingList"},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.a <"}]}}}}},
 {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"b":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.b >"}]}}}}}]},
"status":{"storedVersions":["v1"]}}`

func caseCRD(name, schema string) []byte {
	if name == "two versions" {
		return []byte(twoVersions)
	}
	return crdWith(schema)
}

// celPart keeps the causes of kube's full CRD validation that concern
// x-kubernetes-validations (what checkCRD reproduces).
func celPart(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		if strings.Contains(e.Field, "x-kubernetes-validations") || strings.Contains(e.Detail, "x-kubernetes-validations estimated rule cost total") {
			out = append(out, e.Error())
		}
	}
	slices.Sort(out)
	return out
}

func render(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	slices.Sort(out)
	return out
}

// TestCheckCRDMatchesKube compares checkCRD (check.go's copy of the CEL
// walk) with apiextensions' real ValidateCustomResourceDefinition and
// ValidateCustomResourceDefinitionUpdate on the same CRDs: same causes
// (sorted: kube walks properties in map order).
func TestCheckCRDMatchesKube(t *testing.T) {
	ctx := context.Background()
	for _, c := range celCases {
		t.Run(c.name, func(t *testing.T) {
			crd, err := decodeCRD(caseCRD(c.name, c.schema))
			if err != nil {
				t.Fatal(err)
			}
			want := celPart(validation.ValidateCustomResourceDefinition(ctx, crd))
			got := render(checkCRD(ctx, crd, nil))
			if !slices.Equal(got, want) {
				t.Errorf("create:\n got %q\nwant %q", got, want)
			}
			// an update from a CRD without rules: the same causes
			old, _ := decodeCRD(crdWith(`{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`))
			want = celPart(validation.ValidateCustomResourceDefinitionUpdate(ctx, crd, old))
			got = render(checkCRD(ctx, crd, old))
			if !slices.Equal(got, want) {
				t.Errorf("update:\n got %q\nwant %q", got, want)
			}
			// an update that changes nothing: pre-existing expressions and
			// unchanged schemas (per-expression costs are not checked)
			want = celPart(validation.ValidateCustomResourceDefinitionUpdate(ctx, crd, crd))
			got = render(checkCRD(ctx, crd, crd))
			if !slices.Equal(got, want) {
				t.Errorf("unchanged update:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestCheckCRDFindsFailures guards the comparison above against two empty
// lists: the bad cases do get causes.
func TestCheckCRDFindsFailures(t *testing.T) {
	for _, c := range celCases {
		if c.name == "good rule" || c.name == "oldSelf under map list" || c.name == "oldSelf under atomic map" || strings.HasPrefix(c.name, "non-structural") || c.name == "int-or-string and preserve unknown" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			crd, err := decodeCRD(caseCRD(c.name, c.schema))
			if err != nil {
				t.Fatal(err)
			}
			if errs := checkCRD(context.Background(), crd, nil); len(errs) == 0 {
				t.Error("no causes")
			}
		})
	}
}
