package patch

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/internal/conformance"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

// statusJSON renders err as the Status body the server writes.
func statusJSON(t *testing.T, err error) string {
	t.Helper()
	b, e := json.Marshal(apierr.ToStatus(ToAPIError(err)))
	if e != nil {
		t.Fatal(e)
	}
	return string(b)
}

func TestToAPIError(t *testing.T) {
	doc := []byte(`{"spec":{"replicas":4,"color":"green"}}`)
	jp := func(p string) error { _, err := JSONPatch(doc, []byte(p)); return err }
	mp := func(p string) error { _, err := MergePatch(doc, []byte(p)); return err }
	smp := func(p string) error { _, err := StrategicMergePatch(doc, []byte(p), mergeItemSchema()); return err }
	const generic422 = `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}`
	cases := []struct {
		name string
		err  error
		want string
	}{
		// Bodies from conformance transcript json-patch.json.
		{"failing test op", jp(`[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":5}]`), generic422},
		{"remove missing path", jp(`[{"op":"remove","path":"/spec/nothere"}]`), generic422},
		{"unknown op", jp(`[{"op":"frobnicate","path":"/spec/replicas","value":1}]`), generic422},
		{"invalid JSON", jp(`[{"op":`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"invalid JSON patch","reason":"BadRequest","code":400}`},
		{"object as JSON patch", jp(`{}`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp","reason":"BadRequest","code":400}`},
		{"too many operations", jp("[" + strings.Repeat(`{"op":"test","path":"/spec"},`, 10000) + `{"op":"test","path":"/spec"}]`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001","reason":"RequestEntityTooLarge","code":413}`},
		{"null merge patch", mp(`null`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Invalid JSON Patch","reason":"BadRequest","code":400}`},
		{"array merge patch", mp(`[1]`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}","reason":"BadRequest","code":400}`},
		{"smp array patch", smp(`[1]`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"json: cannot unmarshal array into Go value of type map[string]interface {}","reason":"BadRequest","code":400}`},
		{"smp bad retainKeys", smp(`{"$retainKeys":"x"}`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"invalid patch format of retainKeys","reason":"BadRequest","code":400}`},
		{"smp unknown map directive", smp(`{"$patch":"frob"}`), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"unknown patch type: frob in map: map[$patch:frob]","code":500}`},
		{"smp list of lists", ErrNoListOfLists, generic422},
		{"api error passes through", apierr.BadRequest("x"), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"x","reason":"BadRequest","code":400}`},
		{"strict decoding", &StrictError{PatchValue: `{"a":1}`, Errors: []string{`json patch unknown field "[0].foo"`, `unknown field "spec.x"`}},
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":" \"\" is invalid: patch: Invalid value: \"{\\\"a\\\":1}\": strict decoding error: json patch unknown field \"[0].foo\", unknown field \"spec.x\"","reason":"Invalid","details":{"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"{\\\"a\\\":1}\": strict decoding error: json patch unknown field \"[0].foo\", unknown field \"spec.x\"","field":"patch"}]},"code":422}`},
		// Body from conformance transcript apply-managed-fields-update.json.
		{"apply conflict", &fieldmanager.ConflictError{Conflicts: []fieldmanager.Conflict{{
			Manager: `{"manager":"conformance-client","operation":"Update","apiVersion":"example.com/v1"}`, Path: ".spec.color"}}},
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Apply failed with 1 conflict: conflict with \"conformance-client\" using example.com/v1: .spec.color","reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \"conformance-client\" using example.com/v1","field":".spec.color"}]},"code":409}`},
		{"plain error", errors.New("boom"), `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: boom","reason":"InternalError","details":{"causes":[{"message":"boom"}]},"code":500}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("no error")
			}
			if got := statusJSON(t, c.err); got != c.want {
				t.Errorf("\nwant %s\ngot  %s", c.want, got)
			}
		})
	}
	if ToAPIError(nil) != nil {
		t.Error("nil error must map to nil")
	}
}

func TestOperationErrorType(t *testing.T) {
	_, err := JSONPatch([]byte(`{"a":1}`), []byte(`[{"op":"add","path":"/b","value":1},{"op":"remove","path":"/zz"}]`))
	var oe *OperationError
	if !errors.As(err, &oe) || oe.Unwrap() == nil {
		t.Fatalf("want an OperationError with a reason, got %#v", err)
	}
}

func TestValidateJSON(t *testing.T) {
	for body, ok := range map[string]bool{`{}`: true, `null`: true, ` [1] `: true, ``: false, `{`: false, `{} {}`: false} {
		err := ValidateJSON([]byte(body))
		if (err == nil) != ok {
			t.Errorf("%q: got %v", body, err)
		}
	}
}

// TestJSONPatchTranscript replays the JSON patch steps of the conformance
// transcript on the object's spec and labels.
func TestJSONPatchTranscript(t *testing.T) {
	b := conformance.Read(t, "json-patch.json")
	var tr struct {
		Steps []struct {
			Name    string
			Request struct {
				Method string
				Body   json.RawMessage
			}
			Response struct {
				Status int
				Body   json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	var cur []byte
	for _, s := range tr.Steps {
		if s.Request.Method == "POST" && strings.HasPrefix(s.Name, "create w1") {
			cur = s.Response.Body
			continue
		}
		if s.Request.Method != "PATCH" || cur == nil {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			out, err := JSONPatch(cur, s.Request.Body)
			if s.Response.Status != 200 {
				if err == nil {
					t.Fatalf("want %d, got success", s.Response.Status)
				}
				want, _ := jsonx.Decode(s.Response.Body)
				got, _ := jsonx.Decode([]byte(statusJSON(t, err)))
				if !reflect.DeepEqual(want, got) {
					t.Errorf("\nwant %s\ngot  %s", s.Response.Body, statusJSON(t, err))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := jsonx.DecodeObject(out)
			want, _ := jsonx.DecodeObject(s.Response.Body)
			for _, k := range []string{"spec"} {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s: want %v, got %v", k, want[k], got[k])
				}
			}
			gm, _ := got["metadata"].(map[string]any)
			wm, _ := want["metadata"].(map[string]any)
			for _, k := range []string{"labels", "annotations"} {
				if !reflect.DeepEqual(gm[k], wm[k]) {
					t.Errorf("metadata.%s: want %v, got %v", k, wm[k], gm[k])
				}
			}
			cur = s.Response.Body
		})
	}
}
