package differential

import (
	"fmt"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/patch"
)

// Corpus sizes per kind, and the committed agreement floors: the number
// of cases that agreed when the floor was last raised. Every known
// disagreement is listed with its reason in docs/differential.md; a
// change that loses agreement fails here, one that gains it should raise
// the floor.
const (
	smpCasesPerKind   = 150
	jsonCasesPerKind  = 30
	mergeCasesPerKind = 25

	smpFloor   = 447 // of 450
	jsonFloor  = 115 // of 120
	mergeFloor = 100 // of 100
)

// seed derives a case seed from an engine tag, a kind and an index.
func seed(tag string, k *Kind, i int) uint64 {
	var h uint64 = 1469598103934665603
	for _, c := range tag + "/" + k.Name {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h + uint64(i)
}

// patchCase is one generated original object and patch.
type patchCase struct {
	id              string
	kind            *Kind
	original, patch []byte
}

func patchCorpus(t *testing.T, tag string, kinds []*Kind, per int, mk func(g *Gen, k *Kind, o obj) any) []patchCase {
	var out []patchCase
	for _, k := range kinds {
		for i := 0; i < per; i++ {
			g := NewGen(seed(tag, k, i))
			o := g.Object(k)
			p := mk(g, k, o)
			orig, err := TypedOriginal(k.Name, mustJSON(o))
			if err != nil {
				t.Fatalf("%s/%s/%d: %v", tag, k.Name, i, err)
			}
			out = append(out, patchCase{fmt.Sprintf("%s/%s/%03d", tag, k.Name, i), k, orig, mustJSON(p)})
		}
	}
	return out
}

func oursSMP(k *Kind, original, p []byte) Outcome {
	res := builtin.Lookup(k.Group, k.Plural)
	if res == nil {
		return Outcome{Code: -1, Message: "no built-in " + k.Plural}
	}
	out, err := patch.StrategicMergePatch(original, p, res.SchemaOf())
	if err != nil {
		return apiOutcome(patch.ToAPIError(err))
	}
	return Outcome{Object: canonical(out)}
}

func oursJSONPatch(original, p []byte) Outcome {
	out, err := patch.JSONPatch(original, p)
	if err != nil {
		return apiOutcome(patch.ToAPIError(err))
	}
	return Outcome{Object: canonical(out)}
}

func oursMergePatch(original, p []byte) Outcome {
	out, err := patch.MergePatch(original, p)
	if err != nil {
		return apiOutcome(patch.ToAPIError(err))
	}
	return Outcome{Object: canonical(out)}
}

// safe runs f, turning a panic into an outcome that agrees with nothing.
func safe(f func() Outcome) (o Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = Outcome{Code: -2, Message: fmt.Sprint("panic: ", r)}
		}
	}()
	return f()
}

func TestStrategicMergePatch(t *testing.T) {
	cases := patchCorpus(t, "smp", BuiltinKinds, smpCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.SMPPatch(k, o) })
	tl := &tally{name: "strategic merge patch"}
	for _, c := range cases {
		ours := safe(func() Outcome { return oursSMP(c.kind, c.original, c.patch) })
		tl.checkRetry(c.id, ours, func() Outcome {
			return safe(func() Outcome { return RefSMP(c.kind.Name, c.original, c.patch) })
		})
	}
	tl.report(t, smpFloor)
}

func TestJSONPatch(t *testing.T) {
	cases := patchCorpus(t, "json", AllKinds, jsonCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.JSONPatch(o) })
	tl := &tally{name: "JSON patch"}
	for _, c := range cases {
		ours := safe(func() Outcome { return oursJSONPatch(c.original, c.patch) })
		ref := safe(func() Outcome { return RefJSONPatch(c.original, c.patch) })
		tl.check(c.id, ours, ref)
	}
	tl.report(t, jsonFloor)
}

func TestMergePatch(t *testing.T) {
	cases := patchCorpus(t, "merge", AllKinds, mergeCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.MergePatch(o) })
	tl := &tally{name: "merge patch"}
	for _, c := range cases {
		ours := safe(func() Outcome { return oursMergePatch(c.original, c.patch) })
		ref := safe(func() Outcome { return RefMergePatch(c.original, c.patch) })
		tl.check(c.id, ours, ref)
	}
	tl.report(t, mergeFloor)
}
