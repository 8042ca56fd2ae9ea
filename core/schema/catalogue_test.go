package schema

import (
	"math/rand"
	"reflect"
	"sort"
	"testing"
)

// catalogueDocs: the built-in document, and a small one with every
// linking case (a null definition, an alias, a reference with sibling
// keywords in both forms, a cycle).
func catalogueDocs(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"builtin": builtinDoc(t),
		"cases": []byte(`{"definitions":{
			"a":{"type":"object","properties":{"b":{"$ref":"#/definitions/b"},"d":{"$ref":"d","description":"via alias"},
				"p":{"allOf":[{"$ref":"b"}],"default":{}},"self":{"$ref":"a"},"l":{"type":"array","items":{"$ref":"c"}}}},
			"b":{"type":"object","properties":{"k":{"type":"string"},"back":{"$ref":"a"}}},
			"c":null,"d":{"$ref":"b"},"lone":{"type":"string"}}}`),
	}
}

func sortedNames(m map[string]*Schema) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestCatalogueGetIsLoad(t *testing.T) {
	for doc, b := range catalogueDocs(t) {
		t.Run(doc, func(t *testing.T) {
			want, err := Load(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range sortedNames(want) {
				got, err := NewCatalogue(b).Get(name) // alone: only its closure
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !reflect.DeepEqual(got, want[name]) {
					t.Errorf("%s: Get differs from Load", name)
				}
			}
			if got, err := NewCatalogue(b).Get("no.such.Definition"); got != nil || err != nil {
				t.Errorf("unknown definition: %v, %v", got, err)
			}
		})
	}
}

func TestCatalogueAnyOrderIsOneGraph(t *testing.T) {
	for doc, b := range catalogueDocs(t) {
		t.Run(doc, func(t *testing.T) {
			want, err := Load(b)
			if err != nil {
				t.Fatal(err)
			}
			names := sortedNames(want)
			rand.New(rand.NewSource(16)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
			c := NewCatalogue(b)
			got := map[string]*Schema{}
			for _, n := range names[:len(names)/2] {
				if got[n], err = c.Get(n); err != nil {
					t.Fatal(err)
				}
			}
			all, err := c.All()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(all, want) {
				t.Fatal("All after some Gets differs from Load")
			}
			for n, s := range got {
				if all[n] != s {
					t.Errorf("%s: All gives another node than the earlier Get", n)
				}
			}
			for _, n := range names[len(names)/2:] {
				if s, _ := c.Get(n); s != all[n] {
					t.Errorf("%s: Get after All gives another node", n)
				}
			}
		})
	}
}

func TestCatalogueDecodesOnlyTheClosure(t *testing.T) {
	c := NewCatalogue(builtinDoc(t))
	ns, err := c.Get("io.k8s.api.core.v1.Namespace")
	if err != nil || ns == nil || ns.Properties["metadata"] == nil {
		t.Fatalf("Namespace: %v, %v", ns, err)
	}
	if n, total := len(c.l.defs), len(c.spans); n > 30 || n*10 > total {
		t.Errorf("decoded %d of %d definitions for a Namespace", n, total)
	}
}

func TestCatalogueRejectsMalformed(t *testing.T) {
	for name, doc := range map[string]string{
		"not json":          `{"definitions":`,
		"not an object":     `[]`,
		"definitions list":  `{"definitions":[]}`,
		"type number":       `{"definitions":{"a":{"type":1}}}`,
		"unterminated":      `{"definitions":{"a":{"type":"x}}}`,
		"bad maxLength":     `{"definitions":{"a":{"maxLength":1.5}}}`,
		"dangling ref":      `{"definitions":{"a":{"$ref":"nope"}}}`,
		"no colon":          `{"definitions":{"a" {}}}`,
		"value of no bytes": `{"definitions":{"a":}}`,
		"input after":       `{"definitions":{"a":{}}}x`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Load([]byte(doc)); err == nil {
				t.Fatal("Load accepts it: the case tests nothing")
			}
			c := NewCatalogue([]byte(doc))
			if _, err := c.All(); err == nil {
				t.Fatal("All accepted")
			}
			if _, err := c.Get("a"); err == nil {
				t.Fatal("Get after a failed All accepted")
			}
		})
	}
}

// BenchmarkCatalogue: a Namespace's closure against the whole document
// (Load), what a first visit's bootstrap gains.
func BenchmarkCatalogue(b *testing.B) {
	doc := builtinDoc(b)
	b.Run("namespace", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := NewCatalogue(doc).Get("io.k8s.api.core.v1.Namespace"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Load(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
