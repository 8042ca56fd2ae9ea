// Command oracle records what the real libraries (the ones kube-apiserver
// v1.37 uses) answer for the cases the patch package tests, into golden
// files under ../. It is a separate module, kept out of the shipped build,
// and needs the k8s.io modules in the local module cache:
//
//	cd patch/testdata/oracle && GOFLAGS=-mod=mod GOPROXY=off go run . \
//	    $(go env GOMODCACHE)/k8s.io/apimachinery@v0.37.2/pkg/util/strategicpatch/patch_test.go
//
// The strategic merge patch cases are read from apimachinery's own test
// table (patch_test.go: the YAML cases and the raw cases), applied with
// strategicpatch.StrategicMergePatch to the test's MergeItem type, and the
// result or error text is stored. JSON and merge patch cases replay the
// apiserver handler's applyJSPatch logic with json-patch v4.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"strconv"
	"strings"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// MergeItem is apimachinery's test type (patch_test.go).
type MergeItem struct {
	Name                  string               `json:"name,omitempty"`
	Value                 string               `json:"value,omitempty"`
	Other                 string               `json:"other,omitempty"`
	MergingList           []MergeItem          `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList        []MergeItem          `json:"nonMergingList,omitempty"`
	MergingIntList        []int                `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList     []int                `json:"nonMergingIntList,omitempty"`
	MergeItemPtr          *MergeItem           `json:"mergeItemPtr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	SimpleMap             map[string]string    `json:"simpleMap,omitempty"`
	ReplacingItem         runtime.RawExtension `json:"replacingItem,omitempty" patchStrategy:"replace"`
	JSONItem              struct{ Raw []byte } `json:"jsonItem,omitempty"`
	RetainKeysMap         RetainKeysMergeItem  `json:"retainKeysMap,omitempty" patchStrategy:"retainKeys"`
	RetainKeysMergingList []MergeItem          `json:"retainKeysMergingList,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
}

type RetainKeysMergeItem struct {
	Name           string            `json:"name,omitempty"`
	Value          string            `json:"value,omitempty"`
	Other          string            `json:"other,omitempty"`
	SimpleMap      map[string]string `json:"simpleMap,omitempty"`
	MergingIntList []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	MergingList    []MergeItem       `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList []MergeItem       `json:"nonMergingList,omitempty"`
}

// Golden is one recorded case.
type Golden struct {
	Name     string          `json:"name"`
	Original json.RawMessage `json:"original"`
	Patch    json.RawMessage `json:"patch"`
	// Body is the exact patch text sent (it may be invalid JSON).
	Body   string          `json:"body"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Code is the HTTP code the handler answers for the error (0: success).
	Code int `json:"code,omitempty"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle path/to/strategicpatch/patch_test.go")
		os.Exit(2)
	}
	smp := append(strategicCases(os.Args[1]), strategicErrorCases()...)
	write("../strategic_golden.json", smp)
	write("../jsonpatch_golden.json", jsonPatchCases())
	write("../merge_golden.json", mergePatchCases())
}

func write(path string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		panic(err)
	}
	fmt.Println("wrote", path)
}

func toJSON(y string) json.RawMessage {
	if strings.TrimSpace(y) == "" {
		return nil
	}
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		panic(err)
	}
	return j
}

// applySMP runs the library and classifies the error as the handler does.
func applySMP(name string, original, patch json.RawMessage) Golden {
	g := Golden{Name: name, Original: original, Patch: patch, Body: string(patch)}
	out, err := strategicpatch.StrategicMergePatch(original, patch, MergeItem{})
	if err != nil {
		g.Error = err.Error()
		switch err {
		case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys, mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
			g.Code = http.StatusBadRequest
		case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
			g.Code = http.StatusUnprocessableEntity
		default:
			g.Code = http.StatusInternalServerError
		}
		return g
	}
	g.Result = out
	return g
}

type rawCase map[string]string

func strategicCases(testFile string) []Golden {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, testFile, nil, 0)
	if err != nil {
		panic(err)
	}
	var out []Golden
	seen := map[string]bool{}
	add := func(g Golden) {
		key := string(g.Original) + "\x00" + string(g.Patch)
		if g.Patch == nil || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, g)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
			return true
		}
		name := vs.Names[0].Name
		switch name {
		case "createStrategicMergePatchTestCaseData", "customStrategicMergePatchTestCaseData":
			lit := findRawString(vs.Values[0])
			var tcs struct {
				TestCases []struct {
					Description                                   string
					Original, Modified, Current, TwoWay, ThreeWay map[string]any
					Result, TwoWayResult                          map[string]any
				} `json:"testCases"`
			}
			if err := yaml.Unmarshal([]byte(lit), &tcs); err != nil {
				panic(err)
			}
			for _, c := range tcs.TestCases {
				o, cur, tw, th := mj(c.Original), mj(c.Current), mj(c.TwoWay), mj(c.ThreeWay)
				add(applySMP(c.Description+" (two-way on original)", o, tw))
				add(applySMP(c.Description+" (three-way on current)", cur, th))
				add(applySMP(c.Description+" (two-way on current)", cur, tw))
			}
		case "strategicMergePatchRawTestCases", "customStrategicMergePatchRawTestCases":
			cl, ok := vs.Values[0].(*ast.CompositeLit)
			if !ok {
				return true
			}
			for _, e := range cl.Elts {
				rc := rawCase{}
				collectRaw(e, rc)
				o, cur := toJSON(rc["Original"]), toJSON(rc["Current"])
				tw, th := toJSON(rc["TwoWay"]), toJSON(rc["ThreeWay"])
				d := rc["Description"]
				add(applySMP(d+" (two-way on original)", nz(o), tw))
				add(applySMP(d+" (three-way on current)", nz(cur), th))
				add(applySMP(d+" (two-way on current)", nz(cur), tw))
			}
		}
		return true
	})
	return out
}

func nz(b json.RawMessage) json.RawMessage {
	if b == nil {
		return json.RawMessage("{}")
	}
	return b
}

func mj(m map[string]any) json.RawMessage {
	if m == nil {
		return json.RawMessage("{}")
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

func findRawString(e ast.Expr) string {
	var s string
	ast.Inspect(e, func(n ast.Node) bool {
		if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING && s == "" {
			s, _ = strconv.Unquote(bl.Value)
		}
		return true
	})
	return s
}

// collectRaw gathers Field: []byte(`...`) / "..." pairs of one raw case.
func collectRaw(e ast.Expr, rc rawCase) {
	ast.Inspect(e, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			return true
		}
		if id.Name == "StrategicMergePatchRawTestCaseData" {
			return true
		}
		rc[id.Name] = findRawString(kv.Value)
		return false
	})
}

// ---- JSON patch and merge patch: the handler's applyJSPatch, default Warn.

type jsonPatchOp struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	From  string      `json:"from"`
	Value interface{} `json:"value"`
}

const doc = `{"apiVersion":"v1","kind":"Widget","metadata":{"name":"w1","labels":{"app":"demo","tier":"web"},"nil":null},"spec":{"replicas":2,"tags":["a","b"],"ports":[{"name":"http","port":80}],"config":{"a":"1","b":"2"}}}`

func handlerJSONPatch(name, original, patch string, strict bool) Golden {
	g := Golden{Name: name, Original: json.RawMessage(original), Patch: raw(patch), Body: patch}
	fail := func(code int, msg string) Golden { g.Code, g.Error = code, msg; return g }
	if !json.Valid([]byte(patch)) {
		return fail(400, "invalid JSON patch")
	}
	var warnings []string
	if strict {
		var v []jsonPatchOp
		se, err := kjson.UnmarshalStrict([]byte(patch), &v)
		if err != nil {
			// The handler's jsonPatchOp lives in package handlers.
			msg := strings.ReplaceAll(err.Error(), "main.jsonPatchOp", "handlers.jsonPatchOp")
			return fail(400, "error decoding patch: "+msg)
		}
		for _, e := range se {
			warnings = append(warnings, fmt.Sprintf("json patch %v", e))
		}
	}
	p, err := jsonpatch.DecodePatch([]byte(patch))
	if err != nil {
		return fail(400, err.Error())
	}
	if len(p) > 10000 {
		return fail(413, fmt.Sprintf("Request entity too large: The allowed maximum operations in a JSON patch is %d, got %d", 10000, len(p)))
	}
	out, err := p.Apply([]byte(original))
	if err != nil {
		return fail(422, "the server rejected our request due to an error in our request")
	}
	g.Result = out
	if len(warnings) > 0 {
		g.Error = strings.Join(warnings, "\n")
	}
	return g
}

func handlerMergePatch(name, original, patch string, strict bool) Golden {
	g := Golden{Name: name, Original: json.RawMessage(original), Patch: raw(patch), Body: patch}
	fail := func(code int, msg string) Golden { g.Code, g.Error = code, msg; return g }
	if !json.Valid([]byte(patch)) {
		return fail(400, "invalid JSON patch")
	}
	var warnings []string
	if strict {
		v := map[string]any{}
		se, err := kjson.UnmarshalStrict([]byte(patch), &v)
		if err != nil {
			return fail(400, fmt.Sprintf("error decoding patch: %v", err))
		}
		for _, e := range se {
			warnings = append(warnings, e.Error())
		}
	}
	out, err := jsonpatch.MergePatch([]byte(original), []byte(patch))
	if err == jsonpatch.ErrBadJSONPatch {
		return fail(400, err.Error())
	}
	if err != nil {
		return fail(500, err.Error())
	}
	g.Result = out
	if len(warnings) > 0 {
		g.Error = strings.Join(warnings, "\n")
	}
	return g
}

func raw(s string) json.RawMessage {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s) // invalid JSON bodies are stored as a string
	return b
}

func jsonPatchCases() []Golden {
	type c struct{ name, patch string }
	cases := []c{
		{"add replace remove", `[{"op":"replace","path":"/spec/replicas","value":4},{"op":"add","path":"/spec/tags/-","value":"z"},{"op":"remove","path":"/metadata/labels/tier"},{"op":"add","path":"/metadata/annotations","value":{"note":"patched"}}]`},
		{"passing test", `[{"op":"test","path":"/spec/replicas","value":2},{"op":"replace","path":"/spec/replicas","value":3}]`},
		{"failing test", `[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":5}]`},
		{"remove missing", `[{"op":"remove","path":"/spec/nothere"}]`},
		{"unknown op", `[{"op":"frobnicate","path":"/spec/replicas","value":1}]`},
		{"replace missing object key adds it", `[{"op":"replace","path":"/spec/color","value":"red"}]`},
		{"replace missing numeric object key", `[{"op":"replace","path":"/spec/config/7","value":"x"}]`},
		{"replace array index in range", `[{"op":"replace","path":"/spec/tags/1","value":"q"}]`},
		{"replace array index out of range", `[{"op":"replace","path":"/spec/tags/2","value":"q"}]`},
		{"replace negative index", `[{"op":"replace","path":"/spec/tags/-1","value":"q"}]`},
		{"replace dash on array", `[{"op":"replace","path":"/spec/tags/-","value":"q"}]`},
		{"replace under missing parent", `[{"op":"replace","path":"/spec/nothere/x","value":1}]`},
		{"add without value", `[{"op":"add","path":"/spec/x"}]`},
		{"replace without value", `[{"op":"replace","path":"/spec/replicas"}]`},
		{"add null value", `[{"op":"add","path":"/spec/x","value":null}]`},
		{"add whole document", `[{"op":"add","path":"","value":{"a":1}}]`},
		{"replace whole document", `[{"op":"replace","path":"","value":{"a":1}}]`},
		{"replace whole document with scalar", `[{"op":"replace","path":"","value":1}]`},
		{"remove whole document", `[{"op":"remove","path":""}]`},
		{"test whole document fails", `[{"op":"test","path":"","value":{}}]`},
		{"move", `[{"op":"move","from":"/spec/config/a","path":"/spec/config/z"}]`},
		{"move from missing", `[{"op":"move","from":"/spec/none","path":"/spec/z"}]`},
		{"move without from", `[{"op":"move","path":"/spec/z"}]`},
		{"move from root", `[{"op":"move","from":"","path":"/spec/z"}]`},
		{"copy", `[{"op":"copy","from":"/spec/tags","path":"/spec/tags2"}]`},
		{"copy from root", `[{"op":"copy","from":"","path":"/spec/whole"}]`},
		{"copy to root", `[{"op":"copy","from":"/spec","path":""}]`},
		{"add array index", `[{"op":"add","path":"/spec/tags/0","value":"first"}]`},
		{"add array index at end", `[{"op":"add","path":"/spec/tags/2","value":"last"}]`},
		{"add array index past end", `[{"op":"add","path":"/spec/tags/3","value":"x"}]`},
		{"add negative index", `[{"op":"add","path":"/spec/tags/-1","value":"x"}]`},
		{"add into missing parent", `[{"op":"add","path":"/spec/a/b","value":1}]`},
		{"add through null", `[{"op":"add","path":"/metadata/nil/x","value":1}]`},
		{"test missing key with null", `[{"op":"test","path":"/spec/none","value":null}]`},
		{"test missing key without value", `[{"op":"test","path":"/spec/none"}]`},
		{"test null value with null", `[{"op":"test","path":"/metadata/nil","value":null}]`},
		{"test existing without value", `[{"op":"test","path":"/spec/replicas"}]`},
		{"test object", `[{"op":"test","path":"/spec/config","value":{"b":"2","a":"1"}}]`},
		{"test number format", `[{"op":"test","path":"/spec/replicas","value":2.0}]`},
		{"escaped pointer", `[{"op":"add","path":"/metadata/labels/a~1b~0c","value":"v"}]`},
		{"missing op", `[{"path":"/spec/replicas","value":1}]`},
		{"missing path", `[{"op":"add","value":1}]`},
		{"numeric op", `[{"op":1,"path":"/spec/replicas","value":1}]`},
		{"numeric path", `[{"op":"add","path":5,"value":1}]`},
		{"null op entry", `[null]`},
		{"empty list", `[]`},
		{"null patch", `null`},
		{"object patch", `{"op":"add"}`},
		{"string patch", `"x"`},
		{"number element", `[1]`},
		{"array element", `[[1]]`},
		{"unknown and duplicate fields", `[{"op":"add","op":"add","path":"/spec/x","value":{"a":1,"a":2},"foo":1}]`},
		{"case-sensitive field names", `[{"op":"add","path":"/spec/x","Value":1}]`},
		{"invalid JSON", `[{"op":`},
		{"empty body", ``},
		{"op second error wins first", `[{"op":"add","path":"/spec/x","value":1},{"op":"remove","path":"/none"}]`},
		{"replace index after parent became object", `[{"op":"replace","path":"/spec/tags","value":{"0":"x"}},{"op":"replace","path":"/spec/tags/0","value":"y"},{"op":"replace","path":"/spec/tags/7","value":"z"}]`},
		{"replace index after parent became array", `[{"op":"replace","path":"/spec/config","value":["a"]},{"op":"replace","path":"/spec/config/0","value":"b"}]`},
		{"replace index in new object", `[{"op":"add","path":"/spec/m","value":{}},{"op":"replace","path":"/spec/m/5","value":1}]`},
		{"replace index after move", `[{"op":"move","from":"/spec/config","path":"/spec/tags"},{"op":"replace","path":"/spec/tags/0","value":"v"}]`},
		{"replace index after whole document replace", `[{"op":"replace","path":"","value":{"spec":{"tags":{}}}},{"op":"replace","path":"/spec/tags/0","value":"v"}]`},
		{"repeated replace of one element", `[{"op":"replace","path":"/spec/tags/0","value":"p"},{"op":"replace","path":"/spec/tags/0","value":"q"},{"op":"replace","path":"/spec/tags/-1","value":"r"}]`},
		{"escaped op name", `[{"op":"rep\u006cace","path":"/spec/replicas","value":7}]`},
	}
	var out []Golden
	for _, k := range cases {
		out = append(out, handlerJSONPatch(k.name, doc, k.patch, true))
	}
	for _, k := range []c{{"ignore: object patch", `{"op":"add"}`}, {"ignore: number element", `[1]`}, {"ignore: numeric path", `[{"op":"add","path":5,"value":1}]`}} {
		out = append(out, handlerJSONPatch(k.name, doc, k.patch, false))
	}
	return out
}

func mergePatchCases() []Golden {
	type c struct{ name, patch string }
	cases := []c{
		{"set remove replace list", `{"metadata":{"labels":{"stage":"prod","tier":null}},"spec":{"config":{"a":null,"c":"3"},"tags":["c"]}}`},
		{"empty", `{}`},
		{"remove map", `{"spec":{"config":null}}`},
		{"null into missing", `{"spec":{"none":{"a":null,"b":1}}}`},
		{"nulls pruned in new value", `{"spec":{"new":{"x":null,"y":{"z":null,"w":1}}}}`},
		{"over a null", `{"metadata":{"nil":{"a":1,"b":null}}}`},
		{"scalar over map", `{"spec":5}`},
		{"map over scalar", `{"spec":{"replicas":{"a":null,"b":2}}}`},
		{"list with nulls", `{"spec":{"tags":[null,{"a":null}]}}`},
		{"null patch", `null`},
		{"number patch", `5`},
		{"string patch", `"x"`},
		{"bool patch", `true`},
		{"array patch", `[1,{"a":null}]`},
		{"duplicate fields", `{"spec":{"replicas":3,"replicas":4},"metadata":{"labels":{"a":"1","a":"2"}}}`},
		{"invalid JSON", `{"spec":`},
	}
	var out []Golden
	for _, k := range cases {
		out = append(out, handlerMergePatch(k.name, doc, k.patch, true))
	}
	for _, k := range []c{{"ignore: array patch", `[1,{"a":null}]`}, {"ignore: number patch", `5`}} {
		out = append(out, handlerMergePatch(k.name, doc, k.patch, false))
	}
	return out
}

// strategicErrorCases exercise directives and malformed patches.
func strategicErrorCases() []Golden {
	orig := `{"name":"n","mergingList":[{"name":"a","value":"1"},{"name":"b","value":"2"}],"mergingIntList":[1,2,3],"nonMergingList":[{"name":"x"}],"simpleMap":{"k":"v","k2":"v2"},"retainKeysMap":{"name":"r","value":"v","other":"o"},"jsonItem":{"a":{"b":1}},"replacingItem":{"x":{"y":1},"z":2}}`
	cases := []struct{ name, patch string }{
		{"deleteFromPrimitiveList without field", `{"$deleteFromPrimitiveList":[1]}`},
		{"deleteFromPrimitiveList removes", `{"$deleteFromPrimitiveList/mergingIntList":[2,9]}`},
		{"deleteFromPrimitiveList not a list", `{"$deleteFromPrimitiveList/mergingIntList":5}`},
		{"deleteFromPrimitiveList on missing field", `{"$deleteFromPrimitiveList/nonMergingIntList":[1]}`},
		{"setElementOrder without field", `{"$setElementOrder":[1]}`},
		{"setElementOrder not a list", `{"$setElementOrder/mergingList":"x"}`},
		{"setElementOrder reorders", `{"$setElementOrder/mergingList":[{"name":"b"},{"name":"a"}]}`},
		{"setElementOrder with new item", `{"$setElementOrder/mergingList":[{"name":"c"},{"name":"a"}],"mergingList":[{"name":"c","value":"3"}]}`},
		{"setElementOrder order mismatch", `{"$setElementOrder/mergingList":[{"name":"a"}],"mergingList":[{"name":"c"}]}`},
		{"setElementOrder item without merge key", `{"$setElementOrder/mergingList":[{"value":"a"}],"mergingList":[{"name":"a"}]}`},
		{"setElementOrder primitives", `{"$setElementOrder/mergingIntList":[3,1,2,4],"mergingIntList":[4]}`},
		{"setElementOrder on original only list", `{"$setElementOrder/mergingIntList":[3,2,1]}`},
		{"retainKeys not a list", `{"retainKeysMap":{"$retainKeys":"name"}}`},
		{"retainKeys missing patched key", `{"retainKeysMap":{"$retainKeys":["name"],"value":"x"}}`},
		{"retainKeys clears others", `{"retainKeysMap":{"$retainKeys":["name","value"],"value":"x"}}`},
		{"retainKeys with null", `{"retainKeysMap":{"$retainKeys":["name"],"value":null}}`},
		{"map patch merge directive", `{"simpleMap":{"$patch":"merge","k":"x"}}`},
		{"map patch unknown directive", `{"simpleMap":{"$patch":"frob"}}`},
		{"map patch numeric directive", `{"simpleMap":{"$patch":5}}`},
		{"map patch replace", `{"simpleMap":{"$patch":"replace","k3":"v3"}}`},
		{"map patch delete", `{"simpleMap":{"$patch":"delete"}}`},
		{"top-level patch replace", `{"$patch":"replace","name":"only"}`},
		{"top-level patch delete", `{"$patch":"delete"}`},
		{"list item merge directive", `{"mergingList":[{"$patch":"merge","name":"a"}]}`},
		{"list item delete", `{"mergingList":[{"$patch":"delete","name":"a"}]}`},
		{"list item delete without merge key", `{"mergingList":[{"$patch":"delete"}]}`},
		{"list item unknown directive", `{"mergingList":[{"$patch":"frob","name":"a"}]}`},
		{"list item replace", `{"mergingList":[{"$patch":"replace"},{"name":"z"}]}`},
		{"list item without merge key", `{"mergingList":[{"value":"x"}]}`},
		{"list item scalar among maps", `{"mergingList":["x"]}`},
		{"list of lists", `{"mergingIntList":[[1]]}`},
		{"mixed scalar types", `{"mergingIntList":["a"]}`},
		{"maps in list without merge key", `{"mergingIntList":[{"a":1}]}`},
		{"non-merging list replaced", `{"nonMergingList":[{"name":"y"}]}`},
		{"null deletes", `{"simpleMap":null,"mergingList":null}`},
		{"null inside new map dropped", `{"mergeItemPtr":{"name":"p","value":null}}`},
		{"unknown field added", `{"unknown":{"a":{"b":null,"c":1}}}`},
		{"replace strategy map", `{"replacingItem":{"x":{"w":1}}}`},
		{"type change", `{"simpleMap":[1,2]}`},
		{"unknown directive key", `{"$foo":1}`},
		{"null patch", `null`},
		{"empty patch", `{}`},
		{"deleteFromPrimitiveList on map list", `{"$deleteFromPrimitiveList/mergingList":[{"name":"a"}]}`},
		{"duplicate scalars", `{"mergingIntList":[3,4,4,1]}`},
	}
	var out []Golden
	for _, c := range cases {
		out = append(out, applySMP("errors: "+c.name, json.RawMessage(orig), json.RawMessage(c.patch)))
	}
	// Cases that need an original the typed API would not produce.
	for _, c := range []struct{ name, orig, patch string }{
		{"list of lists in both", `{"mergingIntList":[[1]]}`, `{"mergingIntList":[[2]]}`},
		{"maps without merge key in both", `{"mergingIntList":[{"a":1}]}`, `{"mergingIntList":[{"b":2}]}`},
		{"raw struct field merged", `{"jsonItem":{"a":{"b":1}}}`, `{"jsonItem":{"a":{"c":2}}}`},
		{"list patch on map field", `{"simpleMap":[1]}`, `{"simpleMap":[2]}`},
		{"list patch on pointer field", `{"mergeItemPtr":[{"name":"a","value":"1"}]}`, `{"mergeItemPtr":[{"name":"a","other":"2"},{"name":"b"}]}`},
		{"empty lists", `{"mergingList":[]}`, `{"mergingList":[]}`},
		{"delete all of a list", `{"mergingList":[{"name":"a"},{"name":"a"}]}`, `{"mergingList":[{"$patch":"delete","name":"a"}]}`},
	} {
		out = append(out, applySMP("errors: "+c.name, json.RawMessage(c.orig), json.RawMessage(c.patch)))
	}
	return out
}
