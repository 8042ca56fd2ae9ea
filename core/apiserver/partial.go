package apiserver

import (
	"fmt"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Metadata-only answers: Accept
// application/json;as=PartialObjectMetadata(List);g=meta.k8s.io;v=v1 (or
// v1beta1), what client-go's metadata client and informers (and the
// garbage collector) ask for. Status answers pass unchanged; asking for
// the list form of an object, or the object form of a list, is 406 as on
// kube-apiserver v1.37.2.

// metaAPIVersion is the apiVersion of a Table or partial answer.
func (q *request) metaAPIVersion() string {
	if q.out.metaVersion == "v1beta1" {
		return "meta.k8s.io/v1beta1"
	}
	return "meta.k8s.io/v1"
}

// partialObject is obj as PartialObjectMetadata.
func (q *request) partialObject(obj object) object {
	return object{"apiVersion": q.metaAPIVersion(), "kind": "PartialObjectMetadata", "metadata": meta(obj)}
}

// partialAnswer turns an answer into PartialObjectMetadata(List).
func (q *request) partialAnswer(v object) (object, error) {
	if v["kind"] == "Status" {
		return v, nil
	}
	items, isList := v["items"].([]any)
	if !isList && q.res.CRD && q.out.partial == "PartialObjectMetadataList" {
		// an Unstructured passes the ListInterface check; its
		// EachListItem's plain error is a 500 without a reason
		return nil, apierr.Unknown("content is not a list")
	}
	if isList != (q.out.partial == "PartialObjectMetadataList") {
		what := "is not a list"
		if isList {
			what = "is a list"
		}
		return nil, apierr.NotAcceptableMessage(fmt.Sprintf("you requested %s, but the requested object %s (%s)", q.out.partial, what, q.goTypeName(isList)))
	}
	if !isList {
		return q.partialObject(v), nil
	}
	out := make([]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, q.partialObject(m))
		}
	}
	lm := v["metadata"]
	if m, ok := lm.(map[string]any); ok && m["continue"] == "" {
		// ListMeta's continue is omitempty once the list is a typed one
		m = jsonx.CopyObject(m)
		delete(m, "continue")
		lm = m
	}
	return object{"apiVersion": q.metaAPIVersion(), "kind": "PartialObjectMetadataList", "metadata": lm, "items": out}, nil
}

// goTypeName is the real server's internal Go type of the answer, as its
// 406 names it: *core.ConfigMap, *apps.DeploymentList,
// *unstructured.UnstructuredList for custom resources.
func (q *request) goTypeName(list bool) string {
	pkg, kind := "unstructured", "Unstructured"
	if !q.res.CRD {
		kind = q.res.Kind
		switch pkg, _, _ = strings.Cut(q.res.Group, "."); pkg {
		case "":
			pkg = "core"
		}
	}
	if list {
		kind += "List"
	}
	return "*" + pkg + "." + kind
}
