package apiserver

import (
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestAccessorsOnOddShapes: reads never write, and writers create a
// missing or null object but leave a mistyped value alone (the behaviour
// shared with core/controllers and core/builtin).
func TestAccessorsOnOddShapes(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		do             func(object)
	}{
		{"metaStr on no metadata", `{"kind":"X"}`, `{"kind":"X"}`, func(o object) { metaStr(o, "name") }},
		{"metaStr on mistyped metadata", `{"metadata":"x"}`, `{"metadata":"x"}`, func(o object) { metaStr(o, "name") }},
		{"meta creates a missing metadata", `{}`, `{"metadata":{"name":"a"}}`, func(o object) { meta(o)["name"] = "a" }},
		{"meta creates a null metadata", `{"metadata":null}`, `{"metadata":{"name":"a"}}`, func(o object) { meta(o)["name"] = "a" }},
		{"meta leaves mistyped metadata alone", `{"metadata":[1]}`, `{"metadata":[1]}`, func(o object) { meta(o)["name"] = "a" }},
		{"setNested creates the way", `{}`, `{"spec":{"replicas":2}}`, func(o object) { setNested(o, int64(2), "spec", "replicas") }},
		{"setNested leaves a mistyped step alone", `{"spec":"x"}`, `{"spec":"x"}`, func(o object) { setNested(o, int64(2), "spec", "replicas") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			tc.do(o)
			want, _ := jsonx.DecodeObject([]byte(tc.want))
			if !reflect.DeepEqual(o, want) {
				t.Errorf("got %v, want %v", o, want)
			}
		})
	}
}
