package resource

// AdmissionPlugin is one of kube-apiserver's admission plugins that read
// other objects (LimitRanger reads LimitRanges, Priority PriorityClasses),
// run by the server on every write as kube's admission chain runs them, in
// the order the plugins are given (core/builtin.Admission). A plugin
// decides for itself which writes concern it (kube's plugins switch on
// the request's resource too); the server knows none by name.
//
// Reads names the resources the plugin looks up: before a write the
// server gathers them (from a cache its store's commit hook keeps
// current, as kube's plugins read informers) and hands them to the
// plugin as Attributes.Objects — a snapshot taken before the store's
// write lock, so a plugin never reads the store itself. Example, the
// Priority plugin on a Pod naming a class that does not exist:
//
//	POST /api/v1/namespaces/default/pods  {"spec": {"priorityClassName": "gold", …}}
//	→ Admit(a): a.Objects.Get("scheduling.k8s.io", "priorityclasses", "", "gold") == nil
//	→ 403 pods "web" is forbidden: no PriorityClass with name gold was found
type AdmissionPlugin struct {
	Name  string
	Reads []GroupResource
	// Admit is the plugin's mutating half (kube's MutationInterface): it
	// may change a.Obj. It runs after defaulting and the field manager,
	// before the kind's PrepareCreate/validation, on create and update.
	Admit func(a *Attributes) error
	// Validate is the validating half: after the kind's validation,
	// before the store write (dry runs too), on create and update.
	Validate func(a *Attributes) error
	// Last: Validate runs after the ValidatingAdmissionPolicy step, as
	// kube's chain ends with ResourceQuota.
	Last bool
}

// GroupResource names a resource: {"scheduling.k8s.io", "priorityclasses"};
// Group "" is the core group.
type GroupResource struct{ Group, Resource string }

// Attributes are one write as an admission plugin sees it (kube's
// admission.Attributes).
type Attributes struct {
	Operation   string // "CREATE" or "UPDATE"
	Group       string // of the resource written
	Resource    string // "pods"
	Subresource string // "" or "status", "scale" ...
	Namespace   string
	Name        string // "" for a create with generateName
	Obj, Old    Object // Old is nil on create
	DryRun      bool
	// Objects are the stored objects of the plugin's Reads.
	Objects Lookup
	// Now is the server's clock as a metadata timestamp.
	Now string
	// UpdateStatus writes the status of another stored object as
	// kube-apiserver's loopback client does (manager "kube-apiserver",
	// subresource status): change edits a copy of the object as stored
	// now; its error cancels the write and is the admission's answer. On
	// a create it writes at once; on an update, whose admission runs
	// inside the store's write lock, once the update is stored (its
	// error then only logged). A dry run writes nothing.
	UpdateStatus func(group, resource, namespace, name string, change func(obj Object) error) error
}

// Lookup reads stored objects, read-only: what it returns is shared and
// must not be changed.
type Lookup interface {
	// Get is one object (nil if there is none); namespace "" for
	// cluster-scoped resources.
	Get(group, resource, namespace, name string) Object
	// List is every object of the resource in namespace ("" for all, or
	// for a cluster-scoped resource), in name order.
	List(group, resource, namespace string) []Object
}
