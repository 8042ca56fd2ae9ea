package gen

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestCommittedSchemasAreFresh fails when core/builtin/schemas.json differs
// from a fresh generation. Fix: cd reference && go run ./cmd/genschema
func TestCommittedSchemasAreFresh(t *testing.T) {
	res, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	want, err := res.Doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../core/builtin/schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("core/builtin/schemas.json is stale (%d bytes, fresh generation %d bytes); run: cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json", len(got), len(want))
	}
	wantDocs, err := ColumnDocsGo()
	if err != nil {
		t.Fatal(err)
	}
	gotDocs, err := os.ReadFile("../../core/builtin/zz_columndocs.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotDocs, wantDocs) {
		t.Fatalf("core/builtin/zz_columndocs.go is stale; run: cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json")
	}
	wantZero, err := ZeroGo()
	if err != nil {
		t.Fatal(err)
	}
	gotZero, err := os.ReadFile("../../core/builtin/zz_zero.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotZero, wantZero) {
		t.Fatalf("core/builtin/zz_zero.go is stale; run: cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json")
	}
	descs, err := Descriptions(res.Doc)
	if err != nil {
		t.Fatal(err)
	}
	wantDescs, err := MarshalDescriptions(descs)
	if err != nil {
		t.Fatal(err)
	}
	gotDescs, err := os.ReadFile("../../core/builtin/descriptions.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotDescs, wantDescs) {
		t.Fatalf("core/builtin/descriptions.json is stale; run: cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json")
	}
}

// TestWarnings pins the known disagreements between the Go struct tags and
// the published apply schema, so a new one is noticed.
func TestWarnings(t *testing.T) {
	res, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// The review APIs have no apply configurations (create only).
		"io.k8s.api.authentication.v1.BoundObjectReference: not in the apply schema",
		"io.k8s.api.authentication.v1.SelfSubjectReview: not in the apply schema",
		"io.k8s.api.authentication.v1.SelfSubjectReviewStatus: not in the apply schema",
		// serviceaccounts/token's body: create only
		"io.k8s.api.authentication.v1.TokenRequest: not in the apply schema",
		"io.k8s.api.authentication.v1.TokenRequestSpec: not in the apply schema",
		"io.k8s.api.authentication.v1.TokenRequestStatus: not in the apply schema",
		"io.k8s.api.authentication.v1.TokenReview: not in the apply schema",
		"io.k8s.api.authentication.v1.TokenReviewSpec: not in the apply schema",
		"io.k8s.api.authentication.v1.TokenReviewStatus: not in the apply schema",
		"io.k8s.api.authentication.v1.UserInfo: not in the apply schema",
		"io.k8s.api.authorization.v1.FieldSelectorAttributes: not in the apply schema",
		"io.k8s.api.authorization.v1.LabelSelectorAttributes: not in the apply schema",
		"io.k8s.api.authorization.v1.LocalSubjectAccessReview: not in the apply schema",
		"io.k8s.api.authorization.v1.NonResourceAttributes: not in the apply schema",
		"io.k8s.api.authorization.v1.NonResourceRule: not in the apply schema",
		"io.k8s.api.authorization.v1.ResourceAttributes: not in the apply schema",
		"io.k8s.api.authorization.v1.ResourceRule: not in the apply schema",
		"io.k8s.api.authorization.v1.SelfSubjectAccessReview: not in the apply schema",
		"io.k8s.api.authorization.v1.SelfSubjectAccessReviewSpec: not in the apply schema",
		"io.k8s.api.authorization.v1.SelfSubjectRulesReview: not in the apply schema",
		"io.k8s.api.authorization.v1.SelfSubjectRulesReviewSpec: not in the apply schema",
		"io.k8s.api.authorization.v1.SubjectAccessReview: not in the apply schema",
		"io.k8s.api.authorization.v1.SubjectAccessReviewSpec: not in the apply schema",
		"io.k8s.api.authorization.v1.SubjectAccessReviewStatus: not in the apply schema",
		"io.k8s.api.authorization.v1.SubjectRulesReviewStatus: not in the apply schema",
		"io.k8s.api.autoscaling.v1.Scale: not in the apply schema",
		"io.k8s.api.autoscaling.v1.ScaleSpec: not in the apply schema",
		"io.k8s.api.autoscaling.v1.ScaleStatus: not in the apply schema",
		// +listType=atomic wins over patchMergeKey for apply.
		`io.k8s.api.batch.v1.JobStatus.conditions: patchMergeKey "type", list type "atomic" keys []`,
		// pods/binding's body: create only
		"io.k8s.api.core.v1.Binding: not in the apply schema",
		`io.k8s.api.core.v1.PodStatus.hostIPs: patchMergeKey "ip", list type "atomic" keys []`,
		"io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement: not in the apply schema",
	}
	if got := strings.Join(res.Warnings, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

func TestDefName(t *testing.T) {
	for _, tc := range []struct{ root, want string }{
		{"Namespace", "io.k8s.api.core.v1.Namespace"},
		{"CustomResourceDefinition", "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"},
	} {
		t.Run(tc.root, func(t *testing.T) {
			for _, r := range Roots() {
				if r.Name() == tc.root {
					if got := DefName(r); got != tc.want {
						t.Errorf("DefName = %q, want %q", got, tc.want)
					}
					return
				}
			}
			t.Fatalf("no root %s", tc.root)
		})
	}
}

// TestCommittedMetaIsFresh fails when core/protobuf/meta.json differs from
// a fresh generation. Fix: cd reference && go run ./cmd/genschema
func TestCommittedMetaIsFresh(t *testing.T) {
	doc, err := GenerateMeta()
	if err != nil {
		t.Fatal(err)
	}
	want, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../core/protobuf/meta.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("core/protobuf/meta.json is stale; run: cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json")
	}
}
