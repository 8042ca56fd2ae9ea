package validation

import (
	"sort"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The cases below were recorded from k8s.io/apimachinery v0.37.2 (the
// code of the v1.37 API server): input, then the exact messages.

var nameGolden = []struct {
	fn, in string
	want   []string
}{
	{"IsDNS1123Subdomain", "example.com", []string{}},
	{"IsDNS1123Subdomain", "Bad_Name", []string{"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"IsDNS1123Subdomain", "a-", []string{"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"IsDNS1123Subdomain", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"must be no more than 253 characters"}},
	{"IsDNS1123Subdomain", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", []string{"must be no more than 253 characters", "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"IsDNS1123Label", "my-name", []string{}},
	{"IsDNS1123Label", "a.b", []string{"must not contain dots"}},
	{"IsDNS1123Label", "A", []string{"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}},
	{"IsDNS1123Label", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"must be no more than 63 characters"}},
	{"IsDNS1035Label", "my-name", []string{}},
	{"IsDNS1035Label", "1abc", []string{"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}},
	{"IsQualifiedName", "app", []string{}},
	{"IsQualifiedName", "example.com/MyName", []string{}},
	{"IsQualifiedName", "a/b/c", []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
	{"IsQualifiedName", "/a", []string{"prefix part must be non-empty"}},
	{"IsQualifiedName", "Example.com/a", []string{"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"IsQualifiedName", "example.com/", []string{"name part must be non-empty", "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
	{"IsQualifiedName", "a_", []string{"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
	{"IsQualifiedName", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", []string{"name part must be no more than 63 bytes"}},
	{"IsQualifiedName", "p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p.p/k", []string{"prefix part must be no more than 253 bytes"}},
	{"IsValidLabelValue", "", []string{}},
	{"IsValidLabelValue", "MyValue", []string{}},
	{"IsValidLabelValue", "not ok!", []string{"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
	{"IsValidLabelValue", "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", []string{"must be no more than 63 bytes"}},
	{"IsValidLabelValue", "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv_", []string{"must be no more than 63 bytes", "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
	{"pathSegment", "a", []string{}},
	{"pathSegment", ".", []string{"may not be '.'"}},
	{"pathSegment", "..", []string{"may not be '..'"}},
	{"pathSegment", "a/b%c", []string{"may not contain '/'", "may not contain '%'"}},
	{"pathSegment", "%", []string{"may not contain '%'"}},
	{"pathSegmentPrefix", ".", []string{}},
	{"pathSegmentPrefix", "a/", []string{"may not contain '/'"}},
	{"subdomainPrefix", "web-", []string{}},
	{"subdomainPrefix", "Web-", []string{"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"subdomainPrefix", "-", []string{"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"subdomainPrefix", "a-", []string{}},
	{"labelPrefix", "ns-", []string{}},
	{"labelPrefix", "a.b-", []string{"must not contain dots"}},
}

var nameFuncs = map[string]func(string) []string{
	"IsDNS1123Subdomain": IsDNS1123Subdomain,
	"IsDNS1123Label":     IsDNS1123Label,
	"IsDNS1035Label":     IsDNS1035Label,
	"IsQualifiedName":    IsQualifiedName,
	"IsValidLabelValue":  IsValidLabelValue,
	"pathSegment":        func(s string) []string { return NameIsPathSegment(s, false) },
	"pathSegmentPrefix":  func(s string) []string { return NameIsPathSegment(s, true) },
	"subdomainPrefix":    func(s string) []string { return NameIsDNSSubdomain(s, true) },
	"labelPrefix":        func(s string) []string { return NameIsDNSLabel(s, true) },
}

func TestNameChecksGolden(t *testing.T) {
	for _, c := range nameGolden {
		name := c.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		t.Run(c.fn+"/"+name, func(t *testing.T) {
			got := nameFuncs[c.fn](c.in)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// longAnnotations is metadata whose one annotation is 1 byte over 256 KiB.
var longAnnotations = `{"name":"a","namespace":"default","annotations":{"a":"` + strings.Repeat("x", 262144) + `"}}`

var metaGolden = []struct {
	in         string
	namespaced bool
	want       []string
}{
	{"{\"name\":\"Bad_Name\",\"namespace\":\"default\"}", true, []string{"metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"{\"name\":\"Bad_Name\",\"namespace\":\"default\"}", false, []string{"metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"w1\",\"namespace\":\"default\",\"labels\":{\"app\":\"not ok!\"}}", true, []string{"metadata.labels: Invalid value: \"not ok!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
	{"{\"name\":\"w1\",\"namespace\":\"default\",\"labels\":{\"app\":\"not ok!\"}}", false, []string{"metadata.labels: Invalid value: \"not ok!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"namespace\":\"default\"}", true, []string{"metadata.name: Required value: name or generateName is required"}},
	{"{\"namespace\":\"default\"}", false, []string{"metadata.name: Required value: name or generateName is required", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"generateName\":\"Web-\",\"name\":\"web-x1\",\"namespace\":\"default\"}", true, []string{"metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
	{"{\"generateName\":\"Web-\",\"name\":\"web-x1\",\"namespace\":\"default\"}", false, []string{"metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"x.y\"}", true, []string{"metadata.namespace: Invalid value: \"x.y\": must not contain dots"}},
	{"{\"name\":\"a\",\"namespace\":\"x.y\"}", false, []string{"metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"generation\":-1}", true, []string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"generation\":-1}", false, []string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"labels\":{\"a/b/c\":\"v\"}}", true, []string{"metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"labels\":{\"a/b/c\":\"v\"}}", false, []string{"metadata.labels: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"annotations\":{\"Example.com/Key\":\"ok\",\"bad key\":\"x\"}}", true, []string{"metadata.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"annotations\":{\"Example.com/Key\":\"ok\",\"bad key\":\"x\"}}", false, []string{"metadata.annotations: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"LONG", true, []string{"metadata.annotations: Too long: may not be more than 262144 bytes"}},
	{"LONG", false, []string{"metadata.annotations: Too long: may not be more than 262144 bytes", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"finalizers\":[\"orphan\",\"foregroundDeletion\",\"bad name\"]}", true, []string{"metadata.finalizers: Invalid value: \"bad name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"bad name\"]: finalizer orphan and foregroundDeletion cannot be both set"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"finalizers\":[\"orphan\",\"foregroundDeletion\",\"bad name\"]}", false, []string{"metadata.finalizers: Invalid value: \"bad name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\",\"bad name\"]: finalizer orphan and foregroundDeletion cannot be both set", "metadata.namespace: Forbidden: not allowed on this type"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"ownerReferences\":[{\"apiVersion\":\"v1\"},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"n\",\"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}]}", true, []string{"metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"\",\"name\":\"\",\"uid\":\"\"},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"n\",\"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for K/n and Event/e", "metadata.ownerReferences[0].kind: Required value: must not be empty", "metadata.ownerReferences[0].name: Required value: must not be empty", "metadata.ownerReferences[0].uid: Required value: must not be empty", "metadata.ownerReferences[1].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>", "metadata.ownerReferences[2]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner"}},
	{"{\"name\":\"a\",\"namespace\":\"default\",\"ownerReferences\":[{\"apiVersion\":\"v1\"},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"n\",\"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}]}", false, []string{"metadata.namespace: Forbidden: not allowed on this type", "metadata.ownerReferences: Invalid value: [{\"apiVersion\":\"v1\",\"kind\":\"\",\"name\":\"\",\"uid\":\"\"},{\"apiVersion\":\"a/b/c\",\"kind\":\"K\",\"name\":\"n\",\"uid\":\"u\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}]: Only one reference can have Controller set to true. Found \"true\" in references for K/n and Event/e", "metadata.ownerReferences[0].kind: Required value: must not be empty", "metadata.ownerReferences[0].name: Required value: must not be empty", "metadata.ownerReferences[0].uid: Required value: must not be empty", "metadata.ownerReferences[1].apiVersion: Invalid value: \"a/b/c\": must be <group>/<version> or <version>", "metadata.ownerReferences[2]: Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\",\"uid\":\"u2\",\"controller\":true}: /v1, Kind=Event is disallowed from being an owner"}},
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "LONG" {
		s = longAnnotations
	}
	m, err := jsonx.DecodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sortedMessages(l field.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	sort.Strings(out)
	return out
}

func TestValidateObjectMetaGolden(t *testing.T) {
	for _, c := range metaGolden {
		name := c.in
		if len(name) > 60 {
			name = name[:60]
		}
		if !c.namespaced {
			name += "/cluster"
		}
		t.Run(name, func(t *testing.T) {
			got := sortedMessages(ValidateObjectMeta(decode(t, c.in), c.namespaced, NameIsDNSSubdomain, field.NewPath("metadata")))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

var updateGolden = []struct {
	newMeta, oldMeta string
	want             []string
}{
	{"{\"name\":\"a\",\"namespace\":\"default\",\"resourceVersion\":\"5\",\"generation\":2,\"uid\":\"u1\",\"creationTimestamp\":\"2024-01-01T00:00:00Z\"}", "{\"name\":\"a\",\"namespace\":\"default\",\"generation\":2,\"uid\":\"u1\",\"creationTimestamp\":\"2024-01-01T00:00:00Z\"}", []string{}},
	{"{\"name\":\"b\",\"namespace\":\"other\",\"generation\":1,\"uid\":\"u2\",\"creationTimestamp\":\"2025-01-01T00:00:00Z\"}", "{\"name\":\"a\",\"namespace\":\"default\",\"generation\":2,\"uid\":\"u1\",\"creationTimestamp\":\"2024-01-01T00:00:00Z\"}", []string{"metadata.creationTimestamp: Invalid value: \"2025-01-01T00:00:00Z\": field is immutable", "metadata.generation: Invalid value: 1: must not be decremented", "metadata.name: Invalid value: \"b\": field is immutable", "metadata.namespace: Invalid value: \"other\": field is immutable", "metadata.resourceVersion: Invalid value: \"\": must be specified for an update", "metadata.uid: Invalid value: \"u2\": field is immutable"}},
	{"{\"name\":\"a\",\"resourceVersion\":\"5\",\"finalizers\":[\"x/b\",\"x/a\"],\"deletionTimestamp\":\"2024-01-02T00:00:00Z\",\"deletionGracePeriodSeconds\":0}", "{\"name\":\"a\",\"finalizers\":[\"x/a\"],\"deletionTimestamp\":\"2024-01-02T00:00:00Z\",\"deletionGracePeriodSeconds\":0}", []string{"metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"x/b\"}"}},
	{"{\"name\":\"a\",\"resourceVersion\":\"5\",\"deletionTimestamp\":\"2024-01-03T00:00:00Z\",\"deletionGracePeriodSeconds\":10}", "{\"name\":\"a\",\"deletionTimestamp\":\"2024-01-02T00:00:00Z\",\"deletionGracePeriodSeconds\":0}", []string{"metadata.deletionGracePeriodSeconds: Invalid value: 10: field is immutable", "metadata.deletionTimestamp: Invalid value: \"2024-01-03T00:00:00Z\": field is immutable"}},
	{"{\"name\":\"a\",\"resourceVersion\":\"5\",\"labels\":{\"k\":\"bad value\"}}", "{\"name\":\"a\"}", []string{"metadata.labels: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"}},
	// nil bad values print as null; a UID prints as JSON (HTML-escaped).
	{"{\"name\":\"a\",\"resourceVersion\":\"5\",\"uid\":\"u<>\"}", "{\"name\":\"a\",\"uid\":\"u1\",\"creationTimestamp\":\"2024-01-01T00:00:00Z\",\"deletionTimestamp\":\"2024-01-02T00:00:00Z\",\"deletionGracePeriodSeconds\":30}", []string{"metadata.creationTimestamp: Invalid value: null: field is immutable", "metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable", "metadata.deletionTimestamp: Invalid value: null: field is immutable", "metadata.uid: Invalid value: \"u\\u003c\\u003e\": field is immutable"}},
}

func TestValidateObjectMetaUpdateGolden(t *testing.T) {
	for i, c := range updateGolden {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			got := sortedMessages(ValidateObjectMetaUpdate(decode(t, c.newMeta), decode(t, c.oldMeta), field.NewPath("metadata")))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
