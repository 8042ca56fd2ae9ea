package apiserver

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/persist"
)

// BenchmarkRestore is a revisit of a sandbox holding 10,000 ConfigMaps of
// ~1 KiB (issue #16: ≤ 2× the empty revisit): NewDurable over a saved
// snapshot, then the first answer (GET /version) and a GET of one object.
// BenchmarkRestoreEmpty is the same over the default namespaces alone, its
// baseline in the same run.
func BenchmarkRestore(b *testing.B)      { benchRestore(b, benchObjects) }
func BenchmarkRestoreEmpty(b *testing.B) { benchRestore(b, 0) }

func benchRestore(b *testing.B, n int) {
	db := persist.NewMem()
	log := persist.New(db, persist.Options{})
	s, err := NewDurable(Options{}, log)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		serve(b, s, "POST", "/api/v1/namespaces/default/configmaps", benchBody(i), 201)
	}
	s.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := NewDurable(Options{}, persist.New(db, persist.Options{}))
		if err != nil {
			b.Fatal(err)
		}
		serve(b, s, "GET", "/version", nil, 200)
		want := 404
		if n > 0 {
			want = 200
		}
		serve(b, s, "GET", "/api/v1/namespaces/default/configmaps/cm-00000", nil, want)
		s.Close()
	}
}
