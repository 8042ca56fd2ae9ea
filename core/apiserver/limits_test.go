package apiserver_test

// Limits like the real server: the 3 MiB request body, the 256 KiB
// annotation total, name and label lengths — each tested on both sides of
// the boundary — and hostile bodies (deep nesting, YAML alias bombs, huge
// numbers of fields), which must be rejected or handled quickly, never
// crash, hang or exhaust memory.

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

const relMaxBody = 3 * 1024 * 1024 // kube-apiserver's MaxRequestBodyBytes

// relPadded is a JSON object padded with trailing spaces to exactly n
// bytes: a body of any size whose object stays small.
func relPadded(obj string, n int) string {
	return obj + strings.Repeat(" ", n-len(obj))
}

func TestBodySizeLimit(t *testing.T) {
	s := relServer(t)
	const tooLarge = "Request entity too large: limit is 3145728"
	cases := []struct {
		name, method, path, ct, obj string
		okCode                      int
	}{
		{"create", "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"edge"}}`, 201},
		{"update", "PUT", relCMs + "/cm1", relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"count":"1"}}`, 200},
		{"merge patch", "PATCH", relCMs + "/cm1", relMerge, `{"data":{"count":"2"}}`, 200},
		{"json patch", "PATCH", relCMs + "/cm1", relJPatch, `[{"op":"replace","path":"/data/count","value":"3"}]`, 200},
		{"strategic patch", "PATCH", relCMs + "/cm1", relSMP, `{"data":{"count":"4"}}`, 200},
		{"apply", "PATCH", relWidgets + "/w1?fieldManager=alice", relApply, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"color":"red","replicas":3,"counter":0}}`, 200},
		{"delete options", "DELETE", relCMs + "/edge", relJSON, `{"propagationPolicy":"Background"}`, 200},
	}
	for _, c := range cases {
		t.Run(c.name+"/over the limit", func(t *testing.T) {
			r := relDo(s, c.method, c.path, c.ct, relPadded(c.obj, relMaxBody+1))
			st, err := relParseStatus(r)
			if err != nil {
				t.Fatalf("%d: %v", r.Code, err)
			}
			if r.Code != 413 || st.Reason != "RequestEntityTooLarge" || st.Message != tooLarge {
				t.Errorf("got %d %s %q, want 413 RequestEntityTooLarge %q", r.Code, st.Reason, st.Message, tooLarge)
			}
		})
		t.Run(c.name+"/at the limit", func(t *testing.T) {
			r := relDo(s, c.method, c.path, c.ct, relPadded(c.obj, relMaxBody))
			if r.Code != c.okCode {
				t.Errorf("got %d, want %d: %.300s", r.Code, c.okCode, r.Body)
			}
		})
	}
}

// relInvalid expects a 422 Invalid whose message is exactly msg.
func relInvalid(t *testing.T, r relResp, msg string) {
	t.Helper()
	st, err := relParseStatus(r)
	if err != nil {
		t.Fatalf("%d: %v", r.Code, err)
	}
	if r.Code != 422 || st.Reason != "Invalid" {
		t.Fatalf("got %d %s %.300q, want 422 Invalid", r.Code, st.Reason, st.Message)
	}
	if st.Message != msg {
		t.Errorf("message\n got %.400q\nwant %.400q", st.Message, msg)
	}
}

func TestMetadataLimits(t *testing.T) {
	s := relServer(t)
	cm := func(name, meta string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q%s}}`, name, meta)
	}
	// annotations: the sum of key and value lengths is at most 256 KiB
	ann := func(total int) string { // key "a" + value of total-1 bytes
		return fmt.Sprintf(`,"annotations":{"a":%q}`, strings.Repeat("v", total-1))
	}
	t.Run("annotations/256 KiB", func(t *testing.T) {
		relMust(t, s, 201, "POST", relCMs, relJSON, cm("ann-ok", ann(256<<10)))
	})
	t.Run("annotations/256 KiB + 1", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relCMs, relJSON, cm("ann-big", ann(256<<10+1))),
			`ConfigMap "ann-big" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`)
	})
	t.Run("annotations/256 KiB + 1 on a custom resource", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relWidgets, relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"ann-big"`+ann(256<<10+1)+`}}`),
			`Widget.rel.example.com "ann-big" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`)
	})
	t.Run("annotations/update past the limit", func(t *testing.T) {
		relInvalid(t, relDo(s, "PATCH", relCMs+"/cm1", relMerge, `{"metadata":{"annotations":{"b":"`+strings.Repeat("v", 256<<10)+`"}}}`),
			`ConfigMap "cm1" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`)
	})

	// names: DNS subdomain (253) for most objects, DNS label (63) for namespaces
	n253, n254 := strings.Repeat("a", 253), strings.Repeat("a", 254)
	t.Run("name/253", func(t *testing.T) { relMust(t, s, 201, "POST", relCMs, relJSON, cm(n253, "")) })
	t.Run("name/254", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relCMs, relJSON, cm(n254, "")),
			`ConfigMap "`+n254+`" is invalid: metadata.name: Invalid value: "`+n254+`": must be no more than 253 characters`)
	})
	n63, n64 := strings.Repeat("n", 63), strings.Repeat("n", 64)
	t.Run("namespace name/63", func(t *testing.T) {
		relMust(t, s, 201, "POST", relNS, relJSON, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+n63+`"}}`)
	})
	t.Run("namespace name/64", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relNS, relJSON, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+n64+`"}}`),
			// the kubernetes.io/metadata.name label is defaulted from the name first
			`Namespace "`+n64+`" is invalid: [metadata.name: Invalid value: "`+n64+`": must be no more than 63 characters, metadata.labels: Invalid value: "`+n64+`": must be no more than 63 bytes]`)
	})

	// labels: values and key names up to 63
	v63, v64 := strings.Repeat("v", 63), strings.Repeat("v", 64)
	t.Run("label value/63", func(t *testing.T) {
		relMust(t, s, 201, "POST", relCMs, relJSON, cm("lv63", `,"labels":{"k":"`+v63+`"}`))
	})
	t.Run("label value/64", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relCMs, relJSON, cm("lv64", `,"labels":{"k":"`+v64+`"}`)),
			`ConfigMap "lv64" is invalid: metadata.labels: Invalid value: "`+v64+`": must be no more than 63 bytes`)
	})
	t.Run("label key/64", func(t *testing.T) {
		relInvalid(t, relDo(s, "POST", relCMs, relJSON, cm("lk64", `,"labels":{"`+v64+`":"x"}`)),
			`ConfigMap "lk64" is invalid: metadata.labels: Invalid value: "`+v64+`": name part must be no more than 63 bytes`)
	})
}

// relNested is n nested JSON arrays.
func relNested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// relAliasBomb is a "billion laughs" YAML document: 9 levels of 9
// aliases each, 9^9 strings once expanded.
func relAliasBomb() string {
	var b strings.Builder
	b.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		refs := strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",")
		fmt.Fprintf(&b, "%s: &%s [%s]\n", n, n, refs)
		prev = n
	}
	return b.String()
}

// TestHostileBodies sends bodies built to exhaust a decoder. Each must be
// answered with the real server's Status quickly and without a memory
// blow-up, and nothing may be written.
func TestHostileBodies(t *testing.T) {
	s := relServer(t)
	deep := relNested(100000)
	deepHex := strings.Repeat("5b", 30) + " ..."
	bomb := relAliasBomb()
	bombCM := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n" + bomb
	const unrecCM = "the object provided is unrecognized (must be of type ConfigMap): "
	cases := []struct {
		name, method, path, ct, body string
		code                         int
		reason, msg                  string
	}{
		{"create/100,000 nested arrays", "POST", relCMs, relJSON, deep,
			400, "BadRequest", unrecCM + "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (" + deepHex + ")"},
		{"create/100,000 nested arrays in a field", "POST", relCMs, relJSON, `{"data":` + deep + `}`,
			400, "BadRequest", unrecCM + `couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"data":[[[[[[[[[[[[[[[[[[[[[[ ...)`},
		{"update/100,000 nested arrays", "PUT", relCMs + "/cm1", relJSON, deep,
			400, "BadRequest", unrecCM + "couldn't get version/kind; json parse error: invalid character '[' exceeded max depth (" + deepHex + ")"},
		{"create yaml/100,000 nested flow sequences", "POST", relCMs, "application/yaml", deep,
			400, "BadRequest", unrecCM + "yaml: exceeded max depth of 10000 (" + deepHex + ")"},
		{"create yaml/alias bomb", "POST", relCMs, "application/yaml", bombCM,
			400, "BadRequest", unrecCM + "yaml: document contains excessive aliasing (" + fmt.Sprintf("%x", bombCM[:30]) + " ...)"},
		{"apply/alias bomb", "PATCH", relWidgets + "/w1?fieldManager=alice", relApply, "apiVersion: rel.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n" + bomb,
			400, "BadRequest", "error encoding patch: yaml: document contains excessive aliasing"},
		{"apply/100,000 nested flow sequences", "PATCH", relWidgets + "/w1?fieldManager=alice", relApply, deep,
			400, "BadRequest", "error encoding patch: yaml: exceeded max depth of 10000"},
		{"merge patch/100,000 nested arrays", "PATCH", relCMs + "/cm1", relMerge, `{"data":` + deep + `}`, 400, "BadRequest", ""},
		{"json patch/100,000 nested arrays", "PATCH", relCMs + "/cm1", relJPatch, `[{"op":"add","path":"/x","value":` + deep + `}]`, 400, "BadRequest", ""},
		{"strategic patch/100,000 nested arrays", "PATCH", relCMs + "/cm1", relSMP, `{"data":` + deep + `}`, 400, "BadRequest", ""},
		{"delete options/100,000 nested arrays", "DELETE", relCMs + "/cm1", relJSON, deep, 400, "BadRequest", ""},
		// what the decoders accept but an object is not
		{"create/array", "POST", relCMs, relJSON, `[]`, 400, "BadRequest",
			unrecCM + `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" } (5b5d)`},
		{"create/empty body", "POST", relCMs, relJSON, ``, 400, "BadRequest",
			unrecCM + `couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)`},
		{"create/kind not a string", "POST", relCMs, relJSON, `{"kind":5}`, 400, "BadRequest",
			unrecCM + `couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})`},
	}
	before, rev := relFingerprint(s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			start := time.Now()
			r := relDo(s, c.method, c.path, c.ct, c.body)
			took := time.Since(start)
			runtime.ReadMemStats(&m1)
			if took > 2*time.Second {
				t.Errorf("took %v", took)
			}
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 256<<20 {
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			st, err := relParseStatus(r)
			if err != nil {
				t.Fatalf("%d: %v", r.Code, err)
			}
			if r.Code != c.code || st.Reason != c.reason {
				t.Errorf("got %d %s %.300q, want %d %s", r.Code, st.Reason, st.Message, c.code, c.reason)
			}
			if c.msg != "" && st.Message != c.msg {
				t.Errorf("message\n got %.400q\nwant %.400q", st.Message, c.msg)
			}
		})
	}
	if after, rev2 := relFingerprint(s); rev2 != rev || string(after) != string(before) {
		t.Errorf("hostile bodies changed the store (rev %d → %d)", rev, rev2)
	}
}

// TestManyFields: wide objects (20,000 keys) are stored in bounded time.
// The field manager's cost grows faster than linearly (structured-merge-
// diff inserts into sorted slices, as in the real server): 100,000 keys
// take ~3 s per write, 20,000 ~0.2 s (a few seconds under -race).
func TestManyFields(t *testing.T) {
	s := relServer(t)
	n := 20000
	if relRaceEnabled() {
		n = 5000 // the race detector slows the field manager tenfold
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%06d":"v"`, i)
	}
	keys := b.String()
	cases := []struct{ name, method, path, ct, body string }{
		{"configmap data", "POST", relCMs, relJSON, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wide"},"data":{` + keys + `}}`},
		{"widget spec.config", "POST", relWidgets, relJSON, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"wide"},"spec":{"config":{` + keys + `}}}`},
		// evanphx/json-patch v5's merge keeps keys in a slice (quadratic):
		// 100,000 keys take ~25 s (see docs/reliability.md)
		{"merge patch", "PATCH", relCMs + "/cm1", relMerge, `{"data":{` + keys + `}}`},
		{"apply", "PATCH", relWidgets + "/w2?fieldManager=alice", relApply, `{"apiVersion":"rel.example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"config":{` + keys + `}}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := relDo(s, c.method, c.path, c.ct, c.body)
			if r.Code/100 != 2 {
				t.Fatalf("got %d: %.300s", r.Code, r.Body)
			}
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// relRaceEnabled reports a test binary built with -race.
func relRaceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" && s.Value == "true" {
			return true
		}
	}
	return false
}
