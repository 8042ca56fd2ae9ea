package builtin

import (
	"github.com/kubesandbox/kubesandbox/core/builtin/apps"
	"github.com/kubesandbox/kubesandbox/core/builtin/autoscaling"
	"github.com/kubesandbox/kubesandbox/core/builtin/coordination"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/builtin/networking"
	"github.com/kubesandbox/kubesandbox/core/builtin/policy"
	"github.com/kubesandbox/kubesandbox/core/builtin/rbac"
	"github.com/kubesandbox/kubesandbox/core/builtin/scheduling"
	"github.com/kubesandbox/kubesandbox/core/builtin/storage"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// kindsCatalogue holds the kinds a learner meets beyond the workloads
// (issue 12, item 2): stored, listed, watched, patched and printed as
// kube-apiserver v1.37.2 serves them, with their schemas, discovery facts
// (short names, categories, subresources, scope) and Table columns read
// from the real server; their descriptions are the real server's column
// descriptions. Each has its type-specific validation (Node's only its
// taints; see the README's "Not built yet"); RBAC objects are
// stored, authorization stays off (every request is allowed). events.k8s.io/v1 Events are a View of
// the core/v1 Events: one stored object, two APIs, as on the real server.
// The entries are literals throughout (no helper calls), so that the
// compiler lays them out as static data instead of init code.
var kindsCatalogue = []entry{
	{def: "io.k8s.api.events.v1.Event", res: resource.Resource{
		Group: "events.k8s.io", Version: "v1", Resource: "events", Singular: "event", Kind: "Event", ListKind: "EventList",
		Namespaced: true, ShortNames: []string{"ev"}, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		View:             &resource.View{ToStorage: corev1.EventToCore, FromStorage: corev1.EventFromCore},
		SelectableFields: []string{"reason", "regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath", "reportingController", "type"},
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Last Seen", Type: "string", Description: "The time at which the most recent occurrence of this event was recorded.", Cell: eventsV1LastSeen},
			resource.PrinterColumn{Name: "Type", Type: "string", Description: "Type of this event (Normal, Warning), new types could be added in the future", JSONPath: ".type"},
			resource.PrinterColumn{Name: "Reason", Type: "string", Description: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", JSONPath: ".reason"},
			resource.PrinterColumn{Name: "Object", Type: "string", Description: "The object that this event is about.", Cell: eventsV1Object},
			resource.PrinterColumn{Name: "Subobject", Type: "string", Priority: 1, Description: "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.", Cell: eventsV1Subobject},
			resource.PrinterColumn{Name: "Source", Type: "string", Priority: 1, Description: "The component reporting this event. Should be a short machine understandable string.", Cell: eventsV1Source},
			resource.PrinterColumn{Name: "Message", Type: "string", Description: "A human-readable description of the status of this operation.", JSONPath: ".note"},
			resource.PrinterColumn{Name: "First Seen", Type: "string", Priority: 1, Description: "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", Cell: eventsV1FirstSeen},
			resource.PrinterColumn{Name: "Count", Type: "string", Priority: 1, Description: "The number of times this event has occurred.", Cell: eventsV1Count},
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Priority: 1, Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
		},
		Hooks: resource.Hooks{Default: defaultEventsV1, Validate: corev1.ValidateEventsV1},
	}},
	// PodTemplates: stored templates (no controller reads them); their
	// Table has no Age column (printPodTemplate).
	{def: "io.k8s.api.core.v1.PodTemplate", res: resource.Resource{
		Version: "v1", Resource: "podtemplates", Singular: "podtemplate", Kind: "PodTemplate", ListKind: "PodTemplateList",
		Namespaced: true, Verbs: allVerbs, DeleteReturnsObject: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Containers", Type: "string", Description: "Names of each container in the template.", Cell: containersCell},
			resource.PrinterColumn{Name: "Images", Type: "string", Description: "Images referenced by each container in the template.", Cell: imagesCell},
			resource.PrinterColumn{Name: "Pod Labels", Type: "string", Description: "The labels for the pod template.", Cell: podTemplateLabels},
		},
		Hooks: resource.Hooks{Default: defaultTemplate, Validate: corev1.ValidatePodTemplate, Warnings: corev1.PodTemplateWarnings("template")},
	}},
	// ComponentStatuses: computed on each read (componentstatus.go).
	{def: "io.k8s.api.core.v1.ComponentStatus", res: resource.Resource{
		Version: "v1", Resource: "componentstatuses", Singular: "componentstatus", Kind: "ComponentStatus", ListKind: "ComponentStatusList",
		ShortNames: []string{"cs"}, Verbs: []string{"get", "list"},
		NoGeneration: true,
		Deprecation:  "v1 ComponentStatus is deprecated in v1.19+",
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Status", Type: "string", Description: "Status of the component conditions", Cell: componentStatusCell},
			resource.PrinterColumn{Name: "Message", Type: "string", Description: "Message of the component conditions", Cell: componentMessageCell},
			resource.PrinterColumn{Name: "Error", Type: "string", Description: "Error of the component conditions", Cell: componentErrorCell},
		},
		Hooks: resource.Hooks{Computed: componentStatuses},
	}},
	{def: "io.k8s.api.core.v1.Node", res: resource.Resource{
		Version: "v1", Resource: "nodes", Singular: "node", Kind: "Node", ListKind: "NodeList",
		ShortNames: []string{"no"}, Verbs: allVerbs,
		NoGeneration: true, Status: true, NoKindMetaChecks: true,
		SelectableFields: []string{"spec.unschedulable"},
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Status", Type: "string", Description: "The status of the node", Cell: nodeStatus},
			resource.PrinterColumn{Name: "Roles", Type: "string", Description: "The roles of the node", Cell: nodeRoles},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "Version", Type: "string", Description: "Kubelet Version reported by the node.", Cell: nodeKubeletVersion},
			resource.PrinterColumn{Name: "Internal-IP", Type: "string", Priority: 1, Description: "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).", Cell: nodeInternalIP},
			resource.PrinterColumn{Name: "External-IP", Type: "string", Priority: 1, Description: "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).", Cell: nodeExternalIP},
			resource.PrinterColumn{Name: "OS-Image", Type: "string", Priority: 1, Description: "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", Cell: nodeOSImage},
			resource.PrinterColumn{Name: "Kernel-Version", Type: "string", Priority: 1, Description: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", Cell: nodeKernelVersion},
			resource.PrinterColumn{Name: "Container-Runtime", Type: "string", Priority: 1, Description: "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", Cell: nodeContainerRuntime},
		},
		Hooks: resource.Hooks{Default: defaultNode, PrepareCreate: prepareNodeCreate, PrepareUpdate: prepareNodeUpdate, Validate: corev1.ValidateNode, ValidateStatus: corev1.ValidateNodeUpdate,
			Warnings: corev1.NodeWarnings},
	}},
	{def: "io.k8s.api.core.v1.Endpoints", res: resource.Resource{
		Version: "v1", Resource: "endpoints", Singular: "endpoints", Kind: "Endpoints", ListKind: "EndpointsList",
		Namespaced: true, ShortNames: []string{"ep"}, Verbs: allVerbs,
		NoGeneration: true,
		// k8s.io/api core/v1 lifecycle.go: deprecated in 1.33, replaced by EndpointSlice
		Deprecation: "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice",
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Endpoints", Type: "string", Description: "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.", Cell: endpointsCell},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: corev1.DefaultEndpoints, Validate: corev1.ValidateEndpoints, Warnings: corev1.EndpointsWarnings},
	}},
	{def: "io.k8s.api.discovery.v1.EndpointSlice", res: resource.Resource{
		Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices", Singular: "endpointslice", Kind: "EndpointSlice", ListKind: "EndpointSliceList",
		Namespaced: true, Verbs: allVerbs, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "AddressType", Type: "string", Description: "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name. (Deprecated) The EndpointSlice controller only generates, and kube-proxy only processes, slices of addressType \"IPv4\" and \"IPv6\". No semantics are defined for the \"FQDN\" type.", JSONPath: ".addressType"},
			resource.PrinterColumn{Name: "Ports", Type: "string", Description: "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. Each slice may include a maximum of 100 ports. Services always have at least 1 port, so EndpointSlices generated by the EndpointSlice controller will likewise always have at least 1 port. EndpointSlices used for other purposes may have an empty ports list.", Cell: endpointSlicePorts},
			resource.PrinterColumn{Name: "Endpoints", Type: "string", Description: "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.", Cell: endpointSliceEndpoints},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: corev1.DefaultEndpointSlice, PrepareCreate: corev1.PrepareEndpointSliceCreate, PrepareUpdate: corev1.PrepareEndpointSliceUpdate, Validate: corev1.ValidateEndpointSlice},
	}},
	{def: "io.k8s.api.coordination.v1.Lease", res: resource.Resource{
		Group: "coordination.k8s.io", Version: "v1", Resource: "leases", Singular: "lease", Kind: "Lease", ListKind: "LeaseList",
		Namespaced: true, Verbs: allVerbs,
		NoGeneration: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Holder", Type: "string", Description: "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.", Cell: leaseHolder},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{PrepareCreate: coordination.PrepareLeaseCreate, PrepareUpdate: coordination.PrepareLeaseUpdate, Validate: coordination.ValidateLease},
	}},
	{def: "io.k8s.api.core.v1.LimitRange", res: resource.Resource{
		Version: "v1", Resource: "limitranges", Singular: "limitrange", Kind: "LimitRange", ListKind: "LimitRangeList",
		Namespaced: true, ShortNames: []string{"limits"}, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Created At", Type: "date", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", JSONPath: ".metadata.creationTimestamp"},
		},
		Hooks: resource.Hooks{Default: corev1.DefaultLimitRange, Validate: corev1.ValidateLimitRange},
	}},
	{def: "io.k8s.api.core.v1.ResourceQuota", res: resource.Resource{
		Version: "v1", Resource: "resourcequotas", Singular: "resourcequota", Kind: "ResourceQuota", ListKind: "ResourceQuotaList",
		Namespaced: true, ShortNames: []string{"quota"}, Verbs: allVerbs,
		NoGeneration: true, DeleteReturnsObject: true, Status: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Request", Type: "string", Description: "Request represents a minimum amount of cpu/memory that a container may consume.", Cell: quotaRequest},
			resource.PrinterColumn{Name: "Limit", Type: "string", Description: "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.", Cell: quotaLimit},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Validate: corev1.ValidateResourceQuota, PrepareCreate: prepareQuotaCreate},
	}},
	{def: "io.k8s.api.core.v1.PersistentVolumeClaim", res: resource.Resource{
		Version: "v1", Resource: "persistentvolumeclaims", Singular: "persistentvolumeclaim", Kind: "PersistentVolumeClaim", ListKind: "PersistentVolumeClaimList",
		Namespaced: true, ShortNames: []string{"pvc"}, Verbs: allVerbs,
		NoGeneration: true, DeleteReturnsObject: true, Status: true,
		SelectableFields: []string{"name"},
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Status", Type: "string", Description: "phase represents the current phase of PersistentVolumeClaim.", Cell: volumePhase},
			resource.PrinterColumn{Name: "Volume", Type: "string", Description: "volumeName is the binding reference to the PersistentVolume backing this claim.", Cell: pvcVolume},
			resource.PrinterColumn{Name: "Capacity", Type: "string", Description: "capacity represents the actual resources of the underlying volume.", Cell: pvcCapacity},
			resource.PrinterColumn{Name: "Access Modes", Type: "string", Description: "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1", Cell: pvcAccessModes},
			resource.PrinterColumn{Name: "StorageClass", Type: "string", Description: "StorageClass of the pvc", Cell: storageClassOf},
			resource.PrinterColumn{Name: "VolumeAttributesClass", Type: "string", Description: "VolumeAttributesClass of the pvc", Cell: volumeAttributesClass},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "VolumeMode", Type: "string", Priority: 1, Description: "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.", Cell: volumeModeCell},
		},
		Hooks: resource.Hooks{Default: corev1.DefaultPVC, PrepareCreate: corev1.PreparePVCCreate, PrepareUpdate: corev1.PreparePVCUpdate, Validate: corev1.ValidatePVC, Name: validation.NameIsPathSegment, Warnings: corev1.PVCWarnings},
	}},
	{def: "io.k8s.api.core.v1.PersistentVolume", res: resource.Resource{
		Version: "v1", Resource: "persistentvolumes", Singular: "persistentvolume", Kind: "PersistentVolume", ListKind: "PersistentVolumeList",
		ShortNames: []string{"pv"}, Verbs: allVerbs,
		NoGeneration: true, DeleteReturnsObject: true, Status: true, NoKindMetaChecks: true,
		SelectableFields: []string{"name"},
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Capacity", Type: "string", Description: "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity", Cell: pvCapacity},
			resource.PrinterColumn{Name: "Access Modes", Type: "string", Description: "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes", Cell: pvAccessModes},
			resource.PrinterColumn{Name: "Reclaim Policy", Type: "string", Description: "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming", JSONPath: ".spec.persistentVolumeReclaimPolicy"},
			resource.PrinterColumn{Name: "Status", Type: "string", Description: "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase", Cell: volumePhase},
			resource.PrinterColumn{Name: "Claim", Type: "string", Description: "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding", Cell: pvClaim},
			resource.PrinterColumn{Name: "StorageClass", Type: "string", Description: "StorageClass of the pv", Cell: storageClassOf},
			resource.PrinterColumn{Name: "VolumeAttributesClass", Type: "string", Description: "VolumeAttributesClass of the pv", Cell: volumeAttributesClass},
			resource.PrinterColumn{Name: "Reason", Type: "string", Description: "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.", JSONPath: ".status.reason"},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "VolumeMode", Type: "string", Priority: 1, Description: "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.", Cell: volumeModeCell},
		},
		Hooks: resource.Hooks{Default: defaultPV, PrepareCreate: corev1.PreparePVCreate, Validate: corev1.ValidatePV,
			PrepareStatusUpdate: corev1.PreparePVStatusUpdate, ValidateStatus: corev1.ValidatePVStatus},
	}},
	{def: "io.k8s.api.storage.v1.StorageClass", res: resource.Resource{
		Group: "storage.k8s.io", Version: "v1", Resource: "storageclasses", Singular: "storageclass", Kind: "StorageClass", ListKind: "StorageClassList",
		ShortNames: []string{"sc"}, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true, DeleteReturnsObject: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Provisioner", Type: "string", Description: "provisioner indicates the type of the provisioner.", JSONPath: ".provisioner"},
			resource.PrinterColumn{Name: "ReclaimPolicy", Type: "string", Description: "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.", Cell: storageClassReclaim},
			resource.PrinterColumn{Name: "VolumeBindingMode", Type: "string", Description: "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.", Cell: storageClassBinding},
			resource.PrinterColumn{Name: "AllowVolumeExpansion", Type: "string", Description: "allowVolumeExpansion shows whether the storage class allow volume expand.", Cell: storageClassExpansion},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: storage.DefaultStorageClass, Validate: storage.ValidateStorageClass},
	}},
	{def: "io.k8s.api.networking.v1.Ingress", res: resource.Resource{
		Group: "networking.k8s.io", Version: "v1", Resource: "ingresses", Singular: "ingress", Kind: "Ingress", ListKind: "IngressList",
		Namespaced: true, ShortNames: []string{"ing"}, Verbs: allVerbs,
		Status: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Class", Type: "string", Description: "The name of the IngressClass resource that should be used for additional configuration", JSONPath: ".spec.ingressClassName"},
			resource.PrinterColumn{Name: "Hosts", Type: "string", Description: "Hosts that incoming requests are matched against before the ingress rule", Cell: ingressHosts},
			resource.PrinterColumn{Name: "Address", Type: "string", Description: "Address is a list containing ingress points for the load-balancer", Cell: ingressAddress},
			resource.PrinterColumn{Name: "Ports", Type: "string", Description: "Ports of TLS configurations that open", Cell: ingressPorts},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Validate: networking.ValidateIngress, Warnings: networking.IngressWarnings},
	}},
	{def: "io.k8s.api.networking.v1.IngressClass", res: resource.Resource{
		Group: "networking.k8s.io", Version: "v1", Resource: "ingressclasses", Singular: "ingressclass", Kind: "IngressClass", ListKind: "IngressClassList",
		Verbs: allVerbs,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", Cell: ingressClassDisplayName},
			resource.PrinterColumn{Name: "Controller", Type: "string", Description: "Controller that is responsible for handling this class", JSONPath: ".spec.controller"},
			resource.PrinterColumn{Name: "Parameters", Type: "string", Description: "A reference to a resource with additional parameters", Cell: ingressClassParameters},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: networking.DefaultIngressClass, Validate: networking.ValidateIngressClass},
	}},
	{def: "io.k8s.api.networking.v1.NetworkPolicy", res: resource.Resource{
		Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies", Singular: "networkpolicy", Kind: "NetworkPolicy", ListKind: "NetworkPolicyList",
		Namespaced: true, ShortNames: []string{"netpol"}, Verbs: allVerbs,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Pod-Selector", Type: "string", Description: "podSelector selects the pods to which this NetworkPolicy object applies. The array of rules is applied to any pods selected by this field. An empty selector matches all pods in the policy's namespace. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is optional. If it is not specified, it defaults to an empty selector.", Cell: podSelectorCell},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: networking.DefaultNetworkPolicy, Validate: networking.ValidateNetworkPolicy, Warnings: networking.NetworkPolicyWarnings},
	}},
	{def: "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler", res: resource.Resource{
		Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers", Singular: "horizontalpodautoscaler", Kind: "HorizontalPodAutoscaler", ListKind: "HorizontalPodAutoscalerList",
		Namespaced: true, ShortNames: []string{"hpa"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Reference", Type: "string", Description: "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.", Cell: hpaReference},
			resource.PrinterColumn{Name: "Targets", Type: "string", Description: "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.", Cell: hpaTargets},
			resource.PrinterColumn{Name: "MinPods", Type: "string", Description: "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.", Cell: hpaMinPods},
			resource.PrinterColumn{Name: "MaxPods", Type: "string", Description: "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.", JSONPath: ".spec.maxReplicas"},
			resource.PrinterColumn{Name: "Replicas", Type: "string", Description: "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.", Cell: hpaReplicas},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: autoscaling.DefaultHPA, PrepareCreate: autoscaling.PrepareHPACreate, Validate: autoscaling.ValidateHPA},
	}},
	{def: "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler", res: resource.Resource{
		Group: "autoscaling", Version: "v1", Resource: "horizontalpodautoscalers", Singular: "horizontalpodautoscaler", Kind: "HorizontalPodAutoscaler", ListKind: "HorizontalPodAutoscalerList",
		Namespaced: true, ShortNames: []string{"hpa"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true,
		// one stored (v2) object, two APIs, as kube-apiserver stores v2 and converts
		View: &resource.View{Group: "autoscaling", ToStorage: autoscaling.HPAToV2, FromStorage: autoscaling.HPAToV1}, StorageVersion: "v2",
		TableMetadata: autoscaling.HPAV1TableMetadata,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Reference", Type: "string", Description: "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.", Cell: hpaReference},
			resource.PrinterColumn{Name: "Targets", Type: "string", Description: "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.", Cell: hpaV1Targets},
			resource.PrinterColumn{Name: "MinPods", Type: "string", Description: "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.", Cell: hpaMinPods},
			resource.PrinterColumn{Name: "MaxPods", Type: "string", Description: "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.", JSONPath: ".spec.maxReplicas"},
			resource.PrinterColumn{Name: "Replicas", Type: "string", Description: "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.", Cell: hpaReplicas},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Default: autoscaling.DefaultHPAV1, PrepareCreate: autoscaling.PrepareHPAV1Create, PrepareUpdate: autoscaling.PrepareHPAV1Update, Validate: autoscaling.ValidateHPAV1},
	}},
	{def: "io.k8s.api.policy.v1.PodDisruptionBudget", res: resource.Resource{
		Group: "policy", Version: "v1", Resource: "poddisruptionbudgets", Singular: "poddisruptionbudget", Kind: "PodDisruptionBudget", ListKind: "PodDisruptionBudgetList",
		Namespaced: true, ShortNames: []string{"pdb"}, Verbs: allVerbs,
		Status: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Min Available", Type: "string", Description: "The minimum number of pods that must be available.", Cell: pdbMinAvailable},
			resource.PrinterColumn{Name: "Max Unavailable", Type: "string", Description: "The maximum number of pods that may be unavailable.", Cell: pdbMaxUnavailable},
			resource.PrinterColumn{Name: "Allowed Disruptions", Type: "integer", Description: "Calculated number of pods that may be disrupted at this time.", JSONPath: ".status.disruptionsAllowed"},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Validate: policy.ValidatePodDisruptionBudget, Name: validation.NameIsPathSegment},
	}},
	{def: "io.k8s.api.scheduling.v1.PriorityClass", res: resource.Resource{
		Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses", Singular: "priorityclass", Kind: "PriorityClass", ListKind: "PriorityClassList",
		ShortNames: []string{"pc"}, Verbs: allVerbs, FixedGeneration: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Value", Type: "integer", Description: "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.", JSONPath: ".value"},
			resource.PrinterColumn{Name: "Global-Default", Type: "boolean", Description: "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.", JSONPath: ".globalDefault"},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "PreemptionPolicy", Type: "string", Description: "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.", Cell: priorityPreemption},
		},
		Hooks: resource.Hooks{Default: scheduling.DefaultPriorityClass, Validate: scheduling.ValidatePriorityClass},
	}},
	{def: "io.k8s.api.apps.v1.ControllerRevision", res: resource.Resource{
		Group: "apps", Version: "v1", Resource: "controllerrevisions", Singular: "controllerrevision", Kind: "ControllerRevision", ListKind: "ControllerRevisionList",
		Namespaced: true, Verbs: allVerbs,
		NoGeneration: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Controller", Type: "string", Description: "Controller of the object", Cell: controllerRevisionController},
			resource.PrinterColumn{Name: "Revision", Type: "string", Description: "Revision indicates the revision of the state represented by Data.", JSONPath: ".revision"},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
		},
		Hooks: resource.Hooks{Validate: apps.ValidateControllerRevision},
	}},
	{def: "io.k8s.api.rbac.v1.Role", res: resource.Resource{
		Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles", Singular: "role", Kind: "Role", ListKind: "RoleList",
		Namespaced: true, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Created At", Type: "date", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", JSONPath: ".metadata.creationTimestamp"},
		},
		Hooks: resource.Hooks{Name: rbac.Name, Validate: rbac.ValidateRole},
	}},
	{def: "io.k8s.api.rbac.v1.ClusterRole", res: resource.Resource{
		Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Singular: "clusterrole", Kind: "ClusterRole", ListKind: "ClusterRoleList",
		Verbs:        allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Created At", Type: "date", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", JSONPath: ".metadata.creationTimestamp"},
		},
		Hooks: resource.Hooks{Name: rbac.Name, Validate: rbac.ValidateClusterRole},
	}},
	{def: "io.k8s.api.rbac.v1.RoleBinding", res: resource.Resource{
		Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings", Singular: "rolebinding", Kind: "RoleBinding", ListKind: "RoleBindingList",
		Namespaced: true, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Role", Type: "string", Description: "roleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.", Cell: roleRefCell},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "Users", Type: "string", Priority: 1, Description: "Users in the roleBinding", Cell: subjectUsers},
			resource.PrinterColumn{Name: "Groups", Type: "string", Priority: 1, Description: "Groups in the roleBinding", Cell: subjectGroups},
			resource.PrinterColumn{Name: "ServiceAccounts", Type: "string", Priority: 1, Description: "ServiceAccounts in the roleBinding", Cell: subjectServiceAccounts},
		},
		Hooks: resource.Hooks{Name: rbac.Name, Default: rbac.DefaultBinding, Validate: rbac.ValidateRoleBinding},
	}},
	{def: "io.k8s.api.rbac.v1.ClusterRoleBinding", res: resource.Resource{
		Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings", Singular: "clusterrolebinding", Kind: "ClusterRoleBinding", ListKind: "ClusterRoleBindingList",
		Verbs:        allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		PrinterColumns: []resource.PrinterColumn{
			resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names", JSONPath: ".metadata.name"},
			resource.PrinterColumn{Name: "Role", Type: "string", Description: "roleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.", Cell: roleRefCell},
			resource.PrinterColumn{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", Cell: ageCell},
			resource.PrinterColumn{Name: "Users", Type: "string", Priority: 1, Description: "Users in the clusterRoleBinding", Cell: subjectUsers},
			resource.PrinterColumn{Name: "Groups", Type: "string", Priority: 1, Description: "Groups in the clusterRoleBinding", Cell: subjectGroups},
			resource.PrinterColumn{Name: "ServiceAccounts", Type: "string", Priority: 1, Description: "ServiceAccounts in the clusterRoleBinding", Cell: subjectServiceAccounts},
		},
		Hooks: resource.Hooks{Name: rbac.Name, Default: rbac.DefaultBinding, Validate: rbac.ValidateClusterRoleBinding},
	}},
}

// kindsPending are kinds built but not served yet (none today; the
// package tests check them as they check served entries).
var kindsPending = []entry{}

// defaultPV is SetObjectDefaults_PersistentVolume.
func defaultPV(obj map[string]any) {
	corev1.DefaultPV(obj)
	defaultVolumeSources(child(obj, "spec"))
}
