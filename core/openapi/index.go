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
// form of k8s.io/apimachinery/pkg/apis/meta/v1's OpenAPI definitions;
// their descriptions are in builtin.Descriptions with the others.
const metaJSON = `{"definitions":{
"io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta":{"type":"object","properties":{
 "continue":{"type":"string"},
 "remainingItemCount":{"type":"integer","format":"int64"},
 "resourceVersion":{"type":"string"},
 "selfLink":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Status":{"type":"object","properties":{
 "apiVersion":{"type":"string"},
 "code":{"type":"integer","format":"int32"},
 "details":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails"},
 "kind":{"type":"string"},
 "message":{"type":"string"},
 "metadata":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta","default":{}},
 "reason":{"type":"string"},
 "status":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails":{"type":"object","properties":{
 "causes":{"type":"array","items":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause"},"x-kubernetes-list-type":"atomic"},
 "group":{"type":"string"},
 "kind":{"type":"string"},
 "name":{"type":"string"},
 "retryAfterSeconds":{"type":"integer","format":"int32"},
 "uid":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause":{"type":"object","properties":{
 "field":{"type":"string"},
 "message":{"type":"string"},
 "reason":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions":{"type":"object","properties":{
 "apiVersion":{"type":"string"},
 "dryRun":{"type":"array","items":{"type":"string","default":""},"x-kubernetes-list-type":"atomic"},
 "gracePeriodSeconds":{"type":"integer","format":"int64"},
 "ignoreStoreReadErrorWithClusterBreakingPotential":{"type":"boolean"},
 "kind":{"type":"string"},
 "orphanDependents":{"type":"boolean"},
 "preconditions":{"$ref":"io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions"},
 "propagationPolicy":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Preconditions":{"type":"object","properties":{
 "resourceVersion":{"type":"string"},
 "uid":{"type":"string"}}},
"io.k8s.apimachinery.pkg.apis.meta.v1.Patch":{"type":"object"}
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
