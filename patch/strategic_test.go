package patch

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// podSchema is a slice of core/v1 Pod with its real patch metadata.
func podSchema() *schema.Schema {
	str := &schema.Schema{Type: "string"}
	port := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"containerPort": {Type: "integer", Format: "int32"}, "name": str, "protocol": str,
	}}
	container := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"name": str, "image": str,
		"ports": {Type: "array", Items: port, PatchStrategy: "merge", PatchMergeKey: "containerPort",
			ListType: "map", ListMapKeys: []string{"containerPort", "protocol"}},
		"args": {Type: "array", Items: str},
	}}
	volume := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"name": str, "emptyDir": {Type: "object"}, "configMap": {Type: "object"},
	}}
	spec := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"containers": {Type: "array", Items: container, PatchStrategy: "merge", PatchMergeKey: "name"},
		"volumes":    {Type: "array", Items: volume, PatchStrategy: "merge,retainKeys", PatchMergeKey: "name"},
		"finalizers": {Type: "array", Items: str, PatchStrategy: "merge"},
	}}
	meta := &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"labels":     {Type: "object", AdditionalProperties: str},
		"finalizers": {Type: "array", Items: str, PatchStrategy: "merge"},
	}}
	return &schema.Schema{Type: "object", Properties: map[string]*schema.Schema{
		"metadata": {AllOf: []*schema.Schema{meta}}, "spec": spec,
	}}
}

func TestStrategicMergePatchTable(t *testing.T) {
	pod := `{"metadata":{"labels":{"app":"a"},"finalizers":["x"]},"spec":{"containers":[{"name":"c1","image":"i1","ports":[{"containerPort":80},{"containerPort":81}],"args":["a","b"]},{"name":"c2","image":"i2"}],"volumes":[{"name":"v","emptyDir":{}}]}}`
	cases := []struct {
		name     string
		s        *schema.Schema
		original string
		patch    string
		want     string
	}{
		{"merge container by name", podSchema(), pod,
			`{"spec":{"containers":[{"name":"c2","image":"new"},{"name":"c3","image":"i3"}]}}`,
			`{"metadata":{"finalizers":["x"],"labels":{"app":"a"}},"spec":{"containers":[{"args":["a","b"],"image":"i1","name":"c1","ports":[{"containerPort":80},{"containerPort":81}]},{"image":"new","name":"c2"},{"image":"i3","name":"c3"}],"volumes":[{"emptyDir":{},"name":"v"}]}}`},
		{"nested merge key and atomic args", podSchema(), pod,
			`{"spec":{"containers":[{"name":"c1","args":["z"],"ports":[{"containerPort":81,"name":"web"}]}]}}`,
			`{"metadata":{"finalizers":["x"],"labels":{"app":"a"}},"spec":{"containers":[{"args":["z"],"image":"i1","name":"c1","ports":[{"containerPort":80},{"containerPort":81,"name":"web"}]},{"image":"i2","name":"c2"}],"volumes":[{"emptyDir":{},"name":"v"}]}}`},
		{"delete a container", podSchema(), pod,
			`{"spec":{"containers":[{"$patch":"delete","name":"c1"}]}}`,
			`{"metadata":{"finalizers":["x"],"labels":{"app":"a"}},"spec":{"containers":[{"image":"i2","name":"c2"}],"volumes":[{"emptyDir":{},"name":"v"}]}}`},
		{"retainKeys switches a volume source", podSchema(), pod,
			`{"spec":{"volumes":[{"name":"v","configMap":{"name":"cm"},"$retainKeys":["configMap","name"]}]}}`,
			`{"metadata":{"finalizers":["x"],"labels":{"app":"a"}},"spec":{"containers":[{"args":["a","b"],"image":"i1","name":"c1","ports":[{"containerPort":80},{"containerPort":81}]},{"image":"i2","name":"c2"}],"volumes":[{"configMap":{"name":"cm"},"name":"v"}]}}`},
		{"primitive merge list through allOf", podSchema(), pod,
			`{"metadata":{"finalizers":["y"],"$deleteFromPrimitiveList/finalizers":["x"],"labels":{"app":null,"b":"c"}}}`,
			`{"metadata":{"finalizers":["y"],"labels":{"b":"c"}},"spec":{"containers":[{"args":["a","b"],"image":"i1","name":"c1","ports":[{"containerPort":80},{"containerPort":81}]},{"image":"i2","name":"c2"}],"volumes":[{"emptyDir":{},"name":"v"}]}}`},
		{"no schema: maps merge, lists replace", nil,
			`{"a":{"b":1,"c":[1,2]},"l":[{"name":"x"}]}`,
			`{"a":{"d":2,"c":[3]},"l":[{"name":"y"}]}`,
			`{"a":{"b":1,"c":[3],"d":2},"l":[{"name":"y"}]}`},
		{"no schema: null deletes, unmatched null ignored", nil,
			`{"a":{"b":1}}`, `{"a":{"b":null},"z":null}`, `{"a":{}}`},
		{"empty patch", podSchema(), pod, `{}`,
			`{"metadata":{"finalizers":["x"],"labels":{"app":"a"}},"spec":{"containers":[{"args":["a","b"],"image":"i1","name":"c1","ports":[{"containerPort":80},{"containerPort":81}]},{"image":"i2","name":"c2"}],"volumes":[{"emptyDir":{},"name":"v"}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := StrategicMergePatch([]byte(c.original), []byte(c.patch), c.s)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("\nwant %s\ngot  %s", c.want, got)
			}
		})
	}
}

func TestStrategicMergePatchStrict(t *testing.T) {
	r, err := StrategicMergePatchWith([]byte(`{"a":{"b":1}}`), []byte(`{"a":{"c":1,"c":2},"$retainKeys":["a"]}`), nil, Options{FieldValidation: FieldValidationStrict})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.StrictErrors) != 1 || r.StrictErrors[0] != `duplicate field "a.c"` {
		t.Errorf("strict errors: %q", r.StrictErrors)
	}
	// The handler prints the patch map after the library consumed the
	// $retainKeys directive.
	if r.PatchValue != "map[a:map[c:2]]" {
		t.Errorf("patch value: %q", r.PatchValue)
	}
	r, err = StrategicMergePatchWith([]byte(`{}`), []byte(`{"a":1,"a":2}`), nil, Options{FieldValidation: FieldValidationIgnore})
	if err != nil || len(r.StrictErrors) != 0 || string(r.Object) != `{"a":2}` {
		t.Errorf("ignore: %v %q %s", err, r.StrictErrors, r.Object)
	}
}
