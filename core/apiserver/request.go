package apiserver

import (
	"net/http"
	"strings"
)

// reqInfo is what a resource path says, as kube-apiserver's
// RequestInfoFactory reads it:
//
//	/apis/example.com/v1/namespaces/default/widgets/w1/status
//	      └ group ──┘ └v┘            └ ns ─┘ └ res ─┘ └name┘ └ sub ┘
type reqInfo struct {
	group, version    string
	namespace         string
	resource, name    string
	subresource       string
	verb              string // get list watch create update patch delete deletecollection
	legacyWatch       bool   // /watch/ path prefix
	namespaceInPath   bool
	groupOnly         bool // /apis/G
	versionOnly       bool // /api/v1 or /apis/G/V
	legacy            bool // /api
	tooManyParts      bool
	emptyResourcePath bool
}

// parsePath reads an /api or /apis path. ok is false for other paths.
func parsePath(method, path string, query func(string) string) (ri reqInfo, ok bool) {
	p := strings.Trim(path, "/")
	parts := strings.Split(p, "/")
	if len(parts) == 0 {
		return ri, false
	}
	switch parts[0] {
	case "api":
		ri.legacy = true
		parts = parts[1:]
		if len(parts) == 0 || parts[0] == "" {
			return ri, false // /api itself: handled by discovery
		}
		ri.version = parts[0]
		parts = parts[1:]
	case "apis":
		parts = parts[1:]
		if len(parts) == 0 || parts[0] == "" {
			return ri, false
		}
		ri.group = parts[0]
		parts = parts[1:]
		if len(parts) == 0 {
			ri.groupOnly = true
			return ri, true
		}
		ri.version = parts[0]
		parts = parts[1:]
	default:
		return ri, false
	}
	if len(parts) == 0 {
		ri.versionOnly = true
		return ri, true
	}
	if parts[0] == "watch" {
		ri.legacyWatch = true
		parts = parts[1:]
	}
	if len(parts) == 0 || parts[0] == "" {
		ri.emptyResourcePath = true
		return ri, true
	}
	if parts[0] == "namespaces" && len(parts) > 1 {
		ri.namespace = parts[1]
		ri.namespaceInPath = true
		if len(parts) > 2 && parts[2] != "status" && parts[2] != "finalize" {
			parts = parts[2:]
		}
	}
	ri.resource = parts[0]
	if len(parts) > 1 {
		ri.name = parts[1]
	}
	if len(parts) > 2 {
		ri.subresource = parts[2]
	}
	if len(parts) > 3 {
		ri.tooManyParts = true
	}
	if ri.resource == "namespaces" && ri.namespaceInPath && ri.name == "" {
		// /api/v1/namespaces/foo: the namespace object itself
		ri.name = ri.namespace
	}
	switch method {
	case http.MethodGet, http.MethodHead:
		switch {
		case ri.legacyWatch:
			ri.verb = "watch"
		case ri.name != "":
			ri.verb = "get"
		case isTrue(query("watch")):
			ri.verb = "watch"
		default:
			ri.verb = "list"
		}
	case http.MethodPost:
		ri.verb = "create"
	case http.MethodPut:
		ri.verb = "update"
	case http.MethodPatch:
		ri.verb = "patch"
	case http.MethodDelete:
		if ri.name != "" {
			ri.verb = "delete"
		} else {
			ri.verb = "deletecollection"
		}
	default:
		// kube's RequestInfo leaves the verb empty for other methods (a
		// custom resource's 405 then reads ` is not supported on ...`)
		ri.verb = ""
	}
	return ri, true
}

// isTrue is a boolean query parameter as apimachinery converts it
// (Convert_Slice_string_To_bool): every value but "0" and "false" (in any
// case) is true, so watch=maybe watches.
func isTrue(s string) bool { return s != "" && s != "0" && !strings.EqualFold(s, "false") }
