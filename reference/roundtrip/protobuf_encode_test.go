package roundtrip

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/randfill"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	kpb "github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/reference/gen"
)

// filler fills typed objects with random values that survive the typed
// JSON round trip the server's storage is (canonical quantities, whole
// seconds in a Time, microseconds in a MicroTime, valid IntOrStrings,
// JSON in RawExtension and FieldsV1).
func filler(seed int64) *randfill.Filler {
	quantities := []string{"0", "1", "250m", "64Mi", "1Gi", "1500m", "2k", "-3", "1e3"}
	json := []string{`{"a":1}`, `{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}`, `[1,"x",null]`, `"s"`, `{}`}
	rawJSON := func(c randfill.Continue) *apiextensionsv1.JSON {
		if c.Intn(3) == 0 {
			return nil
		}
		return &apiextensionsv1.JSON{Raw: []byte(json[c.Intn(len(json))])}
	}
	depth := 0
	return randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 2).MaxDepth(12).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(quantities[c.Intn(len(quantities))])
		},
		func(x *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*x = intstr.FromInt32(c.Int31() - 1<<30)
			} else {
				*x = intstr.FromString(c.String(8))
			}
		},
		func(t *metav1.Time, c randfill.Continue) {
			if c.Intn(4) == 0 {
				*t = metav1.Time{}
				return
			}
			*t = metav1.NewTime(time.Unix(c.Int63n(4e9), 0))
		},
		func(t *metav1.MicroTime, c randfill.Continue) {
			*t = metav1.NewMicroTime(time.Unix(c.Int63n(4e9), c.Int63n(1e9)).Truncate(time.Microsecond))
		},
		func(d *metav1.Duration, c randfill.Continue) {
			d.Duration = time.Duration(c.Int63n(1e13))
		},
		func(r *runtime.RawExtension, c randfill.Continue) {
			r.Raw = []byte(json[c.Intn(len(json))])
		},
		func(f *metav1.FieldsV1, c randfill.Continue) {
			f.Raw = []byte(json[c.Intn(len(json))])
		},
		func(f *float64, c randfill.Continue) {
			*f = float64(c.Int63n(1e6)) / 8
		},
		// a CRD schema: at most three levels, each wrapper in one of
		// its JSON forms
		func(p *apiextensionsv1.JSONSchemaProps, c randfill.Continue) {
			depth++
			defer func() { depth-- }()
			if depth > 3 {
				*p = apiextensionsv1.JSONSchemaProps{Type: "string"}
				return
			}
			c.FillNoCustom(p)
			p.Default, p.Example = rawJSON(c), rawJSON(c)
			p.Enum = nil
			if c.Bool() {
				p.Enum = []apiextensionsv1.JSON{{Raw: []byte(json[c.Intn(len(json))])}, {Raw: []byte(`"x"`)}}
			}
		},
		func(o *apiextensionsv1.JSONSchemaPropsOrArray, c randfill.Continue) {
			*o = apiextensionsv1.JSONSchemaPropsOrArray{}
			if c.Bool() {
				o.Schema = &apiextensionsv1.JSONSchemaProps{}
				c.Fill(o.Schema)
			} else {
				o.JSONSchemas = make([]apiextensionsv1.JSONSchemaProps, 1+c.Intn(2))
				for i := range o.JSONSchemas {
					c.Fill(&o.JSONSchemas[i])
				}
			}
		},
		func(o *apiextensionsv1.JSONSchemaPropsOrBool, c randfill.Continue) {
			*o = apiextensionsv1.JSONSchemaPropsOrBool{Allows: c.Bool()}
			if c.Bool() {
				o.Allows, o.Schema = true, &apiextensionsv1.JSONSchemaProps{}
				c.Fill(o.Schema)
			}
		},
		func(o *apiextensionsv1.JSONSchemaPropsOrStringArray, c randfill.Continue) {
			*o = apiextensionsv1.JSONSchemaPropsOrStringArray{}
			if c.Bool() {
				o.Schema = &apiextensionsv1.JSONSchemaProps{}
				c.Fill(o.Schema)
			} else {
				o.Property = []string{c.String(5), c.String(3)}
			}
		},
		func(j *apiextensionsv1.JSON, c randfill.Continue) {
			j.Raw = []byte(json[c.Intn(len(json))])
		},
	)
}

// realProto is the real protobuf serializer's body for obj.
func realProto(t *testing.T, obj runtime.Object) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme).Encode(obj, &buf); err != nil {
		t.Fatalf("protobuf encode: %v", err)
	}
	return buf.Bytes()
}

// throughJSON normalises obj by the typed JSON round trip (what storage
// keeps) and returns it with its JSON object as core/jsonx decodes it.
func throughJSON(t *testing.T, obj runtime.Object) (runtime.Object, map[string]any) {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	typed := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(b, typed); err != nil {
		t.Fatalf("%s", err)
	}
	b, _ = json.Marshal(typed)
	m, err := jsonx.DecodeObject(b)
	if err != nil {
		t.Fatal(err)
	}
	return typed, m
}

func setKind(t *testing.T, obj runtime.Object) {
	t.Helper()
	gvks, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil {
		t.Fatal(err)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvks[0])
}

// compare reports the first differing byte with context.
func compare(t *testing.T, got, want []byte, what string) bool {
	t.Helper()
	if bytes.Equal(got, want) {
		return true
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-16)
	t.Errorf("%s: protobuf differs at byte %d of %d (want %d)\ngot:  % x\nwant: % x", what, i, len(got), len(want),
		got[lo:min(len(got), i+24)], want[lo:min(len(want), i+24)])
	return false
}

// encodeRoots are the kinds whose encoding is compared: every root of the
// generated schemas but DeleteOptions (a body, never answered).
func encodeRoots(t *testing.T) []reflect.Type {
	var out []reflect.Type
	for _, r := range gen.Roots() {
		if r == reflect.TypeFor[metav1.DeleteOptions]() {
			continue
		}
		out = append(out, r)
	}
	return out
}

const encodeRuns = 40

// TestProtobufEncodeEqualsReal fills objects of every built-in kind with
// random values and checks that core/protobuf encodes their typed JSON to
// exactly the bytes k8s.io/apimachinery's protobuf serializer writes for
// the typed value: objects, their lists, and watch frames.
func TestProtobufEncodeEqualsReal(t *testing.T) {
	apiextensionsv1.AddToScheme(scheme.Scheme)
	agree, total := 0, 0
	for _, typ := range encodeRoots(t) {
		def := builtin.Definition(gen.DefName(typ))
		if def == nil {
			t.Fatalf("no definition of %s", typ)
		}
		t.Run(typ.String(), func(t *testing.T) {
			f := filler(int64(len(typ.String())))
			for i := range encodeRuns {
				obj := reflect.New(typ).Interface().(runtime.Object)
				if i > 0 {
					f.Fill(obj)
				}
				setKind(t, obj)
				typed, m := throughJSON(t, obj)
				setKind(t, typed)
				got, err := kpb.EncodeObject(m, def)
				if err != nil {
					t.Fatalf("run %d: %v", i, err)
				}
				total++
				want := realProto(t, typed)
				// and back: the real bytes decode to what the real decoder
				// makes of them (protobuf has no [] beside null)
				back, err := kpb.DecodeToJSONObject(want, def)
				if err != nil {
					t.Fatalf("run %d: decode: %v", i, err)
				}
				if realBack := realDecode(t, want, typ); !reflect.DeepEqual(back, realBack) {
					g, _ := jsonx.Marshal(back)
					w, _ := jsonx.Marshal(realBack)
					t.Errorf("run %d: decoded protobuf differs from the typed JSON\ngot:  %s\nwant: %s", i, g, w)
				}
				if compare(t, got, want, fmt.Sprintf("run %d", i)) {
					agree++
				} else {
					b, _ := json.Marshal(typed)
					t.Logf("object: %s", b)
					return
				}
			}
			t.Run("list", func(t *testing.T) {
				gvk := typed0(t, typ)
				gvk.Kind += "List"
				list, err := scheme.Scheme.New(gvk)
				if err != nil {
					t.Skipf("no list type: %v", err) // Scale, the reviews
				}
				f.Fill(list)
				items := reflect.ValueOf(list).Elem().FieldByName("Items")
				items.Set(reflect.MakeSlice(items.Type(), 0, 2))
				for range 2 {
					o := reflect.New(typ)
					f.Fill(o.Interface())
					items.Set(reflect.Append(items, o.Elem()))
				}
				list.GetObjectKind().SetGroupVersionKind(gvk)
				typedList, m := throughJSON(t, list)
				typedList.GetObjectKind().SetGroupVersionKind(gvk)
				got, err := kpb.EncodeObject(m, kpb.ListOf(def))
				if err != nil {
					t.Fatal(err)
				}
				compare(t, got, realProto(t, typedList), "list")
			})
		})
	}
	t.Logf("%d of %d objects byte-identical", agree, total)
}

// realDecode is the typed JSON of what the real protobuf decoder makes of
// body.
func realDecode(t *testing.T, body []byte, typ reflect.Type) map[string]any {
	t.Helper()
	into := reflect.New(typ).Interface().(runtime.Object)
	obj, _, err := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme).Decode(body, nil, into)
	if err != nil {
		t.Fatalf("real decode: %v", err)
	}
	return typedJSON(t, obj)
}

func typed0(t *testing.T, typ reflect.Type) schema.GroupVersionKind {
	t.Helper()
	obj := reflect.New(typ).Interface().(runtime.Object)
	setKind(t, obj)
	return obj.GetObjectKind().GroupVersionKind()
}

// TestProtobufEncodeMeta compares the meta.k8s.io messages of responses:
// Status (errors), PartialObjectMetadata(List) and watch frames.
func TestProtobufEncodeMeta(t *testing.T) {
	metav1.AddMetaToScheme(scheme.Scheme)
	f := filler(7)
	for i := range encodeRuns {
		t.Run(fmt.Sprintf("Status/%d", i), func(t *testing.T) {
			st := &metav1.Status{}
			if i > 0 {
				f.Fill(st)
			}
			st.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}
			typed, m := throughJSON(t, st)
			got, err := kpb.EncodeObject(m, kpb.Meta("Status"))
			if err != nil {
				t.Fatal(err)
			}
			compare(t, got, realProto(t, typed), "Status")
		})
		t.Run(fmt.Sprintf("PartialObjectMetadataList/%d", i), func(t *testing.T) {
			l := &metav1.PartialObjectMetadataList{}
			f.Fill(l)
			l.TypeMeta = metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadataList"}
			typed, m := throughJSON(t, l)
			typed.GetObjectKind().SetGroupVersionKind(l.GroupVersionKind())
			got, err := kpb.EncodeObject(m, kpb.Meta("PartialObjectMetadataList"))
			if err != nil {
				t.Fatal(err)
			}
			compare(t, got, realProto(t, typed), "PartialObjectMetadataList")
		})
	}
	t.Run("watch frames", func(t *testing.T) {
		for _, typ := range []string{"ADDED", "ERROR", ""} {
			obj := []byte("k8s\x00" + strings.Repeat("x", rand.New(rand.NewSource(1)).Intn(300)))
			got, err := kpb.WatchFrame(typ, obj)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			ev := &metav1.WatchEvent{Type: typ, Object: runtime.RawExtension{Raw: obj}}
			w := protobuf.LengthDelimitedFramer.NewFrameWriter(&buf)
			if err := protobuf.NewRawSerializer(scheme.Scheme, scheme.Scheme).Encode(ev, w); err != nil {
				t.Fatal(err)
			}
			compare(t, got, buf.Bytes(), "watch frame "+typ)
		}
	})
}

// TestProtobufEncodeQuantities: the stored JSON keeps quantities as sent
// ("0.5", 1000, "1.5Gi"); the protobuf answer has what the real server's
// has, the canonical String() of the parsed Quantity.
func TestProtobufEncodeQuantities(t *testing.T) {
	for _, q := range []string{`"0.5"`, `1000`, `0.25`, `"1.5Gi"`, `"1024Mi"`, `"2000m"`, `"1e3"`, `"100M"`, `"0.1Ki"`, `"-0.5"`} {
		t.Run(q, func(t *testing.T) {
			in := `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"x":` + q + `}}}`
			m, err := jsonx.DecodeObject([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			got, err := kpb.EncodeObject(m, builtin.Definition("io.k8s.api.core.v1.ResourceQuota"))
			if err != nil {
				t.Fatal(err)
			}
			var typed corev1.ResourceQuota
			if err := json.Unmarshal([]byte(in), &typed); err != nil {
				t.Fatal(err)
			}
			compare(t, got, realProto(t, &typed), q)
		})
	}
}
