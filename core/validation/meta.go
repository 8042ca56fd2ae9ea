package validation

import (
	"encoding/json"
	"time"
)

// objectMeta is the part of a decoded metadata map that validation reads.
//
// Fields whose JSON type is wrong are treated as absent: the API server's
// decoder drops malformed metadata fields before validation runs (see
// apiextensions-apiserver's objectmeta.Coerce), so they never reach these
// checks there either.
type objectMeta struct {
	name, generateName, namespace string
	uid, resourceVersion          string
	generation                    int64
	creationTimestamp             any // nil, or a timestamp as timeValue/string
	deletionTimestamp             any
	deletionGracePeriodSeconds    any // nil or int64
	labels, annotations           map[string]string
	finalizers                    []string
	ownerReferences               []ownerReference
}

// ownerReference mirrors metav1.OwnerReference, with the same JSON field
// order so that a bad value renders exactly as the real server prints it.
type ownerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// timeValue renders a metav1.Time as its JSON form (RFC 3339, UTC, whole
// seconds), as apimachinery's field errors print such values.
type timeValue struct{ t time.Time }

func (v timeValue) MarshalJSON() ([]byte, error) {
	return json.Marshal(v.t.UTC().Format(time.RFC3339))
}

// jsonString is a string that field errors render as JSON (a named string
// type in apimachinery, such as types.UID, is printed with json.Marshal
// rather than %q).
type jsonString string

func (s jsonString) MarshalJSON() ([]byte, error) { return json.Marshal(string(s)) }

// jsonNull renders as null, as apimachinery v0.37 prints a nil bad value
// (json.Marshal(nil)), whatever field.FormatValue does with a plain nil.
type jsonNull struct{}

func (jsonNull) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// orNull replaces nil by jsonNull.
func orNull(v any) any {
	if v == nil {
		return jsonNull{}
	}
	return v
}

// sameTime compares two timestamps as apimachinery's semantic equality
// does: by instant.
func sameTime(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ta, okA := a.(timeValue)
	tb, okB := b.(timeValue)
	if okA && okB {
		return ta.t.Equal(tb.t)
	}
	return a == b
}

func parseMeta(m map[string]any) objectMeta {
	var om objectMeta
	om.name = str(m["name"])
	om.generateName = str(m["generateName"])
	om.namespace = str(m["namespace"])
	om.uid = str(m["uid"])
	om.resourceVersion = str(m["resourceVersion"])
	if g, ok := m["generation"].(int64); ok {
		om.generation = g
	}
	om.creationTimestamp = timestamp(m["creationTimestamp"])
	om.deletionTimestamp = timestamp(m["deletionTimestamp"])
	if g, ok := m["deletionGracePeriodSeconds"].(int64); ok {
		om.deletionGracePeriodSeconds = g
	}
	om.labels = stringMap(m["labels"])
	om.annotations = stringMap(m["annotations"])
	if l, ok := m["finalizers"].([]any); ok {
		for _, f := range l {
			if s, ok := f.(string); ok {
				om.finalizers = append(om.finalizers, s)
			}
		}
	}
	if l, ok := m["ownerReferences"].([]any); ok {
		for _, r := range l {
			if rm, ok := r.(map[string]any); ok {
				om.ownerReferences = append(om.ownerReferences, ownerReference{
					APIVersion:         str(rm["apiVersion"]),
					Kind:               str(rm["kind"]),
					Name:               str(rm["name"]),
					UID:                str(rm["uid"]),
					Controller:         boolPtr(rm["controller"]),
					BlockOwnerDeletion: boolPtr(rm["blockOwnerDeletion"]),
				})
			}
		}
	}
	return om
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func boolPtr(v any) *bool {
	if b, ok := v.(bool); ok {
		return &b
	}
	return nil
}

// timestamp turns a metadata timestamp into a comparable value: nil when
// absent, a timeValue when it parses as RFC 3339, else the raw string.
func timestamp(v any) any {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return s
	}
	return timeValue{t}
}

func stringMap(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		if sm, ok := v.(map[string]string); ok {
			return sm
		}
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		if s, ok := e.(string); ok {
			out[k] = s
		}
	}
	return out
}
