package schema

import (
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestCanonicalMetaIsRoundTrip: wherever objectMetaOf skips the ObjectMeta
// round trip (canonicalMeta), the round trip gives the same map, and the
// cases it leaves to the round trip are ones the round trip changes or
// checks.
func TestCanonicalMetaIsRoundTrip(t *testing.T) {
	cases := []struct {
		name      string
		meta      string
		canonical bool
	}{
		{"name only", `{"name":"a"}`, true},
		{"a create", `{"name":"cm-1","namespace":"ns","labels":{"app":"bench","tier":"load"},"annotations":{"a":"","b":"<&>"}}`, true},
		{"generateName", `{"generateName":"web-"}`, true},
		{"read back", `{"name":"a","namespace":"ns","uid":"0b6d","resourceVersion":"12","creationTimestamp":"2024-01-02T03:04:05Z","finalizers":["x/y",""]}`, true},
		{"selfLink", `{"selfLink":"/api/v1/x"}`, true},
		{"empty", `{}`, true},
		{"unicode", `{"name":"\u2028é","labels":{"k":"\u00e9"}}`, true},
		{"empty name dropped", `{"name":""}`, false},
		{"empty labels dropped", `{"name":"a","labels":{}}`, false},
		{"null labels", `{"labels":null}`, false},
		{"empty finalizers dropped", `{"finalizers":[]}`, false},
		{"fractional time", `{"creationTimestamp":"2024-01-02T03:04:05.5Z"}`, false},
		{"offset time", `{"creationTimestamp":"2024-01-02T03:04:05+01:00"}`, false},
		{"zero time", `{"creationTimestamp":"0001-01-01T00:00:00Z"}`, false},
		{"null time", `{"creationTimestamp":null}`, false},
		{"number label", `{"labels":{"a":1}}`, false},
		{"number name", `{"name":5}`, false},
		{"unknown field", `{"name":"a","bogus":1}`, false},
		{"case", `{"Name":"a"}`, false},
		{"generation", `{"generation":3}`, false},
		{"owner", `{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u"}]}`, false},
		{"managedFields", `{"managedFields":[{"manager":"m","operation":"Update"}]}`, false},
		{"deletion", `{"deletionTimestamp":"2024-01-02T03:04:05Z","deletionGracePeriodSeconds":0}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := jsonx.Decode([]byte(c.meta))
			if err != nil {
				t.Fatal(err)
			}
			m := v.(map[string]any)
			if got := canonicalMeta(m); got != c.canonical {
				t.Fatalf("canonicalMeta(%s) = %v, want %v", c.meta, got, c.canonical)
			}
			fast, found, unknown, err := objectMetaOf(map[string]any{"metadata": jsonx.CopyObject(m)}, "", false)
			slow, sFound, sUnknown, sErr := roundTripMeta(jsonx.CopyObject(m), "metadata", false)
			if (err == nil) != (sErr == nil) || found != sFound || !reflect.DeepEqual(unknown, sUnknown) || !reflect.DeepEqual(fast, slow) {
				t.Fatalf("objectMetaOf = %v %v %v %v, the round trip = %v %v %v %v", fast, found, unknown, err, slow, sFound, sUnknown, sErr)
			}
			if c.canonical && !reflect.DeepEqual(slow, m) {
				t.Fatalf("the round trip changed %v into %v", m, slow)
			}
		})
	}
}

// FuzzCanonicalMeta: any metadata canonicalMeta lets through is what the
// ObjectMeta round trip gives back.
func FuzzCanonicalMeta(f *testing.F) {
	for _, s := range []string{`{"name":"a","labels":{"a":"b"}}`, `{"creationTimestamp":"2024-01-02T03:04:05Z"}`, `{"finalizers":["a"]}`, `{"name":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := jsonx.Decode(b)
		m, ok := v.(map[string]any)
		if err != nil || !ok || !canonicalMeta(m) {
			return
		}
		slow, found, unknown, err := roundTripMeta(jsonx.CopyObject(m), "metadata", false)
		if err != nil || !found || len(unknown) > 0 || !reflect.DeepEqual(slow, m) {
			t.Fatalf("canonicalMeta(%s) but the round trip gives %v %v %v %v", b, slow, found, unknown, err)
		}
	})
}
