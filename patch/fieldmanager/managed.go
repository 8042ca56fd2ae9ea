package fieldmanager

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// Operations of a managedFields entry.
const (
	OperationApply  = "Apply"
	OperationUpdate = "Update"
)

// Entry is one metav1.ManagedFieldsEntry as it appears in
// metadata.managedFields.
type Entry struct {
	Manager     string
	Operation   string
	APIVersion  string
	Time        *time.Time // nil when the entry has no time
	FieldsType  string
	FieldsV1    any // the decoded fieldsV1 JSON value; nil when absent
	Subresource string
}

func (e Entry) isZero() bool {
	return e.Manager == "" && e.Operation == "" && e.APIVersion == "" && e.Time == nil &&
		e.FieldsType == "" && e.FieldsV1 == nil && e.Subresource == ""
}

// Managed is the decoded form of metadata.managedFields: each manager
// identifier's field set and time. An identifier is the JSON of the
// entry without fields, fieldsType and time (and without apiVersion for
// appliers), e.g. {"manager":"alice","operation":"Apply"}, exactly as the
// real server builds it.
type Managed struct {
	Fields fieldpath.ManagedFields
	Times  map[string]*time.Time
}

func emptyManaged() Managed {
	return Managed{Fields: fieldpath.ManagedFields{}, Times: map[string]*time.Time{}}
}

// idEntry fixes the JSON field order of a manager identifier, which is the
// order of metav1.ManagedFieldsEntry's fields.
type idEntry struct {
	Manager     string `json:"manager,omitempty"`
	Operation   string `json:"operation,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// buildManagerIdentifier is BuildManagerIdentifier of the real server.
func buildManagerIdentifier(manager, operation, apiVersion, subresource string) string {
	if operation == OperationApply {
		apiVersion = ""
	}
	b, _ := json.Marshal(idEntry{manager, operation, apiVersion, subresource}) // cannot fail: strings only
	return string(b)
}

func parseManagerIdentifier(id string) (idEntry, error) {
	var e idEntry
	err := json.Unmarshal([]byte(id), &e)
	return e, err
}

// managedFieldsOf reads metadata.managedFields the way the real
// Unstructured.GetManagedFields does: a missing list, a list that is not a
// list, or any entry that does not convert (not an object, a field of the
// wrong type, a time that is not RFC 3339) gives nil, as if absent. An
// empty list gives a non-nil empty slice.
func managedFieldsOf(obj map[string]any) []Entry {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		return nil
	}
	raw, ok := md["managedFields"].([]any)
	if !ok {
		return nil
	}
	out := make([]Entry, 0, len(raw))
	for _, item := range raw {
		m, ok := item.(map[string]any)
		if !ok {
			return nil
		}
		e, err := entryFromUnstructured(m)
		if err != nil {
			return nil
		}
		out = append(out, e)
	}
	return out
}

var errNotString = errors.New("expected a string")

func entryFromUnstructured(m map[string]any) (Entry, error) {
	var e Entry
	str := func(k string, dst *string) error {
		switch v := m[k].(type) {
		case nil:
			return nil
		case string:
			*dst = v
			return nil
		}
		return errNotString
	}
	for k, dst := range map[string]*string{"manager": &e.Manager, "operation": &e.Operation,
		"apiVersion": &e.APIVersion, "fieldsType": &e.FieldsType, "subresource": &e.Subresource} {
		if err := str(k, dst); err != nil {
			return e, err
		}
	}
	switch v := m["time"].(type) {
	case nil:
	case string:
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return e, err
		}
		e.Time = &t
	default:
		return e, errNotString
	}
	e.FieldsV1 = m["fieldsV1"]
	return e, nil
}

// isResetManagedFields: one entry that is entirely empty (`[{}]`) means
// "clear managedFields". With emptyListResets, so does an empty list (the
// real rule for typed built-in objects; for custom resources an empty list
// never reaches the field manager, because their ObjectMeta round trip
// drops it).
func isResetManagedFields(entries []Entry, emptyListResets bool) bool {
	if len(entries) == 0 {
		return entries != nil && emptyListResets
	}
	return len(entries) == 1 && entries[0].isZero()
}

// DecodeManagedFields decodes obj's metadata.managedFields. It fails with
// the real server's messages on entries it cannot use, e.g.
// "operation must be `Apply` or `Update`" or
// "missing fieldsType in managed fields entry 0". A missing or malformed
// list decodes to an empty Managed.
func DecodeManagedFields(obj map[string]any) (Managed, error) {
	return decodeEntries(managedFieldsOf(obj))
}

func decodeEntries(entries []Entry) (Managed, error) {
	m := Managed{Fields: make(fieldpath.ManagedFields, len(entries)), Times: make(map[string]*time.Time, len(entries))}
	for i, e := range entries {
		switch e.Operation {
		case OperationApply, OperationUpdate:
		default:
			return Managed{}, errors.New("operation must be `Apply` or `Update`")
		}
		if e.APIVersion == "" {
			return Managed{}, errors.New("apiVersion must not be empty")
		}
		switch e.FieldsType {
		case "FieldsV1":
		case "":
			return Managed{}, fmt.Errorf("missing fieldsType in managed fields entry %d", i)
		default:
			return Managed{}, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.FieldsType, i)
		}
		id := buildManagerIdentifier(e.Manager, e.Operation, e.APIVersion, e.Subresource)
		set, err := fieldsToSet(e.FieldsV1)
		if err != nil {
			return Managed{}, fmt.Errorf("error decoding versioned set from %v: error decoding set: %v", e.describe(), err)
		}
		m.Fields[id] = fieldpath.NewVersionedSet(set, fieldpath.APIVersion(e.APIVersion), e.Operation == OperationApply)
		m.Times[id] = e.Time
	}
	return m, nil
}

// describe approximates Go's %v of a metav1.ManagedFieldsEntry.
func (e Entry) describe() string {
	t := "<nil>"
	if e.Time != nil {
		t = e.Time.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("{%s %s %s %s %s %v %s}", e.Manager, e.Operation, e.APIVersion, t, e.FieldsType, e.FieldsV1, e.Subresource)
}

func fieldsToSet(v any) (*fieldpath.Set, error) {
	raw := []byte("{}")
	if v != nil {
		b, err := jsonx.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	s := fieldpath.NewSet()
	if err := s.FromJSON(bytes.NewReader(raw)); err != nil {
		return nil, err
	}
	return s, nil
}

// encodeManaged renders m as the metadata.managedFields list (nil when m
// has no managers), sorted as the real server sorts it: by operation, by
// time in whole seconds, then by manager, apiVersion and subresource.
func encodeManaged(m Managed) ([]any, error) {
	if len(m.Fields) == 0 {
		return nil, nil
	}
	entries := make([]Entry, 0, len(m.Fields))
	for id, vs := range m.Fields {
		idE, err := parseManagerIdentifier(id)
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: error unmarshalling manager identifier %v: %v", id, id, err)
		}
		e := Entry{Manager: idE.Manager, Operation: idE.Operation, Subresource: idE.Subresource,
			APIVersion: string(vs.APIVersion()), FieldsType: "FieldsV1"}
		if vs.Applied() {
			e.Operation = OperationApply
		}
		raw, err := vs.Set().ToJSON()
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: error encoding set: %v", id, err)
		}
		if e.FieldsV1, err = jsonx.Decode(raw); err != nil {
			return nil, err
		}
		if t, ok := m.Times[id]; ok {
			e.Time = t
		}
		entries = append(entries, e)
	}
	sortEntries(entries)
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.toUnstructured())
	}
	return out, nil
}

func seconds(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

func sortEntries(entries []Entry) {
	sort.SliceStable(entries, func(i, j int) bool {
		p, q := entries[i], entries[j]
		if p.Operation != q.Operation {
			return p.Operation < q.Operation
		}
		if ps, qs := seconds(p.Time), seconds(q.Time); ps != qs {
			return ps < qs
		}
		if p.Manager != q.Manager {
			return p.Manager < q.Manager
		}
		if p.APIVersion != q.APIVersion {
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
}

func (e Entry) toUnstructured() map[string]any {
	m := map[string]any{}
	if e.Manager != "" {
		m["manager"] = e.Manager
	}
	if e.Operation != "" {
		m["operation"] = e.Operation
	}
	if e.APIVersion != "" {
		m["apiVersion"] = e.APIVersion
	}
	if e.Time != nil {
		if e.Time.IsZero() {
			m["time"] = nil
		} else {
			m["time"] = e.Time.UTC().Format(time.RFC3339)
		}
	}
	if e.FieldsType != "" {
		m["fieldsType"] = e.FieldsType
	}
	if e.FieldsV1 != nil {
		m["fieldsV1"] = e.FieldsV1
	}
	if e.Subresource != "" {
		m["subresource"] = e.Subresource
	}
	return m
}

// setManagedFields stores list (nil removes the field) in obj's metadata,
// copying the metadata map so that the caller's maps are left alone.
func setManagedFields(obj map[string]any, list []any) {
	md, _ := obj["metadata"].(map[string]any)
	nmd := make(map[string]any, len(md)+1)
	for k, v := range md {
		nmd[k] = v
	}
	if list == nil {
		delete(nmd, "managedFields")
		if md == nil {
			return
		}
	} else {
		nmd["managedFields"] = list
	}
	obj["metadata"] = nmd
}
