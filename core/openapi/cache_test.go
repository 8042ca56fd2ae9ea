package openapi

import (
	"fmt"
	"sync"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

func TestCache(t *testing.T) {
	var c Cache
	rs := builtin.Resources()
	d1 := c.For(rs)
	t.Run("same pointers reuse the documents", func(t *testing.T) {
		if c.For(append([]*resource.Resource(nil), rs...)) != d1 {
			t.Fatal("rebuilt")
		}
	})
	t.Run("documents are memoised", func(t *testing.T) {
		a, _ := d1.V3GroupVersion("api/v1")
		b, _ := d1.V3GroupVersion("api/v1")
		if &a[0] != &b[0] || &d1.V2()[0] != &d1.V2()[0] || &d1.V3Root()[0] != &d1.V3Root()[0] {
			t.Fatal("not memoised")
		}
		if _, ok := d1.V3GroupVersion("apis/nope/v1"); ok {
			t.Fatal("served an unknown group")
		}
	})
	t.Run("a new resource set rebuilds", func(t *testing.T) {
		d2 := c.For(append(rs, widget(t)))
		if d2 == d1 {
			t.Fatal("reused")
		}
		if _, ok := d2.V3GroupVersion("apis/stable.example.com/v1"); !ok {
			t.Fatal("no CRD document")
		}
		if _, ok := d1.V3GroupVersion("apis/stable.example.com/v1"); ok {
			t.Fatal("old documents changed")
		}
	})
	t.Run("documents equal the uncached ones", func(t *testing.T) {
		d := c.For(rs)
		gv, _ := V3GroupVersion(rs, "apis/apps/v1")
		cached, _ := d.V3GroupVersion("apis/apps/v1")
		if string(d.V3Root()) != string(V3Root(rs)) || string(cached) != string(gv) ||
			string(d.AggregatedDiscovery(true)) != string(AggregatedDiscovery(rs, true)) {
			t.Fatal("cached documents differ")
		}
	})
}

// TestCacheConcurrent: goroutines that ask at once (run under -race by
// make test) all get the one *Docs built for the resource set, and every
// document they read is the memoised one with the uncached bytes.
func TestCacheConcurrent(t *testing.T) {
	var c Cache
	rs := builtin.Resources()
	wantGV, _ := V3GroupVersion(rs, "apis/apps/v1")
	want := [][]byte{V3Root(rs), wantGV, V2(rs), AggregatedDiscovery(rs, true), AggregatedDiscovery(rs, false)}

	const n = 8
	docs := make([]*Docs, n)
	got := make([][][]byte, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d := c.For(rs)
			docs[i] = d
			read := []func() []byte{
				d.V3Root,
				func() []byte { b, _ := d.V3GroupVersion("apis/apps/v1"); return b },
				d.V2,
				func() []byte { return d.AggregatedDiscovery(true) },
				func() []byte { return d.AggregatedDiscovery(false) },
			}
			got[i] = make([][]byte, len(read))
			for k := range read { // each goroutine starts with another document
				j := (i + k) % len(read)
				got[i][j] = read[j]()
			}
		}(i)
	}
	wg.Wait()

	names := []string{"V3Root", "V3GroupVersion apps/v1", "V2", "AggregatedDiscovery(legacy)", "AggregatedDiscovery"}
	for i := 0; i < n; i++ {
		t.Run(fmt.Sprintf("goroutine %d", i), func(t *testing.T) {
			if docs[i] != docs[0] {
				t.Errorf("got another *Docs than goroutine 0: the set was built twice")
			}
			for j, b := range got[i] {
				if string(b) != string(want[j]) {
					t.Errorf("%s differs from the uncached document", names[j])
				} else if len(b) == 0 || &b[0] != &got[0][j][0] {
					t.Errorf("%s is not the memoised document goroutine 0 read", names[j])
				}
			}
		})
	}
}

func BenchmarkV3GroupVersions(b *testing.B) {
	rs := builtin.Resources()
	V2(rs) // load the built-in definitions
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		V3Root(rs) // builds every group/version document once
	}
}

func BenchmarkV2(b *testing.B) {
	rs := builtin.Resources()
	V2(rs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		V2(rs)
	}
}

func BenchmarkAggregatedDiscovery(b *testing.B) {
	rs := builtin.Resources()
	for i := 0; i < b.N; i++ {
		AggregatedDiscovery(rs, false)
	}
}
