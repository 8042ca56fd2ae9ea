package fieldmanager

import (
	"errors"
	"fmt"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

// Apply performs server-side apply of the configuration applied by
// manager onto live (nil when the object does not exist yet) and returns
// the new object with its managedFields. Errors are a *ConflictError
// (unless force; a 409 through patch.ToAPIError) or API errors, as the
// real server answers: 400 for a wrong apiVersion/kind or managedFields in
// the configuration, and 500 without reason for configurations that do
// not fit the schema (e.g. ".spec.foo: field not declared in schema").
//
// When the apply changes nothing but managedFields, the result is the live
// object with new managedFields; when it changes nothing at all, the
// result equals live (compare to skip the write and keep resourceVersion).
func (m *Manager) Apply(live, applied map[string]any, manager, subresource string, force bool, now time.Time) (out map[string]any, err error) {
	defer func() {
		// SMD is a large library; a panic inside it must not kill the
		// program (in WebAssembly it would end every later request too).
		if r := recover(); r != nil {
			out, err = nil, unknownError(fmt.Errorf("apply failed: %v", r))
		}
	}()
	if live == nil {
		live = m.newObject()
	}
	managed, err := decodeEntries(managedFieldsOf(live))
	if err != nil {
		return nil, unknownError(fmt.Errorf("failed to decode managed fields: %v", err))
	}
	if g, want := gvkOf(applied), parseGVK(m.opts.GroupVersion, m.opts.Kind); g != want {
		return nil, apierr.BadRequest(fmt.Sprintf("invalid object type: %v", g))
	}
	obj, managed, err := m.lastAppliedUpdaterApply(live, applied, managed, manager, subresource, force, now)
	if err != nil {
		var cs merge.Conflicts
		if errors.As(err, &cs) {
			return nil, newConflictError(cs)
		}
		return nil, unknownError(err)
	}
	list, err := encodeManaged(managed)
	if err != nil {
		return nil, unknownError(fmt.Errorf("failed to encode managed fields: %v", err))
	}
	setManagedFields(obj, list)
	return obj, nil
}

// lastAppliedUpdaterApply keeps kubectl's client-side apply annotation in
// step with server-side applies by kubectl, when the object has one.
func (m *Manager) lastAppliedUpdaterApply(live, applied map[string]any, managed Managed, manager, sub string, force bool, now time.Time) (map[string]any, Managed, error) {
	obj, managed, err := m.lastAppliedManagerApply(live, applied, managed, manager, sub, force, now)
	if err != nil {
		return obj, managed, err
	}
	if manager == "kubectl" && hasLastApplied(obj) {
		v, err := buildLastApplied(applied)
		if err != nil {
			return nil, managed, fmt.Errorf("failed to build last-applied annotation: %v", err)
		}
		setLastApplied(obj, v)
	}
	return obj, managed, nil
}

// lastAppliedManagerApply lets kubectl take over, without conflicts, the
// fields it last applied client-side (they match the annotation and the
// live object).
func (m *Manager) lastAppliedManagerApply(live, applied map[string]any, managed Managed, manager, sub string, force bool, now time.Time) (map[string]any, Managed, error) {
	obj, newManaged, err := m.skipNonAppliedApply(live, applied, copyManaged(managed), manager, sub, force, now)
	if manager != "kubectl" || err == nil {
		return obj, newManaged, err
	}
	var conflicts merge.Conflicts
	if !errors.As(err, &conflicts) {
		return obj, newManaged, err
	}
	allowed, aerr := m.allowedConflictsFromLastApplied(live)
	if aerr != nil {
		return obj, newManaged, err
	}
	set := conflicts.ToSet()
	if !set.Difference(allowed).Empty() {
		var rest merge.Conflicts
		for _, c := range conflicts {
			if !allowed.Has(c.Path) {
				rest = append(rest, c)
			}
		}
		return obj, newManaged, rest
	}
	return m.skipNonAppliedApply(live, applied, copyManaged(managed), manager, sub, true, now)
}

func (m *Manager) skipNonAppliedApply(live, applied map[string]any, managed Managed, manager, sub string, force bool, now time.Time) (map[string]any, Managed, error) {
	if len(managed.Fields) == 0 {
		// Attribute what already exists to "before-first-apply", so that
		// the first applier conflicts with it instead of silently owning.
		// Like the real objectCreater.New, start from the typed zero
		// object: an apply that creates (live is that zero too) then
		// attributes nothing.
		empty := m.newObject()
		empty["apiVersion"], empty["kind"] = applied["apiVersion"], applied["kind"]
		var err error
		managed, err = m.capUpdate(empty, live, managed, beforeFirstApply, sub, now)
		if err != nil {
			return nil, managed, fmt.Errorf("failed to create manager for existing fields: %v", err)
		}
	}
	return m.managedFieldsApply(live, applied, managed, manager, sub, force, now)
}

// managedFieldsApply is buildManagerInfo + managedFieldsUpdater + stripMeta
// around the structured merge.
func (m *Manager) managedFieldsApply(live, applied map[string]any, managed Managed, manager, sub string, force bool, now time.Time) (map[string]any, Managed, error) {
	id := buildManagerIdentifier(orUnknown(manager), OperationApply, m.opts.GroupVersion, sub)
	obj, managed, err := m.structuredApply(live, applied, managed, id, sub, force)
	if err != nil {
		return nil, managed, err
	}
	stripFields(managed.Fields, id)
	if obj != nil {
		t := now.UTC()
		managed.Times[id] = &t
	} else {
		obj = deepCopyWithoutManagedFields(live)
	}
	return obj, managed, nil
}

func (m *Manager) structuredApply(live, applied map[string]any, managed Managed, id, sub string, force bool) (map[string]any, Managed, error) {
	if pv := gvkOf(applied).groupVersion(); pv != parseGVK(m.opts.GroupVersion, "").groupVersion() {
		return nil, managed, apierr.BadRequest(fmt.Sprintf("Incorrect version specified in apply patch. "+
			"Specified patch version: %s, expected: %s", pv, parseGVK(m.opts.GroupVersion, "").groupVersion()))
	}
	if managedFieldsOf(applied) != nil {
		return nil, managed, apierr.BadRequest("metadata.managedFields must be nil")
	}
	patchTyped, err := m.typ.FromUnstructured(applied)
	if err != nil {
		return nil, managed, fmt.Errorf("failed to create typed patch object (%v): %v", m.gvknn(applied), err)
	}
	liveTyped, err := m.typ.FromUnstructured(live, typed.AllowDuplicates)
	if err != nil {
		return nil, managed, fmt.Errorf("failed to create typed live object (%v): %v", m.gvknn(live), err)
	}
	newTyped, fields, err := m.updater(sub).Apply(liveTyped, patchTyped, m.version, managed.Fields, id, force)
	if err != nil {
		return nil, managed, err
	}
	managed = Managed{Fields: fields, Times: managed.Times}
	if newTyped == nil {
		return nil, managed, nil
	}
	u, ok := newTyped.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, managed, fmt.Errorf("failed to convert new typed object (%v) to object: failed to convert value to unstructured for type %T",
			m.gvknn(applied), newTyped.AsValue().Unstructured())
	}
	obj := jsonx.CopyObject(u)
	if m.opts.Defaulter != nil {
		m.opts.Defaulter(obj)
	}
	return obj, managed, nil
}

// ---- last-applied-configuration (kubectl client-side apply interop) ----

// LastAppliedConfigAnnotation is kubectl's client-side apply annotation.
const LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// totalAnnotationSizeLimit is the limit on all annotations of an object.
const totalAnnotationSizeLimit = 256 * (1 << 10)

func annotationsOf(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	a, _ := md["annotations"].(map[string]any)
	return a
}

func hasLastApplied(obj map[string]any) bool {
	s, _ := annotationsOf(obj)[LastAppliedConfigAnnotation].(string)
	return s != ""
}

// buildLastApplied encodes the applied configuration without the
// annotation itself, as json.Encoder does (sorted keys, HTML escaped,
// trailing newline).
func buildLastApplied(applied map[string]any) (string, error) {
	obj := jsonx.CopyObject(applied)
	if md, ok := obj["metadata"].(map[string]any); ok {
		if a, ok := md["annotations"].(map[string]any); ok {
			delete(a, LastAppliedConfigAnnotation)
		}
	}
	b, err := encodeHTMLEscaped(obj)
	if err != nil {
		return "", fmt.Errorf("couldn't encode object into last applied annotation: %v", err)
	}
	return string(b), nil
}

func setLastApplied(obj map[string]any, value string) {
	md, ok := obj["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		obj["metadata"] = md
	}
	a, ok := md["annotations"].(map[string]any)
	if !ok {
		a = map[string]any{}
	}
	size := 0
	for k, v := range a {
		s, _ := v.(string)
		if k != LastAppliedConfigAnnotation {
			size += len(k) + len(s)
		}
	}
	a[LastAppliedConfigAnnotation] = value
	if size+len(LastAppliedConfigAnnotation)+len(value) > totalAnnotationSizeLimit {
		delete(a, LastAppliedConfigAnnotation)
	}
	md["annotations"] = a
}

// allowedConflictsFromLastApplied: the fields of the last-applied
// configuration that still hold the same values in the live object.
func (m *Manager) allowedConflictsFromLastApplied(live map[string]any) (*fieldpath.Set, error) {
	last, _ := annotationsOf(live)[LastAppliedConfigAnnotation].(string)
	if last == "" {
		return nil, errors.New("no last applied annotation")
	}
	liveTyped, err := m.typ.FromUnstructured(live)
	if err != nil {
		return nil, err
	}
	lastObj, err := jsonx.DecodeObject([]byte(last))
	if err != nil {
		return nil, err
	}
	if av, _ := lastObj["apiVersion"].(string); av != m.opts.GroupVersion {
		return nil, fmt.Errorf("expected version of last applied to match live object '%s', but got '%s'", m.opts.GroupVersion, av)
	}
	lastTyped, err := m.typ.FromUnstructured(lastObj)
	if err != nil {
		return nil, err
	}
	set, err := lastTyped.ToFieldSet()
	if err != nil {
		return nil, err
	}
	cmp, err := lastTyped.Compare(liveTyped)
	if err != nil {
		return nil, err
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed), nil
}
