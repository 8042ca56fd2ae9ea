// Package resource describes API resources: one struct per resource, for
// built-ins and for the resources CustomResourceDefinitions add.
package resource

import (
	"net/http"
	"net/url"
	"time"

	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// CRDRules is the CRD of a custom resource version with CEL rules, as the
// engine needs it (core/cel.CustomResourceRequest): its JSON as stored and
// a key that changes with every write of it (uid/resourceVersion), under
// which the engine keeps what it compiled.
type CRDRules struct {
	Key string
	CRD []byte
}

// Object is a decoded JSON object. Integers are int64, other numbers
// float64, as in Kubernetes' unstructured objects.
type Object = map[string]any

// Resource is everything the server knows about one group/version/resource.
type Resource struct {
	Group    string // "" for the core group
	Version  string
	Resource string // plural, lower case: "deployments"
	Singular string
	Kind     string
	ListKind string

	Namespaced bool
	ShortNames []string
	Categories []string
	Verbs      []string // discovery verbs; nil means the full set

	// Deprecation is the Warning every request for the resource gets, as
	// apiserver's deprecation.WarningMessage writes it from the type's
	// lifecycle ("" for none), e.g.
	// "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice".
	Deprecation string

	Status bool   // has a status subresource
	Scale  *Scale // has a scale subresource
	// Subresources are the kind's own subresources beyond status and
	// scale (a Pod's binding, log, exec ...), listed in discovery.
	Subresources []Subresource

	Schema *schema.Schema // nil: anything goes (no validation, no pruning) — unless LoadSchema
	// LoadSchema, when Schema is nil, gives the schema on first use: the
	// built-ins' catalogue is decoded by the first request that needs a
	// schema (a write, a protobuf body, OpenAPI), not before the first
	// answer (issue #16). It must be safe for concurrent calls and cheap
	// after the first. Read the schema with SchemaOf.
	LoadSchema     func() *schema.Schema
	PrinterColumns []PrinterColumn
	// TableMetadata, if set, gives the metadata of a Table row's
	// PartialObjectMetadata from the object's (a copy it may change): the
	// printers run on kube's internal types, whose conversion moves some
	// annotations into fields (a DaemonSet's template generation).
	TableMetadata    func(meta Object) Object
	SelectableFields []string // beyond metadata.name and metadata.namespace, e.g. "spec.nodeName"

	// CRD marks a custom resource (answers as custom resources do: no
	// strategic merge patch, PUT needs a resourceVersion, ...).
	CRD bool
	// Rules, for a custom resource version whose schema has CEL rules
	// (x-kubernetes-validations), is what the CEL engine evaluates them
	// from; nil otherwise (writes never call the engine).
	Rules *CRDRules
	// StorageVersion is the version objects are stored in, for CRDs with
	// several versions; "" means Version.
	StorageVersion string
	// EncodingVersion, if set, is the version kube-apiserver encodes a
	// built-in's objects in where it is not Version; discovery's
	// storageVersionHash is computed from it (CustomResourceDefinitions
	// are still encoded as apiextensions.k8s.io/v1beta1).
	EncodingVersion string
	// View, if set, makes the resource a view of another group's objects:
	// one stored object, two APIs (events.k8s.io/v1 Events are core/v1
	// Events in storage, as kube-apiserver's cohabiting resources are).
	View *View

	// ConditionalUpdate: a PUT must carry metadata.resourceVersion (the
	// strategy's AllowUnconditionalUpdate is false, as for custom
	// resources): 422 "must be specified for an update" otherwise
	// (ValidatingAdmissionPolicy and its binding).
	ConditionalUpdate bool

	// NoGeneration: objects carry no metadata.generation (ConfigMap,
	// Secret, Namespace, ...).
	NoGeneration bool
	// FixedGeneration: a new object gets metadata.generation 1 and no
	// update moves it (PriorityClass, whose strategy sets it on create
	// only).
	FixedGeneration bool
	// NoKindMetaChecks: the kind's validation (Hooks.Validate) checks no
	// metadata, unlike most strategies (ValidateObjectMeta(Update) first).
	// So, as rest.ValidateCreate does, a create gets the generic ObjectMeta
	// checks only when the kind found nothing (a PodDisruptionBudget with a
	// bad label and a bad spec gets the spec's causes only), and an update
	// gets ObjectMetaUpdate's causes once, from rest.BeforeUpdate, not twice.
	NoKindMetaChecks bool
	// ResetFields lists, per endpoint ("" the main resource, "status"),
	// further paths its writers never own because the kind's strategy
	// resets them (its GetResetFields beyond the status of a main write
	// and the spec and StatusKeeps of a status write). Example: a
	// CertificateSigningRequest's {"": {{"spec"}}, "status": {{"status",
	// "conditions"}}}: its creator owns no spec field.
	ResetFields map[string][][]string
	// DuplicateCauses: an invalid write reports a cause as often as
	// validation finds it. Other built-ins report each cause once: their
	// strategies run declarative validation, whose merge de-duplicates the
	// generic metadata checks and the kind's own (ErrorList.Filter), so a
	// bad label key in an update is one cause, not four. Custom resources
	// and CustomResourceDefinitions (apiextensions-apiserver) report it
	// three times.
	DuplicateCauses bool
	// StatusKeeps names the metadata fields a status write (a PUT, patch
	// or apply of /status) keeps as stored because the kind's status
	// strategy resets them (and its managedFields never own them); the
	// others come from the written object, less what every update keeps
	// (uid, generation, creation and deletion time stamps). Most kinds
	// reset the spec alone and keep none; a Deployment keeps
	// {"labels"}, a Pod {"deletionTimestamp", "ownerReferences"}, a kind
	// whose strategy calls metav1.ResetObjectMetaForStatus {"labels",
	// "annotations", "finalizers", "ownerReferences"}. {AllMetadata}
	// keeps all of it but managedFields and resourceVersion (custom
	// resources, whose status strategy copies the stored object).
	StatusKeeps []string
	// OrphanByDefault: a DELETE that names no propagation policy orphans
	// the dependents (the strategy's DefaultGarbageCollectionPolicy is
	// OrphanDependents: core/v1 ReplicationControllers, for backwards
	// compatibility), so it adds the "orphan" finalizer.
	OrphanByDefault bool
	// DeleteReturnsObject: a DELETE that removes an object answers with the
	// object (Pod, Namespace, Service), not with a Status.
	DeleteReturnsObject bool

	Hooks Hooks
}

// AllMetadata, as the one entry of Resource.StatusKeeps, keeps all of
// the stored metadata in a status write.
const AllMetadata = "*"

// View converts between a resource's objects and the objects stored
// under another group's keys (the same resource name). Example, an
// events.k8s.io/v1 Event {"note":"Pulled","regarding":{...}} is stored as
// the core/v1 Event {"message":"Pulled","involvedObject":{...}}.
type View struct {
	Group string // the storing group ("" for core)
	// ToStorage turns a written object (resourceVersion set) into the
	// stored one; FromStorage turns a stored one into the resource's.
	// Both return a new top-level map and may share the nested values.
	ToStorage, FromStorage func(Object) Object
}

// Scale describes where a scale subresource reads and writes.
type Scale struct {
	SpecReplicasPath   string // ".spec.replicas"
	StatusReplicasPath string // ".status.replicas"
	LabelSelectorPath  string // ".status.selector", may be empty
	// SelectorIsSet: the value at LabelSelectorPath is a label set
	// ({"app":"web"}, a ReplicationController's spec.selector), not a
	// LabelSelector; the Scale's selector is "app=web".
	SelectorIsSet bool
}

// Subresource is one of a kind's own subresources, answered by the kind:
// the server finds the stored object (404 if it is not there), checks the
// verb and hands the request to Serve. Example, a Pod's binding:
//
//	POST /api/v1/namespaces/default/pods/web/binding  {"kind":"Binding",...,"target":{"name":"sandbox-worker"}}
//	→ Serve(SubRequest{Verb: "create", Obj: <the pod>, Body: ...}) → 201 {"kind":"Status","status":"Success","code":201}
type Subresource struct {
	Name string // "binding"
	// Kind, Group and Version are the discovery facts of what the
	// subresource takes or answers ("Binding"; group and version "" are
	// the resource's).
	Kind, Group, Version string
	// Def names the OpenAPI definition of the body
	// ("io.k8s.api.policy.v1.Eviction"), "" if none: a protobuf or YAML
	// body is turned into JSON with it before Serve sees it, and answers
	// (of that type, or a Status) are protobuf when the client asks so.
	Def string
	// Verbs are the discovery verbs; a request with another verb answers
	// 405 MethodNotSupported. "create" is POST, "get" is GET.
	Verbs []string
	// Serve answers one request. Errors are answered as API errors.
	Serve func(r *SubRequest) (SubAnswer, error)
}

// SubRequest is one request for a Subresource.
type SubRequest struct {
	Verb   string // "create", "get", ...
	Sub    string // the subresource's name
	Now    string // the server's clock as a metadata timestamp
	Obj    Object // the stored object (a copy)
	Body   []byte
	Query  url.Values
	Header http.Header
	// Update changes the stored object as a registry's own storage update
	// does (GuaranteedUpdate: no validation, no managedFields): change
	// edits a copy of the current object; its error is the answer's. It
	// returns the object as stored.
	Update func(change func(obj Object) error) (Object, error)
	// Loopback sends a request to the server itself, as a registry's
	// loopback client does (user agent kube-apiserver, so managedFields
	// name manager "kube-apiserver"): e.g. the eviction's
	// PUT …/poddisruptionbudgets/NAME/status. body nil sends none; a non-2xx
	// answer is its Status as an error.
	Loopback func(method, path string, body Object) (Object, error)
}

// SubAnswer is a successful answer: Obj as JSON, or Text as text/plain.
type SubAnswer struct {
	Code int // http.StatusOK, http.StatusCreated
	Obj  Object
	Text []byte
}

// PrinterColumn is an additionalPrinterColumn / Table column.
type PrinterColumn struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int64
	JSONPath    string
	// Cell computes the cell when no JSONPath gives it (a pod's READY
	// 1/2, an AGE); it wins over JSONPath. now is the server's clock.
	Cell func(obj Object, now time.Time) any
}

// User is who a request is, as kube's user.Info, in the form of an
// authentication.k8s.io/v1 UserInfo, e.g.
//
//	{"username": "system:serviceaccount:default:builder", "uid": "…",
//	 "groups": ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
//	 "extra": {"authentication.kubernetes.io/credential-id": ["JTI=…"]}}
//
// A request without credentials is Anonymous(); a service account token
// the server issued authenticates as its service account.
type User = map[string]any

// Anonymous is the user of a request without credentials (a new map each
// time: callers may keep it in an object).
func Anonymous() User {
	return User{"username": "system:anonymous", "groups": []any{"system:unauthenticated"}}
}

// Hooks are the behaviour that differs between resources; the generic
// server (core/apiserver) calls them and knows no kind by name. Every hook
// may be nil. A create runs, in order:
//
//	Default ─▶ PrepareCreate ─▶ Name + Validate ─▶ managedFields ─▶ Allocate ─▶ store ─▶ Controller(Created)
//
// (managedFields record the object as it was before PrepareCreate, as the
// real field manager runs before the strategy and admission)
//
// an update (PUT, PATCH, apply, a status write):
//
//	PrepareUpdate ─▶ Default ─▶ mutating admission ─▶ generation / PrepareStatusUpdate ─▶ Name + Validate(obj, old) ─▶ store (or delete, unless Delete.Held) ─▶ Controller(Updated)
//
// (metadata.generation moves after mutating admission, as kube's
// PrepareForUpdate runs in the store after the handler admitted the object;
// a status write is checked with ValidateStatus where the kind has one)
//
// and a DELETE of an object that is not being deleted yet:
//
//	Delete.Begin ─▶ store the marked object (or remove it) ─▶ Controller(Updated, then Deleting or Deleted)
//
// For example, a Namespace's Delete.Begin marks it Terminating while
// spec.finalizers hold it, Delete.Held keeps it stored until they are gone, and
// its Controller empties it (Deleting) and then clears spec.finalizers,
// whereupon the update removes it.
type Hooks struct {
	// Default fills defaults into a new or updated object (after schema
	// defaulting).
	Default func(obj Object)
	// Validate checks an object about to be stored; old is nil on create.
	Validate func(obj, old Object) field.ErrorList
	// CEL returns what the server's CEL engine finds wrong in an object
	// being created (old nil) or updated — expressions that do not
	// compile —, after Validate and only when the server has an engine
	// (apiserver.Options.CEL); its causes join Validate's in the 422. An
	// error is the engine's own failure (500).
	CEL func(e cel.Engine, obj, old Object) (field.ErrorList, error)
	// Warnings are the strategy's WarningsOnCreate (old nil) and
	// WarningsOnUpdate for a write of the main resource that succeeded:
	// each text is sent as a `Warning: 299 - "text"` header.
	Warnings func(obj, old Object) []string
	// PrepareCreate and PrepareUpdate adjust an object before validation,
	// e.g. to set status on a new Namespace.
	PrepareCreate func(obj Object)
	PrepareUpdate func(obj, old Object)
	// PrepareStatusUpdate is the status strategy's PrepareForUpdate
	// beyond the status/main split, run on a /status write after mutating
	// admission; now is the server's clock as a metadata timestamp. E.g.
	// a PersistentVolume whose status.phase changes gets
	// status.lastPhaseTransitionTime: now.
	PrepareStatusUpdate func(obj, old Object, now string)
	// ValidateStatus, when set, checks a /status write instead of
	// Validate: the status strategy's ValidateUpdate (a Node's
	// ValidateNodeUpdate alone, where a write of the main resource also
	// runs ValidateNode).
	ValidateStatus func(obj, old Object) field.ErrorList
	// Requester records on a new object who creates it, right after
	// PrepareCreate, as a strategy reads the user from the request's
	// context (a CertificateSigningRequest's spec.username, uid, groups and
	// extra).
	Requester func(obj Object, user User)

	// Name checks metadata.name (with prefix, metadata.generateName) and
	// returns the problems (validation.NameFunc). Nil: a DNS subdomain,
	// the rule of most kinds and of every custom resource.
	Name func(name string, prefix bool) []string
	// Allocate assigns what the registry allocates on create, e.g. a
	// Service's cluster IP and node ports. It runs after validation and
	// after managedFields were written, so no field manager owns what it
	// sets, just before the store write (also on a dry run).
	Allocate func(obj Object)
	// Delete is how a DELETE treats the kind's objects.
	Delete DeleteHooks
	// Controller is the kind's controller, run in the server, in line with
	// the request: it hears of every committed write of an object of this
	// resource (never of a dry run) and may act through c, e.g. a
	// CustomResourceDefinition makes the server serve its versions. The
	// request is answered as kube-apiserver answers it whatever the
	// controller does (its controllers run apart from requests): an error
	// is logged, and the next write of the object or the next start tries
	// again.
	Controller func(c Cluster, ev Event) error
	// Answer makes the resource virtual, as the review APIs are: nothing
	// is stored, create is the only verb (other methods on the collection
	// answer 405, any path below it 404), and a create answers 201 with
	// what Answer returns for the decoded object, its managedFields
	// written (now: the server's clock as a metadata timestamp; user: who
	// asks, e.g. for a SelfSubjectReview). An error is the answer instead.
	Answer func(obj Object, now string, user User) (Object, error)
	// Computed makes the resource computed and read-only, as
	// componentstatuses are: nothing is stored, get and list answer the
	// objects it returns (found by metadata.name; controllers tells
	// whether the server runs its in-process controllers), watch answers
	// 405 "watch is not supported", a write 405 as a missing route does.
	Computed func(controllers bool) []Object
}

// DeleteHooks are a kind's rules for DELETE; every one may be nil.
type DeleteHooks struct {
	// Forbid reports why obj may not be deleted ("" allows it), as
	// admission would: a DELETE (after its preconditions) answers 403
	// Forbidden with that reason, e.g. the namespace "default".
	Forbid func(obj Object) string
	// GracePeriod makes a DELETE of an object not yet being deleted
	// graceful (the strategy's CheckGracefulDelete): it returns the grace
	// period in seconds for the requested one (nil: not given). The object
	// is then stored marked (deletionTimestamp now + period,
	// deletionGracePeriodSeconds, generation+1) and, when the period is 0
	// and no finalizer holds it, removed by a second write — a Pod no node
	// runs. Nil: the generic rule of Begin.
	GracePeriod func(obj Object, requested *int64) int64
	// Begin marks obj for deletion in the kind's own way when a
	// DELETE finds it not yet being deleted (after the preconditions) and
	// reports true; false leaves obj to the generic rule: removed at once
	// without finalizers, otherwise marked (deletionTimestamp,
	// deletionGracePeriodSeconds 0, generation+1). finalizers are
	// metadata.finalizers as the propagation policy asks for them; now is
	// the server's clock as a metadata timestamp. The marked object is
	// stored without update validation (deletion fields are immutable).
	Begin func(obj Object, finalizers []string, now string) bool
	// Held reports that something besides metadata.finalizers keeps obj,
	// which is being deleted, stored: an update that leaves it without
	// finalizers removes it only when Held is false (a Namespace's
	// spec.finalizers, the registry's ShouldDeleteNamespaceDuringUpdate).
	Held func(obj Object) bool
}

// EventType says what happened to the object of an Event.
type EventType int

// The events a Controller hears.
const (
	// Created: a create committed.
	Created EventType = iota + 1
	// Updated: a write to an existing object committed, or found nothing
	// to change (also the write that marks an object for deletion).
	Updated
	// Deleted: the object is gone; Obj is how it was last.
	Deleted
	// Deleting: a DELETE left the object stored, held by finalizers (sent
	// for every later DELETE too), a restored object is being deleted, or
	// content of a namespace being deleted went away: the controller
	// carries on with the clean-up.
	Deleting
	// Restored: the server restored the object from storage at start,
	// before any Deleting is sent.
	Restored
)

// Event is one thing that happened to one object.
type Event struct {
	Type EventType
	Obj  Object // as stored; read-only
}

// Cluster is what a Controller may ask of the server it runs in. Writes go
// through the server's own write path; a write to an object that is gone
// does nothing and succeeds.
type Cluster interface {
	// Now is the server's clock as a metadata timestamp.
	Now() string
	// Serve makes the server serve rs on behalf of owner (a CRD's name),
	// in place of whatever it served for owner before; nil stops serving.
	Serve(owner string, rs []*Resource)
	// Purge removes every stored object of the resources served for
	// owner, finalizers or not (the CRD clean-up's delete).
	Purge(owner string) error
	// EmptyNamespace deletes every object in namespace ns as a background
	// DELETE would — its Pods first, the rest only once no Pod is left, as
	// the namespace controller does — and reports what is still there.
	EmptyNamespace(ns string) NamespaceContent
	// Update edits the stored obj (same name and namespace, this
	// resource) through the update path: change edits a copy in place. A
	// non-empty manager records the change in managedFields as that
	// manager's (on subresource sub). A deleting object that the change
	// leaves without finalizers (and not Held) is removed.
	Update(obj Object, manager, sub string, change func(obj Object)) error
}

// NamespaceContent is what EmptyNamespace left: the number of objects
// still there by "resource.group" ("pods." for the core group, as the
// namespace controller names them) and by the finalizers holding them.
type NamespaceContent struct {
	Remaining  map[string]int
	Finalizers map[string]int
}

// Empty reports that nothing is left.
func (c NamespaceContent) Empty() bool { return len(c.Remaining) == 0 }

// SchemaOf is the resource's schema: Schema, or what LoadSchema gives.
func (r *Resource) SchemaOf() *schema.Schema {
	if r.Schema == nil && r.LoadSchema != nil {
		return r.LoadSchema()
	}
	return r.Schema
}

// GroupVersion is "v1" for the core group and "group/version" otherwise.
func (r *Resource) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}
