package builtin

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// FuzzHooks runs every built-in hook on arbitrary JSON objects: none may
// panic, whatever shape the object has.
func FuzzHooks(f *testing.F) {
	f.Add(`{"spec":{"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]}]}}`)
	f.Add(`{"spec":{"template":{"spec":{"volumes":[{"name":"v"}]}},"strategy":{"type":"RollingUpdate"}}}`)
	f.Add(`{"spec":{"ports":[{"port":"x","targetPort":null}],"clusterIP":"None"}}`)
	f.Add(`{"metadata":{"name":"n","labels":"x"},"spec":{"finalizers":"y"}}`)
	f.Add(`{"spec":{"containers":[{"resources":{"limits":{"cpu":"1.5Gi"},"requests":{"cpu":5}}}],"tolerations":[{}],"os":{}}}`)
	f.Add(`{"spec":{"schedule":"TZ=0","timeZone":"","jobTemplate":{"spec":{"selector":{}}},"selector":{"matchExpressions":[{"operator":"In"}]}}}`)
	f.Add(`{"data":{"..":1},"binaryData":{"a":"!!"},"stringData":{"x":null},"immutable":true,"type":"kubernetes.io/tls"}`)
	f.Fuzz(func(t *testing.T, s string) {
		obj, err := jsonx.DecodeObject([]byte(s))
		if err != nil {
			return
		}
		for _, r := range Resources() {
			o := jsonx.CopyObject(obj)
			h := r.Hooks
			if h.Default != nil {
				h.Default(o)
			}
			if h.PrepareCreate != nil {
				h.PrepareCreate(o)
			}
			if h.PrepareUpdate != nil {
				h.PrepareUpdate(o, obj)
			}
			if h.Validate != nil {
				_ = h.Validate(o, nil)
				_ = h.Validate(o, obj)
				_ = h.Validate(obj, o)
			}
		}
	})
}

// FuzzImageTag checks the image reference parser never panics and that a
// reference with a tag and no digest reports that tag.
func FuzzImageTag(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.2", "localhost:5000/a:b", "a@sha256:0", ":", "@", "/:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = imageTag(s)
		if tag := imageTag("repo/name:" + "v1"); tag != "v1" {
			t.Fatalf("tag %q", tag)
		}
	})
}
