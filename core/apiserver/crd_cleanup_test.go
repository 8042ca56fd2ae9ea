package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// failWidgets is a Persister that refuses every write under a key prefix
// (a full disk, an IndexedDB quota) and lets the others through.
type failWidgets struct{ prefix string }

func (f failWidgets) Commit(ev store.Event) error {
	if strings.HasPrefix(ev.KV.Key, f.prefix) {
		return errors.New("disk full")
	}
	return nil
}

// TestCRDCleanupStopsOnAFailedWrite: when the CRD finalizer controller
// cannot delete the CRD's objects, the CRD keeps its finalizer (and the
// objects stay readable), as the real controller leaves it
// (InstanceDeletionFailed) until a retry succeeds; the next DELETE retries.
func TestCRDCleanupStopsOnAFailedWrite(t *testing.T) {
	s := New(Options{})
	seed(t, s)
	const crd = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com"
	const w1 = "/apis/example.com/v1/namespaces/team/widgets/w1"
	s.store.SetPersister(failWidgets{prefix: "/example.com/widgets/"})

	for _, step := range []struct {
		name            string
		crdCode, w1Code int
	}{
		{"delete while the disk refuses", 200, 200},
		{"retry once the disk is back", 404, 404},
	} {
		t.Run(step.name, func(t *testing.T) {
			if code, out := do(t, s, "DELETE", crd, "", ""); code != 200 {
				t.Fatalf("DELETE: %d %v", code, out)
			}
			code, out := do(t, s, "GET", crd, "", "")
			if code != step.crdCode {
				t.Fatalf("GET CRD: %d %v", code, out)
			}
			if code == 200 {
				md, _ := out["metadata"].(map[string]any)
				if fins, _ := md["finalizers"].([]any); len(fins) != 1 || fins[0] != "customresourcecleanup.apiextensions.k8s.io" {
					t.Errorf("finalizers: %v", md["finalizers"])
				}
			}
			if code, out := do(t, s, "GET", w1, "", ""); code != step.w1Code {
				t.Errorf("GET widget: %d %v", code, out)
			}
		})
		s.store.SetPersister(nil)
	}
}
