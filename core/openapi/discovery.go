package openapi

import (
	"sort"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

// AggregatedDiscoveryContentType is the Content-Type of an aggregated
// discovery response in JSON.
const AggregatedDiscoveryContentType = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// The apidiscovery.k8s.io/v2 types (k8s.io/api/apidiscovery/v2), with
// their JSON tags, so that fields come out in the real server's order.
type (
	discoveryList struct {
		Kind       string           `json:"kind"`
		APIVersion string           `json:"apiVersion"`
		Metadata   struct{}         `json:"metadata"`
		Items      []discoveryGroup `json:"items"`
	}
	discoveryGroup struct {
		Metadata groupMeta          `json:"metadata"`
		Versions []discoveryVersion `json:"versions,omitempty"`
	}
	groupMeta struct {
		Name string `json:"name,omitempty"`
	}
	discoveryVersion struct {
		Version   string              `json:"version"`
		Resources []discoveryResource `json:"resources,omitempty"`
		Freshness string              `json:"freshness,omitempty"`
	}
	discoveryResource struct {
		Resource         string                 `json:"resource"`
		ResponseKind     *responseKind          `json:"responseKind,omitempty"`
		Scope            string                 `json:"scope"`
		SingularResource string                 `json:"singularResource"`
		Verbs            []string               `json:"verbs"`
		ShortNames       []string               `json:"shortNames,omitempty"`
		Categories       []string               `json:"categories,omitempty"`
		Subresources     []discoverySubresource `json:"subresources,omitempty"`
	}
	discoverySubresource struct {
		Subresource  string        `json:"subresource"`
		ResponseKind *responseKind `json:"responseKind,omitempty"`
		Verbs        []string      `json:"verbs"`
	}
	responseKind struct {
		Group   string `json:"group"`
		Version string `json:"version"`
		Kind    string `json:"kind"`
	}
)

// Verb orders of discovery documents: built-ins list their verbs sorted,
// the apiextensions server in its own order.
var (
	builtinVerbs     = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	crdVerbs         = []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
	subresourceVerbs = []string{"get", "patch", "update"}
)

// groupPriority is the aggregator's GroupPriorityMinimum of the built-in
// groups (kube-aggregator's default APIService priorities); groups are
// listed by falling priority, then by name. CustomResourceDefinition
// groups have 1000.
var groupPriority = map[string]int{
	"": 18000, "apps": 17800, "events.k8s.io": 17750, "authentication.k8s.io": 17700,
	"authorization.k8s.io": 17600, "autoscaling": 17500, "batch": 17400, "certificates.k8s.io": 17300,
	"networking.k8s.io": 17200, "policy": 17100, "rbac.authorization.k8s.io": 17000, "storage.k8s.io": 16800,
	"apiextensions.k8s.io": 16700, "admissionregistration.k8s.io": 16700, "scheduling.k8s.io": 16600,
	"coordination.k8s.io": 16500, "node.k8s.io": 16300, "discovery.k8s.io": 16200,
	"flowcontrol.apiserver.k8s.io": 16100, "internal.apiserver.k8s.io": 16000, "resource.k8s.io": 15900,
	"storagemigration.k8s.io": 15800,
}

func priorityOf(group string, crd bool) int {
	if p, ok := groupPriority[group]; ok && !crd {
		return p
	}
	return 1000
}

// AggregatedDiscovery is the apidiscovery.k8s.io/v2 APIGroupDiscoveryList
// served on /api (legacy: the core group) or /apis (every other group),
// e.g. for /apis
//
//	{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},
//	 "items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[
//	   {"resource":"deployments","responseKind":{"group":"apps","version":"v1","kind":"Deployment"},
//	    "scope":"Namespaced","singularResource":"deployment","verbs":[...],"shortNames":["deploy"],
//	    "categories":["all"],"subresources":[{"subresource":"scale","responseKind":
//	    {"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]},...]}],
//	   "freshness":"Current"}]}]}
func AggregatedDiscovery(resources []*resource.Resource, legacy bool) []byte {
	type groupInfo struct {
		name     string
		priority int
		versions map[string][]*resource.Resource
	}
	groups := map[string]*groupInfo{}
	for _, r := range sortResources(resources) {
		if legacy != (r.Group == "") {
			continue
		}
		g := groups[r.Group]
		if g == nil {
			g = &groupInfo{name: r.Group, priority: priorityOf(r.Group, r.CRD), versions: map[string][]*resource.Resource{}}
			groups[r.Group] = g
		}
		g.versions[r.Version] = append(g.versions[r.Version], r)
	}
	list := discoveryList{Kind: "APIGroupDiscoveryList", APIVersion: "apidiscovery.k8s.io/v2", Items: []discoveryGroup{}}
	order := make([]*groupInfo, 0, len(groups))
	for _, g := range groups {
		order = append(order, g)
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].priority != order[j].priority {
			return order[i].priority > order[j].priority
		}
		return order[i].name < order[j].name
	})
	for _, g := range order {
		versions := make([]string, 0, len(g.versions))
		for v := range g.versions {
			versions = append(versions, v)
		}
		sort.Slice(versions, func(i, j int) bool { return CompareKubeAwareVersions(versions[i], versions[j]) > 0 })
		item := discoveryGroup{Metadata: groupMeta{Name: g.name}}
		for _, v := range versions {
			dv := discoveryVersion{Version: v, Freshness: "Current"}
			for _, r := range g.versions[v] { // sorted by resource
				dv.Resources = append(dv.Resources, discoveryEntry(r))
			}
			item.Versions = append(item.Versions, dv)
		}
		list.Items = append(list.Items, item)
	}
	return marshal(list)
}

func discoveryEntry(r *resource.Resource) discoveryResource {
	scope := "Cluster"
	if r.Namespaced {
		scope = "Namespaced"
	}
	verbs := r.Verbs
	if verbs == nil {
		verbs = builtinVerbs
		if r.CRD {
			verbs = crdVerbs
		}
	}
	// A built-in's own kind names no group/version (the installer's
	// APIResource leaves them empty when they are the group version's;
	// kube-apiserver v1.37.2 answers {"group":"","version":"","kind":"Pod"});
	// the apiextensions server names them for a custom resource.
	kind := &responseKind{Kind: r.Kind}
	if r.CRD {
		kind = &responseKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
	}
	d := discoveryResource{
		Resource:         r.Resource,
		ResponseKind:     kind,
		Scope:            scope,
		SingularResource: r.Singular,
		Verbs:            append([]string{}, verbs...),
		ShortNames:       r.ShortNames,
		Categories:       r.Categories,
	}
	status := discoverySubresource{Subresource: "status", ResponseKind: kind, Verbs: subresourceVerbs}
	scale := discoverySubresource{Subresource: "scale", ResponseKind: &responseKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, Verbs: subresourceVerbs}
	if r.CRD {
		// the apiextensions server lists status before scale
		if r.Status {
			d.Subresources = append(d.Subresources, status)
		}
		if r.Scale != nil {
			d.Subresources = append(d.Subresources, scale)
		}
		return d
	}
	// Built-in subresources (status, scale and the kind's own: a Pod's
	// binding and eviction, a ServiceAccount's token) come sorted by name,
	// as the installer sorts its paths.
	if r.Scale != nil {
		d.Subresources = append(d.Subresources, scale)
	}
	if r.Status {
		d.Subresources = append(d.Subresources, status)
	}
	for _, sub := range r.Subresources {
		d.Subresources = append(d.Subresources, discoverySubresource{Subresource: sub.Name,
			ResponseKind: &responseKind{Group: sub.Group, Version: sub.Version, Kind: sub.Kind}, Verbs: append([]string{}, sub.Verbs...)})
	}
	sort.SliceStable(d.Subresources, func(i, j int) bool { return d.Subresources[i].Subresource < d.Subresources[j].Subresource })
	return d
}

// CompareKubeAwareVersions orders versions as Kubernetes does
// (apimachinery's CompareKubeAwareVersionStrings): GA before beta before
// alpha, then by major and minor number, Kubernetes-like versions before
// others: v2, v1, v1beta2, v1beta1, v1alpha1, foo. It is positive when a
// sorts before b.
func CompareKubeAwareVersions(a, b string) int {
	if a == b {
		return 0
	}
	amaj, atyp, amin, aok := parseKubeVersion(a)
	bmaj, btyp, bmin, bok := parseKubeVersion(b)
	switch {
	case !aok && !bok:
		return strings.Compare(b, a)
	case !aok:
		return -1
	case !bok:
		return 1
	}
	if atyp != btyp {
		return atyp - btyp
	}
	if amaj != bmaj {
		return cmpInt(amaj, bmaj)
	}
	return cmpInt(amin, bmin)
}

func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// parseKubeVersion reads v as apimachinery's `^v([\d]+)(?:(alpha|beta)([\d]+))?$`
// does (typ: 0 alpha, 1 beta, 2 GA), without a regular expression: discovery
// sorts versions while the server starts, and under WebAssembly the first
// regular expression of a start costs the regexp package's compile
// (docs/bench.md "Start-up: nothing compiled that the first answer does
// not run").
func parseKubeVersion(v string) (major, typ, minor int, ok bool) {
	rest, found := strings.CutPrefix(v, "v")
	n := leadingDigits(rest)
	if !found || n == 0 {
		return 0, 0, 0, false
	}
	var err error
	if major, err = strconv.Atoi(rest[:n]); err != nil {
		return 0, 0, 0, false
	}
	rest = rest[n:]
	switch {
	case rest == "":
		return major, 2, 0, true
	case strings.HasPrefix(rest, "alpha"):
		typ, rest = 0, rest[len("alpha"):]
	case strings.HasPrefix(rest, "beta"):
		typ, rest = 1, rest[len("beta"):]
	default:
		return 0, 0, 0, false
	}
	if n := leadingDigits(rest); n == 0 || n != len(rest) {
		return 0, 0, 0, false
	}
	if minor, err = strconv.Atoi(rest); err != nil {
		return 0, 0, 0, false
	}
	return major, typ, minor, true
}

// leadingDigits is how many ASCII digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// AggregatedDiscoveryMedia tells whether a request for /api or /apis with
// this Accept header gets aggregated discovery, and in which media type
// ("application/json" or "application/yaml").
//
// The rule is kube-apiserver 1.37's (WrapAggregatedDiscoveryToHandler with
// DiscoveryEndpointRestrictions): clauses are taken in goautoneg's order
// (falling q, but a specific type or subtype before a wildcard whatever
// its q); the first clause that matches a served media type and
// carries g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList selects the
// aggregated document. A clause without those parameters is not
// acceptable to the aggregated endpoint and is skipped, so a later
// aggregated clause still wins; v2beta1 is no longer served
// (AggregatedDiscoveryRemoveBetaType is locked on) and, like a request
// without any aggregated clause, falls back to the unaggregated
// APIVersions/APIGroupList. Protobuf and CBOR clauses are skipped as this
// server does not encode those. For example
//
//	application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json
//
// (client-go's header) gives ("application/json", true), and
// "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList" gives false.
func AggregatedDiscoveryMedia(accept string) (string, bool) {
	for _, c := range parseAccept(accept) {
		if c.params["g"] != "apidiscovery.k8s.io" || c.params["v"] != "v2" || c.params["as"] != "APIGroupDiscoveryList" {
			continue
		}
		if c.params["sv"] != "" {
			continue
		}
		stream := c.params["stream"]
		if stream != "" && stream != "watch" {
			continue
		}
		switch {
		case c.typ == "*" && c.sub == "*", c.typ == "application" && (c.sub == "*" || c.sub == "json"):
			return "application/json", true
		case c.typ == "application" && c.sub == "yaml" && stream == "":
			// YAML has no stream serializer, so stream=watch rules it out.
			return "application/yaml", true
		}
	}
	return "", false
}

type acceptClause struct {
	typ, sub string
	q        float64
	params   map[string]string
}

// parseAccept splits an Accept header as goautoneg.ParseAccept does:
// clauses "type/subtype;k=v", q defaulting to 1, sorted by falling q with
// specific types before wildcards (see acceptSlice); malformed clauses
// are dropped.
func parseAccept(header string) []acceptClause {
	var out []acceptClause
	for _, part := range strings.Split(header, ",") {
		part = strings.Trim(part, " ")
		if part == "" {
			continue
		}
		fields := strings.Split(part, ";")
		mt := strings.Trim(fields[0], " ")
		c := acceptClause{q: 1, params: map[string]string{}}
		typ, sub, found := strings.Cut(mt, "/")
		switch {
		case !found && typ == "*":
			c.typ, c.sub = "*", "*"
		case !found, strings.Contains(sub, "/"):
			continue
		default:
			c.typ, c.sub = strings.Trim(typ, " "), strings.Trim(sub, " ")
		}
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(p, "=")
			if !ok || strings.Contains(v, "=") {
				continue
			}
			k = strings.Trim(k, " ")
			if k == "q" {
				q, _ := strconv.ParseFloat(v, 32)
				c.q = q
				continue
			}
			c.params[k] = strings.Trim(v, " ")
		}
		out = append(out, c)
	}
	sort.Sort(acceptSlice(out))
	return out
}

// acceptSlice sorts clauses with goautoneg's own (quirky) order: its Less
// puts a specific type or subtype before a wildcard whatever their q, and
// it is used with sort.Sort, as here, so the order is the same.
type acceptSlice []acceptClause

func (s acceptSlice) Len() int      { return len(s) }
func (s acceptSlice) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s acceptSlice) Less(i, j int) bool {
	a, b := s[i], s[j]
	if a.q > b.q {
		return true
	}
	if a.typ != "*" && b.typ == "*" {
		return true
	}
	return a.sub != "*" && b.sub == "*"
}
