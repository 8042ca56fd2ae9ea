package openapi

import (
	"strings"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Query parameter descriptions, as k8s.io/apimachinery documents the
// option types (ListOptions, CreateOptions, PatchOptions, DeleteOptions).
var paramDocs = map[string]string{
	"allowWatchBookmarks":  "allowWatchBookmarks requests watch events with type \"BOOKMARK\". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server's discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.",
	"continue":             "The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize.",
	"dryRun":               "When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed",
	"fieldManager":         "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.",
	"fieldManagerPatch":    "fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint. This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).",
	"fieldSelector":        "A selector to restrict the list of returned objects by their fields. Defaults to everything.",
	"fieldValidation":      "fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.",
	"force":                "Force is going to \"force\" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.",
	"gracePeriodSeconds":   "The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.",
	"labelSelector":        "A selector to restrict the list of returned objects by their labels. Defaults to everything.",
	"limit":                "limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.",
	"orphanDependents":     "Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the \"orphan\" finalizer will be added to/removed from the object's finalizers list. Either this field or PropagationPolicy may be set, but not both.",
	"pretty":               "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
	"propagationPolicy":    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
	"resourceVersion":      "resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset",
	"resourceVersionMatch": "resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset",
	"sendInitialEvents":    "`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection.",
	"timeoutSeconds":       "Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.",
	"watch":                "Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.",
}

var paramTypes = map[string]string{
	"allowWatchBookmarks": "boolean", "force": "boolean", "orphanDependents": "boolean",
	"sendInitialEvents": "boolean", "watch": "boolean",
	"gracePeriodSeconds": "integer", "limit": "integer", "timeoutSeconds": "integer",
}

// Operation query parameters by x-kubernetes-action.
var actionParams = map[string][]string{
	"list":             {"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch"},
	"deletecollection": {"continue", "dryRun", "fieldSelector", "gracePeriodSeconds", "labelSelector", "limit", "orphanDependents", "propagationPolicy", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds"},
	"post":             {"dryRun", "fieldManager", "fieldValidation"},
	"put":              {"dryRun", "fieldManager", "fieldValidation"},
	"patch":            {"dryRun", "fieldManagerPatch", "fieldValidation", "force"},
	"delete":           {"dryRun", "gracePeriodSeconds", "orphanDependents", "propagationPolicy"},
}

var (
	builtinPatchTypes = []string{"application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json"}
	crdPatchTypes     = []string{"application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"}
	produces          = []string{"application/json", "application/yaml"}
	producesList      = []string{"application/json", "application/yaml", "application/json;stream=watch"}
)

// operation is one HTTP method of a path.
type operation struct {
	method, action, verb string
	desc                 string
	body                 string // request body definition ("" for none)
	bodyOptional         bool
	resp                 string // response definition
	codes                []string
	g                    gvk
	patchTypes           []string
}

var codeText = map[string]string{"200": "OK", "201": "Created", "202": "Accepted"}

// pathsFor adds the paths that serve r to paths, e.g. for a namespaced
// Deployment /apis/apps/v1/namespaces/{namespace}/deployments, its
// /{name}, /{name}/status and /{name}/scale, and the all-namespaces list
// /apis/apps/v1/deployments.
func (e *emitter) pathsFor(paths map[string]any, r *resource.Resource, kindName, listKindName string) {
	prefix := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		prefix = "/api/" + r.Version
	}
	ns, nsWord := "", ""
	if r.Namespaced {
		ns, nsWord = "/namespaces/{namespace}", "Namespaced"
	}
	id := groupCamel(r.Group) + upperFirst(r.Version)
	tag := lowerFirst(groupCamel(r.Group)) + "_" + r.Version
	self := gvk{r.Group, r.Version, r.Kind}
	patchTypes := builtinPatchTypes
	if r.CRD {
		patchTypes = crdPatchTypes
	}
	can := verbSet(r)
	article := articleFor(r.Kind)
	collection := prefix + ns + "/" + r.Resource
	item := collection + "/{name}"

	var ops []operation
	if can["list"] {
		ops = append(ops, operation{method: "get", action: "list", verb: "list", desc: "list or watch objects of kind " + r.Kind, resp: listKindName, codes: []string{"200"}, g: self})
	}
	if can["create"] {
		ops = append(ops, operation{method: "post", action: "post", verb: "create", desc: "create" + article + r.Kind, body: kindName, resp: kindName, codes: []string{"200", "201", "202"}, g: self})
	}
	if can["deletecollection"] {
		ops = append(ops, operation{method: "delete", action: "deletecollection", verb: "deletecollection", desc: "delete collection of " + r.Kind, body: deleteOptionsName, bodyOptional: true, resp: statusName, codes: []string{"200"}, g: self})
	}
	e.addPath(paths, collection, ops, id, nsWord+r.Kind, tag, r.Kind, false, r.Namespaced)

	ops = nil
	if can["get"] {
		ops = append(ops, operation{method: "get", action: "get", verb: "read", desc: "read the specified " + r.Kind, resp: kindName, codes: []string{"200"}, g: self})
	}
	if can["update"] {
		ops = append(ops, operation{method: "put", action: "put", verb: "replace", desc: "replace the specified " + r.Kind, body: kindName, resp: kindName, codes: []string{"200", "201"}, g: self})
	}
	if can["delete"] {
		ops = append(ops, operation{method: "delete", action: "delete", verb: "delete", desc: "delete" + article + r.Kind, body: deleteOptionsName, bodyOptional: true, resp: statusName, codes: []string{"200", "202"}, g: self})
	}
	if can["patch"] {
		ops = append(ops, operation{method: "patch", action: "patch", verb: "patch", desc: "partially update the specified " + r.Kind, body: patchName, resp: kindName, codes: []string{"200", "201"}, g: self, patchTypes: patchTypes})
	}
	e.addPath(paths, item, ops, id, nsWord+r.Kind, tag, r.Kind, true, r.Namespaced)

	if r.Namespaced && can["list"] {
		ops = []operation{{method: "get", action: "list", verb: "list", desc: "list or watch objects of kind " + r.Kind, resp: listKindName, codes: []string{"200"}, g: self}}
		e.addPath(paths, prefix+"/"+r.Resource, ops, id, r.Kind+"ForAllNamespaces", tag, r.Kind, false, false)
	}

	sub := func(name, respName string, g gvk) {
		ops := []operation{
			{method: "get", action: "get", verb: "read", desc: "read " + name + " of the specified " + r.Kind, resp: respName, codes: []string{"200"}, g: g},
			{method: "put", action: "put", verb: "replace", desc: "replace " + name + " of the specified " + r.Kind, body: respName, resp: respName, codes: []string{"200", "201"}, g: g},
			{method: "patch", action: "patch", verb: "patch", desc: "partially update " + name + " of the specified " + r.Kind, body: patchName, resp: respName, codes: []string{"200", "201"}, g: g, patchTypes: patchTypes},
		}
		e.addPath(paths, item+"/"+name, ops, id, nsWord+r.Kind+upperFirst(name), tag, r.Kind, true, r.Namespaced)
	}
	if r.Scale != nil {
		sub("scale", scaleName, gvk{"autoscaling", "v1", "Scale"})
	}
	if r.Status {
		sub("status", kindName, self)
	}
}

// addPath writes one path item: its operations and the path-level
// parameters (name, namespace, pretty).
func (e *emitter) addPath(paths map[string]any, path string, ops []operation, id, idSuffix, tag, kind string, named, namespaced bool) {
	if len(ops) == 0 {
		return
	}
	item := map[string]any{}
	var params []any
	if named {
		params = append(params, e.param("name", "path", "name of the "+kind, "string", true))
	}
	if namespaced {
		params = append(params, e.param("namespace", "path", "object name and auth scope, such as for teams and projects", "string", true))
	}
	params = append(params, e.param("pretty", "query", paramDocs["pretty"], "string", false))
	item["parameters"] = params
	for _, op := range ops {
		item[op.method] = e.operation(op, op.verb+id+idSuffix, tag)
	}
	paths[path] = item
}

func (e *emitter) param(name, in, doc, typ string, required bool) map[string]any {
	p := map[string]any{"name": name, "in": in, "description": doc}
	if required {
		p["required"] = true
	}
	if e.v2 {
		p["type"], p["uniqueItems"] = typ, true
	} else {
		p["schema"] = map[string]any{"type": typ, "uniqueItems": true}
	}
	return p
}

func (e *emitter) operation(op operation, opID, tag string) map[string]any {
	m := map[string]any{
		"description":                     op.desc,
		"operationId":                     opID,
		"tags":                            []any{tag},
		"x-kubernetes-action":             op.action,
		"x-kubernetes-group-version-kind": op.g.obj(),
	}
	var params []any
	for _, p := range actionParams[op.action] {
		name := strings.TrimSuffix(p, "Patch")
		typ := paramTypes[name]
		if typ == "" {
			typ = "string"
		}
		params = append(params, e.param(name, "query", paramDocs[p], typ, false))
	}
	out := produces
	if op.action == "list" {
		out = producesList
	}
	consumes := []string{"*/*"}
	if op.patchTypes != nil {
		consumes = op.patchTypes
	}
	responses := map[string]any{"401": map[string]any{"description": "Unauthorized"}}
	if e.v2 {
		if op.body != "" {
			params = append(params, map[string]any{"name": "body", "in": "body", "required": !op.bodyOptional, "schema": e.ref(op.body)})
		}
		for _, c := range op.codes {
			responses[c] = map[string]any{"description": codeText[c], "schema": e.ref(op.resp)}
		}
		m["consumes"], m["produces"], m["schemes"] = anyStrings(consumes), anyStrings(out), []any{"https"}
	} else {
		if op.body != "" {
			content := map[string]any{}
			for _, ct := range consumes {
				content[ct] = map[string]any{"schema": e.ref(op.body)}
			}
			body := map[string]any{"content": content}
			if !op.bodyOptional {
				body["required"] = true
			}
			m["requestBody"] = body
		}
		for _, c := range op.codes {
			content := map[string]any{}
			for _, ct := range out {
				content[ct] = map[string]any{"schema": e.ref(op.resp)}
			}
			responses[c] = map[string]any{"description": codeText[c], "content": content}
		}
	}
	if len(params) > 0 {
		m["parameters"] = params
	}
	m["responses"] = responses
	return m
}

// verbSet is the set of verbs r serves (all of them when Verbs is nil).
func verbSet(r *resource.Resource) map[string]bool {
	verbs := r.Verbs
	if verbs == nil {
		verbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	}
	out := map[string]bool{}
	for _, v := range verbs {
		out[v] = true
	}
	return out
}

// groupCamel is the operation-id form of a group: "" is "Core", a
// ".k8s.io" suffix is dropped, and the dot- or dash-separated words are
// capitalised: "rbac.authorization.k8s.io" gives "RbacAuthorization",
// "stable.example.com" gives "StableExampleCom".
func groupCamel(group string) string {
	if group == "" {
		return "Core"
	}
	group = strings.TrimSuffix(group, ".k8s.io")
	var b strings.Builder
	for _, w := range strings.FieldsFunc(group, func(r rune) bool { return r == '.' || r == '-' }) {
		b.WriteString(upperFirst(w))
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]-'A'+'a') + s[1:]
}

// articleFor is the padded article before kind, as the apiserver's
// GetArticleForNoun chooses it: " an " before a vowel, " a " otherwise,
// and " " for a plural-looking kind ("Status" but not "Class").
func articleFor(kind string) string {
	if kind == "" || (strings.HasSuffix(kind, "s") && !strings.HasSuffix(kind, "ss")) {
		return " "
	}
	if strings.ContainsRune("aeiouAEIOU", rune(kind[0])) {
		return " an "
	}
	return " a "
}
