// Package resource describes API resources: one struct per resource, for
// built-ins and for the resources CustomResourceDefinitions add.
package resource

import (
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

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

	Status bool   // has a status subresource
	Scale  *Scale // has a scale subresource

	Schema           *schema.Schema // nil: anything goes (no validation, no pruning)
	PrinterColumns   []PrinterColumn
	SelectableFields []string // beyond metadata.name and metadata.namespace, e.g. "spec.nodeName"

	// CRD marks a custom resource (answers as custom resources do: no
	// strategic merge patch, PUT needs a resourceVersion, ...).
	CRD bool
	// StorageVersion is the version objects are stored in, for CRDs with
	// several versions; "" means Version.
	StorageVersion string

	Hooks Hooks
}

// Scale describes where a scale subresource reads and writes.
type Scale struct {
	SpecReplicasPath   string // ".spec.replicas"
	StatusReplicasPath string // ".status.replicas"
	LabelSelectorPath  string // ".status.selector", may be empty
}

// PrinterColumn is an additionalPrinterColumn / Table column.
type PrinterColumn struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int64
	JSONPath    string
}

// Hooks are the behaviour that differs between resources. Every hook may be
// nil.
type Hooks struct {
	// Default fills defaults into a new or updated object (after schema
	// defaulting).
	Default func(obj Object)
	// Validate checks an object about to be stored; old is nil on create.
	Validate func(obj, old Object) field.ErrorList
	// PrepareCreate and PrepareUpdate adjust an object before validation,
	// e.g. to set status on a new Namespace.
	PrepareCreate func(obj Object)
	PrepareUpdate func(obj, old Object)
}

// GroupVersion is "v1" for the core group and "group/version" otherwise.
func (r *Resource) GroupVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}
