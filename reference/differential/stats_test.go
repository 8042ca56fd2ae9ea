package differential

// Corpus statistics behind the numbers in docs/differential.md (outcome
// classes of the reference per engine). Skipped unless STATS=1:
//
//	STATS=1 go test ./differential/ -run Stats -v

import (
	"fmt"
	"os"
	"testing"
)

func TestSMPStats(t *testing.T) {
	if os.Getenv("STATS") == "" {
		t.Skip()
	}
	errs := map[string]int{}
	for _, c := range patchCorpus(t, "smp", BuiltinKinds, smpCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.SMPPatch(k, o) }) {
		r := RefSMP(c.kind.Name, c.original, c.patch)
		if r.Object == nil {
			errs[fmt.Sprintf("%d %s", r.Code, r.Message)]++
		} else {
			errs["ok"]++
		}
	}
	for k, v := range errs {
		fmt.Println(v, k)
	}
}

func TestSSAStats(t *testing.T) {
	if os.Getenv("STATS") == "" {
		t.Skip()
	}
	cnt := map[string]int{}
	for _, k := range AllKinds {
		for i := 0; i < ssaSequencesPerKind; i++ {
			seq := NewGen(seed("ssa", k, i)).Sequence("x", k)
			var live []byte
			for _, st := range seq.Steps {
				r, err := refStep(t, k, live, st)
				if err != nil {
					t.Fatal(err)
				}
				key := k.Name + " " + st.Op
				if r.out.Object == nil {
					m := r.out.Message
					if len(m) > 70 {
						m = m[:70]
					}
					key += fmt.Sprintf(" %d %s", r.out.Code, m)
				} else {
					key += " ok"
				}
				cnt[key]++
				if r.stored != nil {
					live = r.stored
				}
			}
		}
	}
	for k, v := range cnt {
		fmt.Println(v, k)
	}
}

func TestJSONStats(t *testing.T) {
	if os.Getenv("STATS") == "" {
		t.Skip()
	}
	cnt := map[string]int{}
	for _, c := range patchCorpus(t, "json", AllKinds, jsonCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.JSONPatch(o) }) {
		r := RefJSONPatch(c.original, c.patch)
		cnt[fmt.Sprintf("json %d", r.Code)]++
	}
	for _, c := range patchCorpus(t, "merge", AllKinds, mergeCasesPerKind, func(g *Gen, k *Kind, o obj) any { return g.MergePatch(o) }) {
		r := RefMergePatch(c.original, c.patch)
		cnt[fmt.Sprintf("merge %d %s", r.Code, r.Message)]++
	}
	fmt.Println(cnt)
}
