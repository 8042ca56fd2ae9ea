package roundtrip

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubesandbox/kubesandbox/core/builtin"
)

// TestWriteFuzzSeeds writes the real protobuf encodings of the samples as
// seeds of core/protobuf's FuzzDecode. Run with KUBESANDBOX_WRITE_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("KUBESANDBOX_WRITE_SEEDS") == "" {
		t.Skip("set KUBESANDBOX_WRITE_SEEDS=1 to write core/protobuf fuzz seeds")
	}
	dir := "../../core/protobuf/testdata/fuzz/FuzzDecode"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sch := protoScheme(t)
	write := func(body []byte) {
		name := fmt.Sprintf("%x", sha256.Sum256(body))[:16]
		src := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", body)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range cases {
		r := builtin.Lookup(tc.group, tc.plural)
		in, _ := json.Marshal(defaulted(t, r, tc.in))
		typed := reflect.New(reflect.TypeOf(tc.typ).Elem()).Interface().(runtime.Object)
		if err := json.Unmarshal(in, typed); err != nil {
			t.Fatal(err)
		}
		richMetadata(typed.(metav1.Object))
		write(encodeProto(t, sch, typed))
	}
	grace := int64(5)
	write(encodeProto(t, sch, &metav1.DeleteOptions{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "DeleteOptions"},
		GracePeriodSeconds: &grace, DryRun: []string{"All"}}))
}
