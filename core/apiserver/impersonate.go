package apiserver

import (
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// Impersonation (kubectl --as, --as-group, --as-uid; client-go's
// rest.Config.Impersonate), as kube-apiserver v1.37.2's impersonation
// filter (k8s.io/apiserver endpoints/filters/impersonation) answers it
// when everyone may impersonate anyone (authorization is off here):
//
//	Impersonate-User: jane                → jane in [system:authenticated]
//	Impersonate-User: jane
//	Impersonate-Group: devs               → jane in [devs system:authenticated]
//	Impersonate-User: system:serviceaccount:ns1:robot
//	                                      → [system:serviceaccounts system:serviceaccounts:ns1 system:authenticated]
//	Impersonate-User: system:node:n1      → [system:nodes system:authenticated]
//	Impersonate-User: system:anonymous    → [system:unauthenticated]
//	Impersonate-Uid: u1, Impersonate-Extra-<key>: v (key lower-cased, %-decoded)
//
// Groups given replace the service account's or node's; a request with
// groups, uid or extra but no user is a 400.
const (
	impersonateUser  = "Impersonate-User"
	impersonateUID   = "Impersonate-Uid"
	impersonateGroup = "Impersonate-Group"
	impersonateExtra = "Impersonate-Extra-"
)

// impersonated is the user the Impersonate-* headers of h ask for; ok is
// false when they ask for none.
func impersonated(h http.Header) (u resource.User, ok bool, err error) {
	name, uid, groups := h.Get(impersonateUser), h.Get(impersonateUID), h.Values(impersonateGroup)
	var extra map[string][]string
	for k, vs := range h {
		if strings.HasPrefix(k, impersonateExtra) && len(vs) > 0 {
			if extra == nil {
				extra = map[string][]string{}
			}
			key := strings.ToLower(k[len(impersonateExtra):])
			if unescaped, err := url.PathUnescape(key); err == nil {
				key = unescaped
			}
			extra[key] = append(extra[key], vs...)
		}
	}
	if name == "" {
		if uid != "" || len(groups) > 0 || len(extra) > 0 {
			return nil, false, apierr.BadRequest("requested " + wantedUserString(uid, groups, extra) + " without impersonating a user name")
		}
		return nil, false, nil
	}
	if len(groups) == 0 {
		if ns, ok := serviceAccountNamespace(name); ok {
			groups = []string{"system:serviceaccounts", "system:serviceaccounts:" + ns}
		} else if node, ok := strings.CutPrefix(name, "system:node:"); ok && len(validation.IsDNS1123Subdomain(node)) == 0 {
			groups = []string{"system:nodes"}
		}
	}
	switch {
	case name == "system:anonymous":
		if !slices.Contains(groups, "system:unauthenticated") {
			groups = append(groups, "system:unauthenticated")
		}
	case !slices.Contains(groups, "system:unauthenticated") && !slices.Contains(groups, "system:authenticated"):
		groups = append(groups, "system:authenticated")
	}
	u = resource.User{"username": name, "groups": anyOf(groups)}
	if uid != "" {
		u["uid"] = uid
	}
	if len(extra) > 0 {
		x := map[string]any{}
		for k, vs := range extra {
			x[k] = anyOf(vs)
		}
		u["extra"] = x
	}
	return u, true, nil
}

// serviceAccountNamespace is serviceaccount.SplitUsername's namespace of
// "system:serviceaccount:NS:NAME" (NS a DNS label, NAME a DNS subdomain).
func serviceAccountNamespace(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "system:serviceaccount:")
	parts := strings.Split(rest, ":")
	if !ok || len(parts) != 2 || len(validation.IsDNS1123Label(parts[0])) > 0 || len(validation.IsDNS1123Subdomain(parts[1])) > 0 {
		return "", false
	}
	return parts[0], true
}

// wantedUserString is Go's %#v of the *user.DefaultInfo kube names in the
// 400, e.g. &user.DefaultInfo{Name:"", UID:"u1", Groups:[]string{"devs"}, Extra:map[string][]string(nil)}.
func wantedUserString(uid string, groups []string, extra map[string][]string) string {
	strs := func(l []string) string {
		if l == nil {
			return "[]string(nil)"
		}
		q := make([]string, len(l))
		for i, s := range l {
			q[i] = strconv.Quote(s)
		}
		return "[]string{" + strings.Join(q, ", ") + "}"
	}
	x := "map[string][]string(nil)"
	if len(extra) > 0 {
		keys := make([]string, 0, len(extra))
		for k := range extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			keys[i] = strconv.Quote(k) + ":" + strs(extra[k])
		}
		x = "map[string][]string{" + strings.Join(keys, ", ") + "}"
	}
	return `&user.DefaultInfo{Name:"", UID:` + strconv.Quote(uid) + ", Groups:" + strs(groups) + ", Extra:" + x + "}"
}

func anyOf(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}
