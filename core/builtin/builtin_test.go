package builtin

import (
	"slices"
	"testing"
)

func TestCatalogueSchemas(t *testing.T) {
	if err := check(); err != nil {
		t.Fatal(err)
	}
	for _, r := range Resources() {
		t.Run(r.Resource, func(t *testing.T) {
			if r.SchemaOf() == nil || r.SchemaOf().Properties["metadata"] == nil {
				t.Fatalf("schema of %s has no metadata property", r.Kind)
			}
			if r.SchemaOf().Properties["kind"] == nil || r.SchemaOf().Properties["apiVersion"] == nil {
				t.Errorf("schema of %s lacks kind/apiVersion", r.Kind)
			}
			if r.Hooks.Answer != nil {
				return // a virtual resource: no list, no table
			}
			if r.ListKind != r.Kind+"List" {
				t.Errorf("ListKind = %q", r.ListKind)
			}
			if len(r.PrinterColumns) == 0 || r.PrinterColumns[0].Description == "" {
				t.Errorf("first printer column lacks a description: %+v", r.PrinterColumns)
			}
			for _, c := range r.PrinterColumns {
				if c.Description == "" {
					t.Errorf("column %q: no description (missing columnDocs key?)", c.Name)
				}
			}
		})
	}
}

// TestSchemaLinks follows references through the linked graph: shared
// definitions appear once, and field-level extensions are overlaid.
func TestSchemaLinks(t *testing.T) {
	pod := Lookup("", "pods").SchemaOf()
	dep := Lookup("apps", "deployments").SchemaOf()
	podSpec := pod.Properties["spec"]
	tmplSpec := dep.Properties["spec"].Properties["template"].Properties["spec"]
	if podSpec == nil || tmplSpec == nil {
		t.Fatal("missing pod spec")
	}
	containers := podSpec.Properties["containers"]
	if containers.ListType != "map" || !slices.Equal(containers.ListMapKeys, []string{"name"}) ||
		containers.PatchStrategy != "merge" || containers.PatchMergeKey != "name" {
		t.Errorf("containers: %+v", containers)
	}
	if containers.Items != tmplSpec.Properties["containers"].Items {
		t.Errorf("Container definition is not shared between Pod and Deployment")
	}
	ports := containers.Items.Properties["ports"]
	if !slices.Equal(ports.ListMapKeys, []string{"containerPort", "protocol"}) || ports.PatchMergeKey != "containerPort" {
		t.Errorf("ports: %+v", ports)
	}
	strategy := dep.Properties["spec"].Properties["strategy"]
	if strategy.PatchStrategy != "retainKeys" || strategy.Properties["rollingUpdate"] == nil {
		t.Errorf("strategy: %+v", strategy)
	}
	if got := podSpec.Properties["volumes"].PatchStrategy; got != "merge,retainKeys" {
		t.Errorf("volumes patch strategy %q", got)
	}
	sel := dep.Properties["spec"].Properties["selector"]
	if sel.MapType != "atomic" {
		t.Errorf("LabelSelector map type %q, want atomic", sel.MapType)
	}
	fin := pod.Properties["metadata"].Properties["finalizers"]
	if fin.ListType != "set" || fin.PatchStrategy != "merge" {
		t.Errorf("finalizers: %+v", fin)
	}
	ts := pod.Properties["metadata"].Properties["creationTimestamp"]
	if ts.Type != "string" || ts.Format != "date-time" {
		t.Errorf("creationTimestamp: %+v", ts)
	}
	tp := Lookup("", "services").SchemaOf().Properties["spec"].Properties["ports"].Items.Properties["targetPort"]
	if !tp.IntOrString {
		t.Errorf("targetPort: %+v", tp)
	}
	crd := Lookup("apiextensions.k8s.io", "customresourcedefinitions").SchemaOf()
	v3 := crd.Properties["spec"].Properties["versions"].Items.Properties["schema"].Properties["openAPIV3Schema"]
	if !v3.PreserveUnknownFields || v3.Type != "object" {
		t.Errorf("openAPIV3Schema: %+v", v3)
	}
}

func TestDiscoveryFacts(t *testing.T) {
	for _, tc := range []struct {
		group, plural string
		namespaced    bool
		short, cats   []string
		status        bool
		scale         bool
		verbs         int
		selectable    []string
	}{
		{"", "pods", true, []string{"po"}, []string{"all"}, true, false, 8, []string{"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"}},
		{"", "namespaces", false, []string{"ns"}, nil, true, false, 7, []string{"status.phase", "name"}},
		{"", "secrets", true, nil, nil, false, false, 8, []string{"type"}},
		{"", "services", true, []string{"svc"}, []string{"all"}, true, false, 8, []string{"spec.clusterIP", "spec.type"}},
		{"", "configmaps", true, []string{"cm"}, nil, false, false, 8, nil},
		{"", "serviceaccounts", true, []string{"sa"}, nil, false, false, 8, nil},
		{"", "events", true, []string{"ev"}, nil, false, false, 8, nil},
		{"apps", "deployments", true, []string{"deploy"}, []string{"all"}, true, true, 8, nil},
		{"apps", "replicasets", true, []string{"rs"}, []string{"all"}, true, true, 8, []string{"status.replicas"}},
		{"apps", "statefulsets", true, []string{"sts"}, []string{"all"}, true, true, 8, nil},
		{"apps", "daemonsets", true, []string{"ds"}, []string{"all"}, true, false, 8, nil},
		{"batch", "jobs", true, nil, []string{"all"}, true, false, 8, []string{"status.successful"}},
		{"batch", "cronjobs", true, []string{"cj"}, []string{"all"}, true, false, 8, nil},
		{"apiextensions.k8s.io", "customresourcedefinitions", false, []string{"crd", "crds"}, []string{"api-extensions"}, true, false, 8, nil},
	} {
		t.Run(tc.plural, func(t *testing.T) {
			r := Lookup(tc.group, tc.plural)
			if r == nil {
				t.Fatal("not found")
			}
			if r.Namespaced != tc.namespaced || !slices.Equal(r.ShortNames, tc.short) || !slices.Equal(r.Categories, tc.cats) ||
				r.Status != tc.status || (r.Scale != nil) != tc.scale || len(r.Verbs) != tc.verbs {
				t.Errorf("got namespaced=%v short=%v cats=%v status=%v scale=%v verbs=%v",
					r.Namespaced, r.ShortNames, r.Categories, r.Status, r.Scale != nil, r.Verbs)
			}
			if tc.selectable != nil && !slices.Equal(r.SelectableFields, tc.selectable) {
				t.Errorf("selectable %v, want %v", r.SelectableFields, tc.selectable)
			}
		})
	}
}

func TestPrinterColumnNames(t *testing.T) {
	for _, tc := range []struct{ group, plural, want string }{
		{"", "pods", "Name Ready Status Restarts Age"},
		{"apps", "deployments", "Name Ready Up-to-date Available Age"},
		{"", "services", "Name Type Cluster-IP External-IP Port(s) Age"},
		{"", "namespaces", "Name Status Age"},
		{"batch", "jobs", "Name Status Completions Duration Age"},
		{"", "events", "Last Seen Type Reason Object Message"},
	} {
		t.Run(tc.plural, func(t *testing.T) {
			var names []string
			for _, c := range Lookup(tc.group, tc.plural).PrinterColumns {
				if c.Priority == 0 {
					names = append(names, c.Name)
				}
			}
			if got := joinSpace(names); got != tc.want {
				t.Errorf("priority-0 columns %q, want %q", got, tc.want)
			}
		})
	}
}

func joinSpace(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

// TestResourcesIsolated checks callers get their own copies.
func TestResourcesIsolated(t *testing.T) {
	a := Lookup("", "pods")
	a.ShortNames[0] = "changed"
	a.PrinterColumns[0].Name = "changed"
	b := Lookup("", "pods")
	if b.ShortNames[0] != "po" || b.PrinterColumns[0].Name != "Name" {
		t.Errorf("catalogue shared with callers: %v %v", b.ShortNames, b.PrinterColumns[0].Name)
	}
}
