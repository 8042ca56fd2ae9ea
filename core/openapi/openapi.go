// Package openapi generates, from the resource model, the documents that
// clients read to learn the API's shape:
//
//   - /openapi/v3 (V3Root) and /openapi/v3/<api/v1|apis/G/V>
//     (V3GroupVersion): OpenAPI 3.0 documents whose components.schemas
//     are named as kube-apiserver names them ("io.k8s.api.core.v1.Pod",
//     "com.example.v1.Widget" for a CRD of group example.com) and carry
//     x-kubernetes-group-version-kind, list/map types and strategic merge
//     patch metadata. kubectl explain, apply and its fieldValidation probe
//     read them.
//   - /openapi/v2 (V2): the same as one Swagger 2.0 document.
//   - aggregated discovery (AggregatedDiscovery): the apidiscovery.k8s.io/v2
//     APIGroupDiscoveryList served on /api and /apis.
//
// Documents are deterministic JSON (object keys sorted). The built-in
// schema graph may be cyclic; named definitions are written once and
// referred to with $ref. Cache memoises the documents of one resource set.
package openapi

import (
	"crypto/sha512"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// InfoVersion is info.version of the documents (the server's version).
var InfoVersion = "v1.37.2"

// Hash is the uppercase hex SHA-512 of a document, as kube-openapi
// computes the ?hash= of /openapi/v3 links and the documents' ETags.
func Hash(doc []byte) string {
	sum := sha512.Sum512(doc)
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// GVPath is the /openapi/v3 path of a group/version: "api/v1" for the
// core group, "apis/<group>/<version>" otherwise.
func GVPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

// V3Root is the /openapi/v3 discovery document: one entry per served
// group/version, e.g.
//
//	{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=8D1F…"},
//	          "apis/apps/v1":{"serverRelativeURL":"/openapi/v3/apis/apps/v1?hash=…"}}}
func V3Root(resources []*resource.Resource) []byte {
	return v3Root(resources, func(gv string) []byte {
		doc, _ := V3GroupVersion(resources, gv)
		return doc
	})
}

func v3Root(resources []*resource.Resource, doc func(gv string) []byte) []byte {
	paths := map[string]any{}
	for _, gv := range gvPaths(resources) {
		paths[gv] = map[string]any{"serverRelativeURL": "/openapi/v3/" + gv + "?hash=" + Hash(doc(gv))}
	}
	return marshal(map[string]any{"paths": paths})
}

// V3GroupVersion is the OpenAPI 3.0 document of one group/version, named
// by its /openapi/v3 path: "api/v1" or "apis/<group>/<version>". It
// reports false when no resource is served there.
func V3GroupVersion(resources []*resource.Resource, gv string) ([]byte, bool) {
	return v3GroupVersion(resources, gv, builtin.Descriptions())
}

func v3GroupVersion(resources []*resource.Resource, gv string, descs map[string]any) ([]byte, bool) {
	var in []*resource.Resource
	for _, r := range resources {
		if r != nil && GVPath(r.Group, r.Version) == gv {
			in = append(in, r)
		}
	}
	if len(in) == 0 {
		return nil, false
	}
	e := newEmitter(false, descs)
	paths := e.document(in)
	return marshal(map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]any{"title": "Kubernetes", "version": InfoVersion},
		"paths":   paths,
		"components": map[string]any{
			"schemas":         e.out,
			"securitySchemes": map[string]any{"BearerToken": bearerToken()},
		},
		"security": []any{map[string]any{"BearerToken": []any{}}},
	}), true
}

// V2 is the Swagger 2.0 document of every served resource (/openapi/v2).
func V2(resources []*resource.Resource) []byte {
	return v2(resources, builtin.Descriptions())
}

func v2(resources []*resource.Resource, descs map[string]any) []byte {
	e := newEmitter(true, descs)
	paths := e.document(resources)
	return marshal(map[string]any{
		"swagger":             "2.0",
		"info":                map[string]any{"title": "Kubernetes", "version": InfoVersion},
		"paths":               paths,
		"definitions":         e.out,
		"securityDefinitions": map[string]any{"BearerToken": bearerToken()},
		"security":            []any{map[string]any{"BearerToken": []any{}}},
	})
}

func bearerToken() map[string]any {
	return map[string]any{"type": "apiKey", "name": "authorization", "in": "header", "description": "Bearer Token authentication"}
}

// document writes the definitions and paths of resources into e and
// returns the paths.
func (e *emitter) document(resources []*resource.Resource) map[string]any {
	paths := map[string]any{}
	for _, r := range sortResources(resources) {
		kindName := e.kindName(r)
		listKind := r.ListKind
		if listKind == "" {
			listKind = r.Kind + "List"
		}
		ln := listName(kindName, listKind)
		if e.lists[ln] == nil {
			l := e.listKind(kindName, r.Kind, listKind, r.Resource)
			if r.CRD && len(r.SelectableFields) > 0 {
				l["x-kubernetes-selectable-fields"] = selectableFields(r.SelectableFields)
			}
			e.lists[ln] = l
		}
		e.addGVK(kindName, gvk{r.Group, r.Version, r.Kind})
		e.addGVK(ln, gvk{r.Group, r.Version, listKind})
		e.addGVK(deleteOptionsName, gvk{r.Group, r.Version, "DeleteOptions"})
		if r.Scale != nil {
			e.addGVK(scaleName, gvk{"autoscaling", "v1", "Scale"})
		}
		e.pathsFor(paths, r, kindName, ln)
	}
	e.addGVK(statusName, gvk{"", "v1", "Status"})
	e.drain()
	return paths
}

// kindName is the definition name of r's kind: the built-in definition
// its schema is, or the custom resource model name (whose schema is then
// written inline under that name).
func (e *emitter) kindName(r *resource.Resource) string {
	if s := r.SchemaOf(); s != nil && !r.CRD {
		if name, ok := e.idx.nameOf(s); ok {
			return name
		}
	}
	group := r.Group
	if group == "" {
		group = "core.api.k8s.io" // gives io.k8s.api.core.<version>.<Kind>
	}
	name := modelName(group, r.Version, r.Kind)
	if e.crds[name] == nil {
		root := &crdRoot{node: r.SchemaOf()}
		if r.CRD {
			root.selectable = r.SelectableFields
		}
		e.crds[name] = root
	}
	return name
}

func selectableFields(fields []string) []any {
	l := make([]any, 0, len(fields))
	for _, f := range fields {
		l = append(l, map[string]any{"fieldPath": f})
	}
	return l
}

// sortResources returns the non-nil resources ordered by group, version
// and resource, so that documents do not depend on the input order.
func sortResources(resources []*resource.Resource) []*resource.Resource {
	out := make([]*resource.Resource, 0, len(resources))
	for _, r := range resources {
		if r != nil && r.Kind != "" && r.Resource != "" && r.Version != "" {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Resource < b.Resource
	})
	return out
}

// gvPaths lists the /openapi/v3 paths of the served group/versions.
func gvPaths(resources []*resource.Resource) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range sortResources(resources) {
		p := GVPath(r.Group, r.Version)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// marshal encodes a document built of maps, slices and JSON scalars;
// that cannot fail, but a failure must not panic.
func marshal(v any) []byte {
	b, err := jsonx.Marshal(v)
	if err != nil {
		return []byte("{}")
	}
	return b
}

// AcceptsJSON tells whether an Accept header lets /openapi/v2 or
// /openapi/v3/<gv> answer in JSON, as kube-openapi's handlers negotiate:
// a missing header means */*, and a clause application/json,
// application/* or */* accepts JSON. A header that accepts only the
// protobuf forms gets 406 Not Acceptable, with an empty body (but see
// AcceptsV2Protobuf). The /openapi/v3 root is always JSON.
func AcceptsJSON(accept string) bool {
	if strings.TrimSpace(accept) == "" {
		return true
	}
	for _, c := range parseAccept(accept) {
		if (c.typ == "application" || c.typ == "*") && (c.sub == "json" || c.sub == "*") {
			return true
		}
	}
	return false
}

// V2ProtobufType is the Content-Type kube-apiserver answers the protobuf
// /openapi/v2 document with.
const V2ProtobufType = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"

// AcceptsV2Protobuf tells whether an Accept header asks for the protobuf
// /openapi/v2 document (client-go's OpenAPISchema sends
// "application/com.github.proto-openapi.spec.v2@v1.0+protobuf").
func AcceptsV2Protobuf(accept string) bool {
	for _, c := range parseAccept(accept) {
		if c.typ == "application" && (c.sub == "com.github.proto-openapi.spec.v2@v1.0+protobuf" || c.sub == "com.github.proto-openapi.spec.v2.v1.0+protobuf") {
			return true
		}
	}
	return false
}

// V2Protobuf is the protobuf /openapi/v2 document (gnostic's
// openapi_v2.Document) with no paths and no definitions: swagger "2.0"
// and info {title "Kubernetes", version "v1.37.2"}, as the JSON document
// starts. kubectl asks for it only when /openapi/v3 has no document for a
// manifest's group version, that is for a group version the server does
// not serve: it finds no schema there (a real server's document has none
// either), skips validation and reports the unknown kind, as against a
// real server. Encoding the full document is not built (README).
var V2Protobuf = []byte("\x0a\x032.0" + // 1: swagger
	"\x12\x15" + "\x0a\x0aKubernetes" + "\x12\x07v1.37.2") // 2: info {1: title, 2: version}
