package patch

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// golden is one case recorded from the real libraries by testdata/oracle.
type golden struct {
	Name     string          `json:"name"`
	Original json.RawMessage `json:"original"`
	Patch    json.RawMessage `json:"patch"`
	Result   json.RawMessage `json:"result"`
	Error    string          `json:"error"`
	Code     int             `json:"code"`
	Body     string          `json:"body"`
}

func loadGolden(t testing.TB, path string) []golden {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g []golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return g
}

// mergeItemSchema is apimachinery's test type MergeItem (patch_test.go)
// written as a Schema:
//
//	mergingList            []MergeItem  patchStrategy:"merge" patchMergeKey:"name"
//	nonMergingList         []MergeItem
//	mergingIntList         []int        patchStrategy:"merge"
//	nonMergingIntList      []int
//	mergeItemPtr           *MergeItem   patchStrategy:"merge" patchMergeKey:"name"
//	simpleMap              map[string]string
//	replacingItem          RawExtension patchStrategy:"replace"
//	jsonItem               struct{Raw []byte}
//	retainKeysMap          RetainKeysMergeItem patchStrategy:"retainKeys"
//	retainKeysMergingList  []MergeItem  patchStrategy:"merge,retainKeys" patchMergeKey:"name"
func mergeItemSchema() *schema.Schema {
	str := func() *schema.Schema { return &schema.Schema{Type: "string"} }
	item := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{}}
	intList := func(strategy string) *schema.Schema {
		return &schema.Schema{Type: "array", Items: &schema.Schema{Type: "integer"}, PatchStrategy: strategy}
	}
	list := func(strategy, key string) *schema.Schema {
		return &schema.Schema{Type: "array", Items: item, PatchStrategy: strategy, PatchMergeKey: key}
	}
	simpleMap := func() *schema.Schema {
		return &schema.Schema{Type: "object", AdditionalProperties: str()}
	}
	retainKeysItem := &schema.Schema{Type: "object", PatchStrategy: "retainKeys", Properties: map[string]*schema.Schema{
		"name": str(), "value": str(), "other": str(), "simpleMap": simpleMap(),
		"mergingIntList": intList("merge"), "mergingList": list("merge", "name"), "nonMergingList": list("", ""),
	}}
	ptr := &schema.Schema{Type: "object", PatchStrategy: "merge", PatchMergeKey: "name", Properties: item.Properties}
	p := item.Properties
	p["name"], p["value"], p["other"] = str(), str(), str()
	p["mergingList"] = list("merge", "name")
	p["nonMergingList"] = list("", "")
	p["mergingIntList"] = intList("merge")
	p["nonMergingIntList"] = intList("")
	p["mergeItemPtr"] = ptr
	p["simpleMap"] = simpleMap()
	p["replacingItem"] = &schema.Schema{PatchStrategy: "replace", PreserveUnknownFields: true}
	p["jsonItem"] = &schema.Schema{PreserveUnknownFields: true}
	p["retainKeysMap"] = retainKeysItem
	p["retainKeysMergingList"] = list("merge,retainKeys", "name")
	return item
}

// knownDifferences are golden cases where the schema cannot say what the
// Go type says, with the reason.
var knownDifferences = map[string]string{
	// The library looks fields up in Go structs; struct{Raw []byte} has no
	// field "a" and fails. A schema-less field merges (the brief's choice,
	// as the library does with no schema).
	"errors: raw struct field merged": "schema-less fields merge instead of failing",
}

func TestStrategicMergePatchGolden(t *testing.T) {
	s := mergeItemSchema()
	for _, g := range loadGolden(t, "testdata/strategic_golden.json") {
		t.Run(g.Name, func(t *testing.T) {
			if why, ok := knownDifferences[g.Name]; ok {
				t.Skip(why)
			}
			got, err := StrategicMergePatch(g.Original, []byte(g.Body), s)
			checkGolden(t, g, got, err)
		})
	}
}

func checkGolden(t *testing.T, g golden, got []byte, err error) {
	t.Helper()
	if g.Code != 0 {
		if err == nil {
			t.Fatalf("want error %d %q, got success %s", g.Code, g.Error, got)
		}
		// Strategic goldens hold the library's text; the others the
		// handler's Status message.
		ae := ToAPIError(err)
		if ae.Code != g.Code {
			t.Errorf("code: want %d, got %d (%v)", g.Code, ae.Code, err)
		}
		msg := ae.Message
		var se *StrategicError
		if errors.As(err, &se) {
			msg = se.Message
			if g.Code == 422 && ae.Message != apierr.InvalidGeneric().Message {
				t.Errorf("422 message: got %q", ae.Message)
			}
		}
		if msg != g.Error {
			t.Errorf("message:\nwant %q\ngot  %q", g.Error, msg)
		}
		return
	}
	if err != nil {
		t.Fatalf("want %s, got error %v", g.Result, err)
	}
	want, err1 := jsonx.Decode(g.Result)
	have, err2 := jsonx.Decode(got)
	if err1 != nil || err2 != nil {
		t.Fatalf("decode: %v %v", err1, err2)
	}
	if !reflect.DeepEqual(want, have) {
		t.Errorf("result:\nwant %s\ngot  %s", g.Result, got)
	}
}
