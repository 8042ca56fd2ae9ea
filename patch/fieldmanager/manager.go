// Package fieldmanager maintains metadata.managedFields and performs
// server-side apply, as the real kube-apiserver does with
// k8s.io/apimachinery/pkg/util/managedfields on top of
// sigs.k8s.io/structured-merge-diff (SMD). This package ports that layer
// onto SMD directly, since the shipped module imports no k8s.io code.
//
// The real field manager is a stack of wrappers; here they are plain
// functions called in the same order:
//
//	FieldManager      decode live/request managedFields, encode the result
//	versionCheck      Apply only: the applied object's GVK must match
//	lastApplied*      Apply by manager "kubectl": client-side apply interop
//	skipNonApplied    Update of an object without managedFields: don't start
//	                  tracking; Apply: first attribute the existing fields
//	                  to "before-first-apply"
//	capManagers       at most 10 Update entries, the oldest merged into
//	                  "ancient-changes"
//	buildManagerInfo  manager name → identifier (manager, operation,
//	                  apiVersion for updaters, subresource)
//	managedFieldsUpdater  merge an updater's new fields into its entry and
//	                  stamp the time only when something changed
//	stripMeta         never own apiVersion, kind, metadata.name, ...
//	structuredMerge   SMD: compute ownership, merge applied configurations
//
// # Contract for callers
//
// Update is for every write that is not an apply: create (live nil),
// update (PUT), JSON/merge/strategic patches (live = the stored object,
// obj = the patched object). obj must be the object as it will be
// persisted from the client's point of view: decoded, patched and
// defaulted, before the strategy resets fields (the reset fields of the
// subresource are excluded from ownership here instead). Update never
// fails the request: on an internal error it keeps the live managedFields
// and also returns the error for logging.
//
// Apply is for application/apply-patch+yaml: live is the stored object
// (nil to create), applied the parsed body (ParseApplyBody). It returns
// the merged object, defaulted with Options.Defaulter, with its
// managedFields, or an error: a *ConflictError (patch.ToAPIError maps it
// to 409), or an API error to send as is (bad requests → 400, other
// failures → 500 without a reason, like the real server). The result then
// goes through the usual update path (strategy, validation, storage) but
// not through Update again.
//
// Dry-run needs nothing special: the caller simply does not persist.
package fieldmanager

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

const (
	// DefaultMaxUpdateManagers is the cap on Update entries.
	DefaultMaxUpdateManagers = 10
	ancientChanges           = "ancient-changes"
	beforeFirstApply         = "before-first-apply"
	currentOperation         = "current-operation"
)

// Options configure a Manager for one resource version.
type Options struct {
	GroupVersion string         // e.g. "example.com/v1" or "v1"
	Kind         string         // e.g. "Widget"
	Schema       *schema.Schema // the object schema; nil = deduced (schemaless)
	// ResetFields lists, per subresource ("" is the main resource), the
	// paths the strategy resets on that endpoint and that its writers
	// therefore never own. Custom resources with a status subresource:
	//	{"": {{"status"}}, "status": {{"spec"}}}
	ResetFields map[string][][]string
	// Defaulter fills schema defaults into the merged object of an apply
	// (the real server defaults after merging). Optional.
	Defaulter func(obj map[string]any)
	// EmptyListResets makes `managedFields: []` in an Update clear the
	// managedFields, as it does for built-in types. For custom resources
	// leave it false: their ObjectMeta round trip drops the empty list, so
	// the live managedFields are kept.
	EmptyListResets bool
	// MaxUpdateManagers defaults to DefaultMaxUpdateManagers.
	MaxUpdateManagers int
	// Zero returns a fresh typed zero object of the kind, the "live"
	// object a create is compared with, as the real server compares with
	// the typed zero value: for built-in kinds builtin.ZeroObject(kind),
	// e.g. {"metadata":{},"spec":{"containers":null},"status":{}} for a
	// Pod, so that creating a Pod does not own "f:spec": {".": {}}.
	// Optional; nil means just apiVersion and kind (as for custom
	// resources, whose zero is an empty Unstructured).
	Zero func() map[string]any
}

// Manager maintains managedFields of one resource version.
type Manager struct {
	opts    Options
	typ     typed.ParseableType
	version fieldpath.APIVersion
}

// New converts the schema and returns a Manager.
func New(o Options) (*Manager, error) {
	t, err := ParseableType(o.Schema)
	if err != nil {
		return nil, err
	}
	if o.MaxUpdateManagers <= 0 {
		o.MaxUpdateManagers = DefaultMaxUpdateManagers
	}
	return &Manager{opts: o, typ: t, version: fieldpath.APIVersion(o.GroupVersion)}, nil
}

// identityConverter serves every version with the same schema, as the
// CRD conversion strategy None does.
type identityConverter struct{}

func (identityConverter) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (identityConverter) IsMissingVersionError(error) bool { return false }

func (m *Manager) updater(subresource string) *merge.Updater {
	var set *fieldpath.Set
	for _, p := range m.opts.ResetFields[subresource] {
		parts := make([]any, len(p))
		for i, s := range p {
			parts[i] = s
		}
		path, err := fieldpath.MakePath(parts...)
		if err != nil {
			continue
		}
		if set == nil {
			set = fieldpath.NewSet()
		}
		set.Insert(path)
	}
	u := &merge.Updater{Converter: identityConverter{}}
	if set != nil {
		u.IgnoredFields = map[fieldpath.APIVersion]*fieldpath.Set{m.version: set}
	}
	return u
}

// stripSet is what no manager ever owns; built on first use, not at init
// (under WebAssembly, building it at init compiled fieldpath's path and set
// code on every start: docs/bench.md "Start-up: nothing compiled that the
// first answer does not run").
var stripSet = sync.OnceValue(func() *fieldpath.Set {
	return fieldpath.NewSet(
		fieldpath.MakePathOrDie("apiVersion"),
		fieldpath.MakePathOrDie("kind"),
		fieldpath.MakePathOrDie("metadata"),
		fieldpath.MakePathOrDie("metadata", "name"),
		fieldpath.MakePathOrDie("metadata", "namespace"),
		fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
		fieldpath.MakePathOrDie("metadata", "selfLink"),
		fieldpath.MakePathOrDie("metadata", "uid"),
		fieldpath.MakePathOrDie("metadata", "clusterName"),
		fieldpath.MakePathOrDie("metadata", "generation"),
		fieldpath.MakePathOrDie("metadata", "managedFields"),
		fieldpath.MakePathOrDie("metadata", "resourceVersion"),
	)
})

func stripFields(mf fieldpath.ManagedFields, id string) {
	vs, ok := mf[id]
	if !ok || vs == nil {
		return
	}
	s := vs.Set().Difference(stripSet())
	if s.Empty() {
		delete(mf, id)
		return
	}
	mf[id] = fieldpath.NewVersionedSet(s, vs.APIVersion(), vs.Applied())
}

// ---- Update ----

// Update records the write of obj by manager (operation Update) and
// returns obj with its new metadata.managedFields. Only obj's top level and
// metadata maps are copied; the rest is shared with obj.
func (m *Manager) Update(live, obj map[string]any, manager, subresource string, now time.Time) (result map[string]any, err error) {
	out := make(map[string]any, len(obj)+1)
	for k, v := range obj {
		out[k] = v
	}
	if live == nil {
		live = m.newObject()
	}
	defer func() {
		// Never let a panic in SMD reach the user: keep the live entries.
		if r := recover(); r != nil {
			setManagedFields(out, rawEntries(managedFieldsOf(live)))
			result, err = out, fmt.Errorf("failed to update managedFields: %v", r)
		}
	}()
	managed := m.decodeLiveOrNew(live, obj, subresource != "")
	setManagedFields(out, nil)
	managed, err = m.skipNonAppliedUpdate(live, out, managed, manager, subresource, now)
	if err == nil {
		var list []any
		if list, err = encodeManaged(managed); err == nil {
			setManagedFields(out, list)
			return out, nil
		}
		err = fmt.Errorf("failed to encode managed fields: %v", err)
	}
	// UpdateNoErrors: keep the live managedFields rather than losing them.
	setManagedFields(out, rawEntries(managedFieldsOf(live)))
	return out, err
}

func rawEntries(entries []Entry) []any {
	if entries == nil {
		return nil
	}
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.toUnstructured())
	}
	return out
}

func (m *Manager) newObject() map[string]any {
	var obj map[string]any
	if m.opts.Zero != nil {
		obj = m.opts.Zero()
	}
	if obj == nil {
		obj = map[string]any{}
	}
	obj["apiVersion"], obj["kind"] = m.opts.GroupVersion, m.opts.Kind
	return obj
}

// decodeLiveOrNew picks the managedFields to start from: the request's
// when it carries usable ones (a client may edit them), `[{}]` to reset,
// else the live object's. Subresource writes always use the live ones.
func (m *Manager) decodeLiveOrNew(live, obj map[string]any, ignoreRequest bool) Managed {
	liveManaged := func() Managed {
		mg, err := decodeEntries(managedFieldsOf(live))
		if err != nil {
			return emptyManaged()
		}
		return mg
	}
	if ignoreRequest {
		return liveManaged()
	}
	entries := managedFieldsOf(obj)
	if isResetManagedFields(entries, m.opts.EmptyListResets) {
		return emptyManaged()
	}
	mg, err := decodeEntries(entries)
	if err != nil || len(mg.Fields) == 0 {
		return liveManaged()
	}
	return mg
}

func uidOf(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	s, _ := md["uid"].(string)
	return s
}

func (m *Manager) skipNonAppliedUpdate(live, obj map[string]any, managed Managed, manager, sub string, now time.Time) (Managed, error) {
	// An existing object without managedFields stays untracked until
	// someone applies; a new object is always tracked.
	if len(managed.Fields) == 0 && uidOf(live) != "" {
		return managed, nil
	}
	return m.capUpdate(live, obj, managed, manager, sub, now)
}

func (m *Manager) capUpdate(live, obj map[string]any, managed Managed, manager, sub string, now time.Time) (Managed, error) {
	managed, err := m.managedFieldsUpdate(live, obj, managed, manager, sub, now)
	if err != nil {
		return managed, err
	}
	return m.capUpdateManagers(managed)
}

func orUnknown(manager string) string {
	if manager == "" {
		return "unknown"
	}
	return manager
}

// managedFieldsUpdate is buildManagerInfo + managedFieldsUpdater: SMD
// computes the fields of a stand-in manager; if it took any, they join the
// manager's entry and the entry's time becomes now.
func (m *Manager) managedFieldsUpdate(live, obj map[string]any, managed Managed, manager, sub string, now time.Time) (Managed, error) {
	id := buildManagerIdentifier(orUnknown(manager), OperationUpdate, m.opts.GroupVersion, sub)
	managed, err := m.structuredUpdate(live, obj, managed, currentOperation, sub)
	if err != nil {
		return managed, err
	}
	if vs, ok := managed.Fields[currentOperation]; ok {
		delete(managed.Fields, currentOperation)
		if prev, ok := managed.Fields[id]; ok {
			managed.Fields[id] = fieldpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managed.Fields[id] = vs
		}
		t := now.UTC()
		managed.Times[id] = &t
	}
	return managed, nil
}

func (m *Manager) structuredUpdate(live, obj map[string]any, managed Managed, id, sub string) (Managed, error) {
	// an update may hold duplicates in a set (two equal finalizers), as
	// the real structuredManager.Update allows
	newTyped, err := m.typ.FromUnstructured(obj, typed.AllowDuplicates)
	if err != nil {
		return managed, fmt.Errorf("failed to convert new object (%v) to smd typed: %v", m.gvknn(obj), err)
	}
	liveTyped, err := m.typ.FromUnstructured(live, typed.AllowDuplicates)
	if err != nil {
		return managed, fmt.Errorf("failed to convert live object (%v) to smd typed: %v", m.gvknn(live), err)
	}
	_, fields, err := m.updater(sub).Update(liveTyped, newTyped, m.version, managed.Fields, id)
	if err != nil {
		return managed, fmt.Errorf("failed to update ManagedFields (%v): %v", m.gvknn(obj), err)
	}
	managed = Managed{Fields: fields, Times: managed.Times}
	stripFields(managed.Fields, id)
	return managed, nil
}

// capUpdateManagers merges the oldest Update entries into per-version
// "ancient-changes" buckets until at most MaxUpdateManagers remain.
func (m *Manager) capUpdateManagers(managed Managed) (Managed, error) {
	var updaters []string
	for id, vs := range managed.Fields {
		if !vs.Applied() {
			updaters = append(updaters, id)
		}
	}
	if len(updaters) <= m.opts.MaxUpdateManagers {
		return managed, nil
	}
	sort.Slice(updaters, func(i, j int) bool {
		si, sj := seconds(managed.Times[updaters[i]]), seconds(managed.Times[updaters[j]])
		if si != sj {
			return si < sj
		}
		return updaters[i] < updaters[j]
	})
	firstOfVersion := map[string]string{}
	for i, length := 0, len(updaters); i < len(updaters) && length > m.opts.MaxUpdateManagers; i++ {
		id := updaters[i]
		vs := managed.Fields[id]
		t := managed.Times[id]
		version := string(vs.APIVersion())
		bucket := buildManagerIdentifier(ancientChanges, OperationUpdate, version, "")
		first, seen := firstOfVersion[version]
		if !seen {
			firstOfVersion[version] = id
			continue
		}
		if _, ok := managed.Fields[bucket]; !ok {
			managed.Fields[bucket] = managed.Fields[first]
			delete(managed.Fields, first)
		}
		managed.Fields[bucket] = fieldpath.NewVersionedSet(vs.Set().Union(managed.Fields[bucket].Set()), vs.APIVersion(), vs.Applied())
		delete(managed.Fields, id)
		length--
		managed.Times[bucket] = t
	}
	return managed, nil
}

// ---- helpers shared with Apply ----

// gvknn formats "namespace/name; group/version, Kind=kind" for messages.
func (m *Manager) gvknn(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return fmt.Sprintf("%v/%v; %v", ns, name, gvkOf(obj))
}

type gvk struct{ group, version, kind string }

func (g gvk) String() string { return g.group + "/" + g.version + ", Kind=" + g.kind }

func (g gvk) groupVersion() string {
	if g.group == "" {
		return g.version
	}
	return g.group + "/" + g.version
}

// gvkOf is schema.FromAPIVersionAndKind over the object's fields.
func gvkOf(obj map[string]any) gvk {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return parseGVK(av, kind)
}

func parseGVK(apiVersion, kind string) gvk {
	if apiVersion == "" || apiVersion == "/" {
		return gvk{kind: kind}
	}
	switch strings.Count(apiVersion, "/") {
	case 0:
		return gvk{version: apiVersion, kind: kind}
	case 1:
		i := strings.Index(apiVersion, "/")
		return gvk{group: apiVersion[:i], version: apiVersion[i+1:], kind: kind}
	}
	return gvk{kind: kind}
}

// unknownError is how the real server answers a plain (non-Status) error:
// 500, no reason, the error text as message.
func unknownError(err error) *apierr.Error {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae
	}
	return apierr.Unknown(err.Error())
}

func copyManaged(mg Managed) Managed {
	out := Managed{Fields: mg.Fields.Copy(), Times: make(map[string]*time.Time, len(mg.Times))}
	for k, v := range mg.Times {
		out.Times[k] = v
	}
	return out
}

func deepCopyWithoutManagedFields(obj map[string]any) map[string]any {
	out := jsonx.CopyObject(obj)
	if md, ok := out["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return out
}
