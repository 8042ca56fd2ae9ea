package apiserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// Protobuf answers (Accept: application/vnd.kubernetes.protobuf): built-in
// kinds' objects, lists, errors and watch events; custom resources stay
// JSON (406 when nothing else is accepted); PartialObjectMetadata is
// protobuf for every resource, Table never. The bytes themselves are
// compared with the real serializer in reference/roundtrip.
func TestProtobufAnswers(t *testing.T) {
	s := New(Options{})
	seed(t, s) // configmap team/cfg, widget team/w1
	cmSchema := builtin.Definition("io.k8s.api.core.v1.ConfigMap")
	get := func(path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept", accept)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	decode := func(t *testing.T, w *httptest.ResponseRecorder, sch *schema.Schema) map[string]any {
		t.Helper()
		if ct := w.Header().Get("Content-Type"); ct != protobuf.ContentType {
			t.Fatalf("Content-Type %q: %s", ct, w.Body.Bytes())
		}
		obj, err := protobuf.DecodeToJSONObject(w.Body.Bytes(), sch)
		if err != nil {
			t.Fatalf("decode: %v", err)
		}
		return obj
	}
	asJSON := func(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
		t.Helper()
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		var m map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	const pb = "application/vnd.kubernetes.protobuf"
	cm, cms := "/api/v1/namespaces/team/configmaps/cfg", "/api/v1/namespaces/team/configmaps"
	widget := "/apis/example.com/v1/namespaces/team/widgets/w1"

	t.Run("object equals the JSON answer", func(t *testing.T) {
		w := get(cm, pb)
		got := decode(t, w, cmSchema)
		var want map[string]any
		b, _ := json.Marshal(asJSON(t, get(cm, "application/json")))
		json.Unmarshal(b, &want)
		b, _ = json.Marshal(got)
		json.Unmarshal(b, &got)
		if w.Code != 200 || !reflect.DeepEqual(got, want) {
			t.Errorf("%d\n%v\nwant %v", w.Code, got, want)
		}
	})
	t.Run("list, protobuf preferred", func(t *testing.T) {
		w := get(cms, pb+", application/json")
		u, err := protobuf.DecodeEnvelope(w.Body.Bytes())
		if err != nil || u.Kind != "ConfigMapList" || u.APIVersion != "v1" {
			t.Fatalf("%v %+v", err, u)
		}
		l := decode(t, w, protobuf.ListOf(cmSchema))
		items, _ := l["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["data"].(map[string]any)["k"] != "v" {
			t.Errorf("list %v", l)
		}
		if rv, _ := l["metadata"].(map[string]any)["resourceVersion"].(string); rv == "" {
			t.Errorf("no resourceVersion: %v", l)
		}
	})
	t.Run("custom resource falls back to JSON", func(t *testing.T) {
		if m := asJSON(t, get(widget, pb+", application/json")); m["kind"] != "Widget" {
			t.Errorf("%v", m)
		}
	})
	for _, tc := range []struct{ name, path, accept, message string }{
		{"custom resource, protobuf only", widget, pb, ""},
		{"Table as protobuf", cm, pb + ";as=Table;g=meta.k8s.io;v=v1", ""},
	} {
		t.Run(tc.name+" is 406", func(t *testing.T) {
			w := get(tc.path, tc.accept)
			st := decode(t, w, protobuf.Meta("Status"))
			if w.Code != 406 || st["reason"] != "NotAcceptable" || st["code"] != int64(406) {
				t.Errorf("%d %v", w.Code, st)
			}
		})
	}
	t.Run("errors are protobuf Status", func(t *testing.T) {
		w := get(cms+"/nope", pb)
		st := decode(t, w, protobuf.Meta("Status"))
		details, _ := st["details"].(map[string]any)
		if w.Code != 404 || st["message"] != `configmaps "nope" not found` || st["reason"] != "NotFound" || details["name"] != "nope" {
			t.Errorf("%d %v", w.Code, st)
		}
	})
	t.Run("PartialObjectMetadata of a custom resource", func(t *testing.T) {
		w := get(widget, pb+";as=PartialObjectMetadata;g=meta.k8s.io;v=v1")
		u, _ := protobuf.DecodeEnvelope(w.Body.Bytes())
		m := decode(t, w, protobuf.Meta("PartialObjectMetadata"))
		if w.Code != 200 || u.Kind != "PartialObjectMetadata" || u.APIVersion != "meta.k8s.io/v1" || m["metadata"].(map[string]any)["name"] != "w1" {
			t.Errorf("%d %+v %v", w.Code, u, m)
		}
	})
	t.Run("watch frames", func(t *testing.T) {
		w := get(cms+"?watch=1&resourceVersion=0&timeoutSeconds=1", pb)
		if ct := w.Header().Get("Content-Type"); ct != pb+";stream=watch" {
			t.Fatalf("Content-Type %q", ct)
		}
		evs := watchFrames(t, w.Body.Bytes())
		if len(evs) != 1 || evs[0].typ != "ADDED" {
			t.Fatalf("events %+v", evs)
		}
		obj, err := protobuf.DecodeToJSONObject(evs[0].object, cmSchema)
		if err != nil || obj["kind"] != "ConfigMap" || obj["metadata"].(map[string]any)["name"] != "cfg" {
			t.Errorf("%v %v", err, obj)
		}
	})
}

type pbEvent struct {
	typ    string
	object []byte
}

// watchFrames splits a protobuf watch stream: frames of a 4-byte
// big-endian length and a WatchEvent {type = 1, object = 2 {raw = 1}}.
func watchFrames(t *testing.T, b []byte) []pbEvent {
	t.Helper()
	var out []pbEvent
	for len(b) > 0 {
		if len(b) < 4 || int(binary.BigEndian.Uint32(b)) > len(b)-4 {
			t.Fatalf("truncated frame % x", b)
		}
		n := binary.BigEndian.Uint32(b)
		msg := b[4 : 4+n]
		b = b[4+n:]
		f := bytesFields(t, msg)
		out = append(out, pbEvent{typ: string(f[1]), object: bytesFields(t, f[2])[1]})
	}
	return out
}

// bytesFields reads a message of length-delimited fields only.
func bytesFields(t *testing.T, msg []byte) map[uint64][]byte {
	t.Helper()
	f := map[uint64][]byte{}
	r := bytes.NewReader(msg)
	for r.Len() > 0 {
		tag, err := binary.ReadUvarint(r)
		if err != nil || tag&7 != 2 {
			t.Fatalf("tag %d: %v", tag, err)
		}
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(r.Len()) {
			t.Fatalf("length %d: %v", n, err)
		}
		v := make([]byte, n)
		r.Read(v)
		f[tag>>3] = v
	}
	return f
}

// TestProtobufScaleBody: a typed client's Scale arrives as protobuf; a
// broken one is a 400 worded as decodeObject words other kinds' bodies.
func TestProtobufScaleBody(t *testing.T) {
	s := New(Options{})
	const deploy = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1,
	  "selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	if code, out := do(t, s, "POST", "/apis/apps/v1/namespaces/default/deployments", "application/json", deploy); code != 201 {
		t.Fatalf("%d %v", code, out)
	}
	scale := builtin.Definition("io.k8s.api.autoscaling.v1.Scale")
	body, err := protobuf.EncodeObject(map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": "d", "namespace": "default"}, "spec": map[string]any{"replicas": int64(3)}}, scale)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := protobuf.DecodeEnvelope(body)
	raw := u.Raw
	const path = "/apis/apps/v1/namespaces/default/deployments/d/scale"
	for _, tc := range []struct {
		name    string
		body    string
		code    int
		message string
	}{
		{"scale to 3", string(body), 200, ""},
		{"not protobuf", "{}", 400, "the object provided is unrecognized (must be of type Scale): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({})"},
		{"truncated Scale", string(protobuf.Envelope("autoscaling/v1", "Scale", raw[:len(raw)-1])), 400, `Scale in version "v1" cannot be handled as a Scale: unexpected EOF`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := do(t, s, "PUT", path, protobuf.ContentType, tc.body)
			if code != tc.code || (tc.message != "" && out["message"] != tc.message) {
				t.Errorf("%d %v", code, out)
			}
		})
	}
	_, d := do(t, s, "GET", "/apis/apps/v1/namespaces/default/deployments/d", "", "")
	if r := d["spec"].(map[string]any)["replicas"]; r != float64(3) {
		t.Errorf("replicas %v", r)
	}
}
