package openapi

import (
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

// Definition names of the apimachinery types every document needs.
const (
	objectMetaName    = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaName      = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
	statusName        = "io.k8s.apimachinery.pkg.apis.meta.v1.Status"
	deleteOptionsName = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
	patchName         = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch"
	scaleName         = "io.k8s.api.autoscaling.v1.Scale"
)

// Descriptions the real server gives to the type and object metadata it
// adds to every kind (TypeMeta, PartialObjectMetadata[List]).
const (
	apiVersionDoc         = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDoc               = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	objectMetaDoc         = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetaDoc           = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	embeddedAPIVersionDoc = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDoc       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// metaJSON holds the apimachinery definitions that the generated built-in
// schemas do not carry (they are not part of any stored object), in the
// form of k8s.io/apimachinery/pkg/apis/meta/v1's OpenAPI definitions.
const metaJSON = `{"definitions":{
"io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta":{"description":"ListMeta describes metadata that synthetic resources must have, including lists and various status objects. A resource may have only one of {ObjectMeta, ListMeta}.","type":"object","properties":{
 "continue":{"description":"continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects. Continuing a consistent list may not be possible if the server configuration has changed or more than a few minutes have passed. The resourceVersion field returned when using this continue value will be identical to the value in the first response, unless you have received this token from an error message.","type":"string"},
 "remainingItemCount":{"description":"remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization. If the list is complete (either because it is not chunking or because this is the last chunk), then there are no more remaining items and this field will be left unset and omitted during serialization. Servers older than v1.15 do not set this field. The intended use of the remainingItemCount is *estimating* the size of a collection. Clients should not rely on the remainingItemCount to be set or to be exact.","type":"integer","format":"int64"},
 "resourceVersion":{"description":"String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency","type":"string"},
 "selfLink":{"description":"Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Status":{"description":"Status is a return value for calls that don't return other objects.","type":"object","properties":{
 "apiVersion":{"description":"` + apiVersionDoc + `","type":"string"},
 "code":{"description":"Suggested HTTP return code for this status, 0 if not set.","type":"integer","format":"int32"},
 "details":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails","description":"Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type."},
 "kind":{"description":"` + kindDoc + `","type":"string"},
 "message":{"description":"A human-readable description of the status of this operation.","type":"string"},
 "metadata":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta","default":{},"description":"` + listMetaDoc + `"},
 "reason":{"description":"A machine-readable description of why this operation is in the \"Failure\" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.","type":"string"},
 "status":{"description":"Status of the operation. One of: \"Success\" or \"Failure\". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails":{"description":"StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.","type":"object","properties":{
 "causes":{"description":"The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.","type":"array","items":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause"},"x-kubernetes-list-type":"atomic"},
 "group":{"description":"The group attribute of the resource associated with the status StatusReason.","type":"string"},
 "kind":{"description":"The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds","type":"string"},
 "name":{"description":"The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).","type":"string"},
 "retryAfterSeconds":{"description":"If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.","type":"integer","format":"int32"},
 "uid":{"description":"UID of the resource. (when there is a single resource which can be described). More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause":{"description":"StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.","type":"object","properties":{
 "field":{"description":"The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  \"name\" - the field \"name\" on the current resource\n  \"items[0].name\" - the field \"name\" on the first array entry in \"items\"","type":"string"},
 "message":{"description":"A human-readable description of the cause of the error.  This field may be presented as-is to a reader.","type":"string"},
 "reason":{"description":"A machine-readable description of the cause of the error. If this value is empty there is no information available.","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions":{"description":"DeleteOptions may be provided when deleting an API object.","type":"object","properties":{
 "apiVersion":{"description":"` + apiVersionDoc + `","type":"string"},
 "dryRun":{"description":"When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed","type":"array","items":{"type":"string","default":""},"x-kubernetes-list-type":"atomic"},
 "gracePeriodSeconds":{"description":"The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.","type":"integer","format":"int64"},
 "ignoreStoreReadErrorWithClusterBreakingPotential":{"description":"if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it","type":"boolean"},
 "kind":{"description":"` + kindDoc + `","type":"string"},
 "orphanDependents":{"description":"Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added to/removed from the object's finalizers list. Either this field or PropagationPolicy may be set, but not both.","type":"boolean"},
 "preconditions":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions","description":"Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned."},
 "propagationPolicy":{"description":"Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions":{"description":"Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.","type":"object","properties":{
 "resourceVersion":{"description":"Specifies the target ResourceVersion","type":"string"},
 "uid":{"description":"Specifies the target UID.","type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Patch":{"description":"Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.","type":"object"}
}}`

// index names the nodes of the built-in schema graph: a node reached by a
// plain reference is the definition's own node, and a reference with
// sibling keywords (e.g. {"$ref": "...ObjectMeta", "default": {}}) is a
// shallow copy that shares the definition's properties map. Both are
// emitted as references, so cyclic graphs become finite documents.
type index struct {
	nodes   map[string]*schema.Schema // name -> definition node
	byNode  map[*schema.Schema]string
	byProps map[uintptr]string // properties map identity -> name
}

var (
	indexOnce sync.Once
	theIndex  *index
)

// sharedIndex indexes the built-in definitions plus the apimachinery
// definitions above. It never fails: broken embedded data (ruled out by
// core/builtin's tests) leaves the built-in part empty.
func sharedIndex() *index {
	indexOnce.Do(func() {
		idx := &index{nodes: map[string]*schema.Schema{}, byNode: map[*schema.Schema]string{}, byProps: map[uintptr]string{}}
		if meta, err := schema.Load([]byte(metaJSON)); err == nil {
			for n, s := range meta {
				idx.nodes[n] = s
			}
		}
		if defs, err := builtin.Definitions(); err == nil {
			for n, s := range defs {
				idx.nodes[n] = s
			}
		}
		names := make([]string, 0, len(idx.nodes))
		for n := range idx.nodes {
			names = append(names, n)
		}
		// Reverse order, so that when two names share a node (an alias)
		// the smallest name wins.
		sort.Sort(sort.Reverse(sort.StringSlice(names)))
		for _, n := range names {
			s := idx.nodes[n]
			if s == nil {
				continue
			}
			idx.byNode[s] = n
			if len(s.Properties) > 0 {
				idx.byProps[mapID(s.Properties)] = n
			}
		}
		theIndex = idx
	})
	return theIndex
}

func mapID(m map[string]*schema.Schema) uintptr {
	return reflect.ValueOf(m).Pointer()
}

// nameOf returns the definition name of n when n is a definition's node.
func (x *index) nameOf(n *schema.Schema) (string, bool) {
	name, ok := x.byNode[n]
	return name, ok
}

// copyOf returns the definition that n is an overlay copy of.
func (x *index) copyOf(n *schema.Schema) (string, bool) {
	if len(n.Properties) == 0 {
		return "", false
	}
	name, ok := x.byProps[mapID(n.Properties)]
	return name, ok
}

// modelName is the definition name the real server gives a custom
// resource kind: the reversed group, the version and the kind, e.g.
// group "stable.example.com", version "v1", kind "CronTab" gives
// "com.example.stable.v1.CronTab".
func modelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + version + "." + kind
}

// listName derives the list definition's name from the kind's:
// "io.k8s.api.core.v1.Pod" and "PodList" give "io.k8s.api.core.v1.PodList".
func listName(kindName, listKind string) string {
	if i := strings.LastIndexByte(kindName, '.'); i >= 0 {
		return kindName[:i+1] + listKind
	}
	return listKind
}
