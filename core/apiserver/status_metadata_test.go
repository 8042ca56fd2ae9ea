package apiserver

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// A status write takes the written metadata but what the kind's status
// strategy keeps (resource.StatusKeeps): a ReplicaSet keeps none, a
// Deployment its labels, a Pod its owner references, a
// ValidatingAdmissionPolicy labels, annotations, finalizers and owner
// references, a custom resource all of it (kube's PrepareForUpdate of each
// status strategy; tests/conformance bi-status-metadata records them).
// The status writer owns what it wrote and was not reset.
func TestStatusWriteMetadata(t *testing.T) {
	const (
		ns    = "/api/v1/namespaces/team"
		apps  = "/apis/apps/v1/namespaces/team"
		vaps  = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies"
		owner = `{"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"0d1f2a3b-0000-4000-8000-000000000001"}`
		patch = `{"metadata":{"labels":{"a":"changed"},"annotations":{"n":"v"},"finalizers":["example.com/hold"],"ownerReferences":[` + owner + `]}}`
	)
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`
	rs := `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"r","labels":{"a":"b"}},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"r"}},"template":{"metadata":{"labels":{"app":"r"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	dep := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","labels":{"a":"b"}},"spec":{"replicas":0,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	vap := `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"v","labels":{"a":"b"}},"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}]},"validations":[{"expression":"true"}]}}`
	widget := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2","labels":{"a":"b"}},"spec":{"size":1}}`
	written := map[string]any{"labels": map[string]any{"a": "changed"}, "annotations": map[string]any{"n": "v"},
		"finalizers": []any{"example.com/hold"}, "ownerReferences": []any{decodeJSON(t, owner)}}
	for _, c := range []struct {
		name, coll, obj string
		kept            []string // metadata fields as created, not as written
	}{
		{"ReplicaSet: all of it from the body", apps + "/replicasets", rs, nil},
		{"Deployment: the stored labels", apps + "/deployments", dep, []string{"labels"}},
		{"Pod: the stored owner references", ns + "/pods", pod, []string{"ownerReferences"}},
		{"ValidatingAdmissionPolicy: ResetObjectMetaForStatus", vaps, vap, []string{"labels", "annotations", "finalizers", "ownerReferences"}},
		{"custom resource: all of the stored metadata", hooksWidgets, widget, []string{"labels", "annotations", "finalizers", "ownerReferences"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			seed(t, s)
			created := mustDo(t, s, 201, "POST", c.coll, hooksJSON, c.obj)
			path := c.coll + "/" + metaOf(created)["name"].(string)
			mustDo(t, s, 200, "PATCH", path+"/status", hooksMerge, patch)
			got := metaOf(mustDo(t, s, 200, "GET", path, "", ""))
			for k, w := range written {
				want := w
				if slices.Contains(c.kept, k) {
					want = metaOf(created)[k]
				}
				if !reflect.DeepEqual(got[k], want) {
					t.Errorf("metadata.%s = %v, want %v", k, got[k], want)
				}
			}
			owned := statusWriterFields(got)
			for k := range written {
				if _, ok := owned["f:"+k]; ok == slices.Contains(c.kept, k) {
					t.Errorf("status writer owns metadata.%s: %v; kept (reset) fields %v", k, ok, c.kept)
				}
			}
		})
	}
}

// statusWriterFields is f:metadata of the managedFields entry a status
// write made (nil when it owns no metadata, or made none: a write whose
// every change was reset changes nothing).
func statusWriterFields(m map[string]any) map[string]any {
	mf, _ := m["managedFields"].([]any)
	for _, e := range mf {
		e, _ := e.(map[string]any)
		if e["subresource"] != "status" || e["operation"] != "Update" {
			continue
		}
		f, _ := e["fieldsV1"].(map[string]any)
		md, _ := f["f:metadata"].(map[string]any)
		return md
	}
	return nil
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A CertificateSigningRequest's strategies reset its spec on every write
// and its status conditions on a status write (GetResetFields): its
// creator owns no spec field, a status writer no condition.
func TestCSRResetFields(t *testing.T) {
	s := New(Options{})
	created := mustDo(t, s, 201, "POST", csrPath, hooksJSON, `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest",
		"metadata":{"name":"c","labels":{"q":"r"}},"spec":{"request":"`+csrRequest(t)+`","signerName":"example.com/x","usages":["client auth"]}}`)
	if f := managerFields(created, ""); f["f:spec"] != nil || f["f:metadata"] == nil {
		t.Errorf("creator owns %v", f)
	}
	out := mustDo(t, s, 200, "PATCH", csrPath+"/c/status", hooksMerge,
		`{"metadata":{"labels":{"a":"b"}},"status":{"certificate":null,"conditions":[{"type":"Failed","status":"True","reason":"R","message":"m"}]}}`)
	f := managerFields(out, "status")
	st, _ := f["f:status"].(map[string]any)
	if f["f:spec"] != nil || st["f:conditions"] != nil || f["f:metadata"] == nil {
		t.Errorf("status writer owns %v", f)
	}
}

// managerFields is fieldsV1 of the Update entry of subresource sub.
func managerFields(obj map[string]any, sub string) map[string]any {
	mf, _ := metaOf(obj)["managedFields"].([]any)
	for _, e := range mf {
		e, _ := e.(map[string]any)
		if s, _ := e["subresource"].(string); s == sub && e["operation"] == "Update" {
			f, _ := e["fieldsV1"].(map[string]any)
			return f
		}
	}
	return nil
}
