package differential

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	jsonpatchv4 "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/schema"
	"github.com/kubesandbox/kubesandbox/patch"
	"github.com/kubesandbox/kubesandbox/patch/fieldmanager"
)

const (
	ssaSequencesPerKind = 75
	ssaFloor            = 1364 // agreeing steps, of 1364
	ssaSequenceFloor    = 300  // sequences agreeing at every step, of 300
)

// now is the time our field manager stamps; times are compared by
// presence only (the reference stamps time.Now()).
var now = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func oursManager(t *testing.T, k *Kind) *fieldmanager.Manager {
	t.Helper()
	var opts fieldmanager.Options
	if k.CRD {
		sj, err := WidgetSchemaJSON()
		if err != nil {
			t.Fatal(err)
		}
		raw, err := jsonx.Decode(sj)
		if err != nil {
			t.Fatal(err)
		}
		s, err := schema.FromCRD(raw)
		if err != nil {
			t.Fatal(err)
		}
		opts = fieldmanager.Options{GroupVersion: k.APIVersion, Kind: k.Name, Schema: s,
			ResetFields: map[string][][]string{"": {{"status"}}, "status": {{"spec"}}},
			Defaulter:   func(o map[string]any) { schema.Default(s, o) }}
	} else {
		res := builtin.Lookup(k.Group, k.Plural)
		if res == nil {
			t.Fatalf("no built-in %s", k.Plural)
		}
		opts = fieldmanager.Options{GroupVersion: k.APIVersion, Kind: k.Name, Schema: res.SchemaOf(),
			ResetFields:     map[string][][]string{"": {{"status"}}},
			EmptyListResets: true,
			Zero:            func() map[string]any { return builtin.ZeroObject(k.Name) }}
	}
	m, err := fieldmanager.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	refFMMu sync.Mutex
	refFMs  = map[string]*managedfields.FieldManager{}
)

func refManager(t *testing.T, k *Kind, sub string) *managedfields.FieldManager {
	refFMMu.Lock()
	defer refFMMu.Unlock()
	if fm, ok := refFMs[k.Name+"/"+sub]; ok {
		return fm
	}
	fm, err := RefFieldManager(k, sub)
	if err != nil {
		t.Fatal(err)
	}
	refFMs[k.Name+"/"+sub] = fm
	return fm
}

// store is what the registry does after the field manager: the strategy
// keeps the status of main-resource writes and the spec of status writes
// (the old values, or none), and the stored object gets a uid.
func store(k *Kind, live, out []byte, sub string) ([]byte, error) {
	o, err := jsonx.DecodeObject(out)
	if err != nil {
		return nil, err
	}
	var old map[string]any
	if live != nil {
		if old, err = jsonx.DecodeObject(live); err != nil {
			return nil, err
		}
	}
	keep := "status"
	if sub == "status" {
		keep = "spec"
	}
	delete(o, keep)
	if v, ok := old[keep]; ok {
		o[keep] = v
	}
	md, _ := o["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		o["metadata"] = md
	}
	md["uid"] = "00000000-0000-0000-0000-000000000001"
	b, err := jsonx.Marshal(o)
	if err != nil {
		return nil, err
	}
	return TypedOriginal(k.Name, b)
}

// normalise prepares a result for comparison: built-in objects through
// their typed struct (as the real server stores them), managedFields
// times reduced to their presence and entries in a time-free order.
func normalise(k *Kind, b []byte) ([]byte, error) {
	b, err := TypedOriginal(k.Name, b)
	if err != nil {
		return nil, err
	}
	var o map[string]any
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, err
	}
	if md, ok := o["metadata"].(map[string]any); ok {
		if l, ok := md["managedFields"].([]any); ok {
			key := func(e any) string {
				m, _ := e.(map[string]any)
				return fmt.Sprint(m["operation"], "\x00", m["manager"], "\x00", m["apiVersion"], "\x00", m["subresource"])
			}
			for _, e := range l {
				if m, ok := e.(map[string]any); ok {
					if _, ok := m["time"]; ok {
						m["time"] = "T"
					}
				}
			}
			sort.SliceStable(l, func(i, j int) bool { return key(l[i]) < key(l[j]) })
		}
	}
	out, err := json.Marshal(o)
	return canonical(out), err
}

// mutate applies an update step's patch to the live object with the
// reference library (strategic for built-in kinds, merge for the CRD).
func mutate(k *Kind, live, p []byte) ([]byte, error) {
	if k.CRD {
		return jsonpatchv4.MergePatch(live, p)
	}
	return strategicpatch.StrategicMergePatch(live, p, typedFor(k.Name))
}

// sideResult is one side's answer to a step: the outcome to compare and
// the new stored object (nil if the step failed).
type sideResult struct {
	out    Outcome
	stored []byte
}

// notFound is both sides' answer to an update of an object that does not
// exist (its create failed).
var notFound = sideResult{out: Outcome{Code: 404, Message: "not found"}}

func oursStep(m *fieldmanager.Manager, k *Kind, live []byte, st Step) (sideResult, error) {
	if live == nil && st.Op == "update" {
		return notFound, nil
	}
	var liveObj map[string]any
	if live != nil {
		var err error
		if liveObj, err = jsonx.DecodeObject(live); err != nil {
			return sideResult{}, err
		}
	}
	var out map[string]any
	var err error
	switch st.Op {
	case "create", "update":
		body := st.Body
		if st.Op == "update" {
			if body, err = mutate(k, live, st.Body); err != nil {
				return sideResult{}, err
			}
		}
		raw, err := jsonx.DecodeObject(body)
		if err != nil {
			return sideResult{}, err
		}
		if body, err = TypedOriginal(k.Name, body); err != nil {
			return sideResult{}, err
		}
		obj, err := jsonx.DecodeObject(body)
		if err != nil {
			return sideResult{}, err
		}
		// The typed round trip drops `managedFields: []` (omitempty), but
		// the real server's decoded struct keeps the empty list, which
		// resets managedFields: give ours the list as the client sent it.
		if mf, ok := at(raw, "metadata", "managedFields").([]any); ok && len(mf) == 0 {
			if md, ok := obj["metadata"].(map[string]any); ok {
				md["managedFields"] = []any{}
			}
		}
		out, _ = m.Update(liveObj, obj, st.Manager, st.Subresource, now)
	case "apply":
		applied, perr := fieldmanager.ParseApplyBody(st.Body)
		if perr != nil {
			return sideResult{out: apiOutcome(perr)}, nil
		}
		if out, err = m.Apply(liveObj, applied, st.Manager, st.Subresource, st.Force, now); err != nil {
			// as the server answers: a conflict is mapped by patch.ToAPIError
			return sideResult{out: apiOutcome(patch.ToAPIError(err))}, nil
		}
	}
	b, err := jsonx.Marshal(out)
	if err != nil {
		return sideResult{}, err
	}
	return finish(k, live, b, st.Subresource)
}

func finish(k *Kind, live, b []byte, sub string) (sideResult, error) {
	n, err := normalise(k, b)
	if err != nil {
		return sideResult{}, err
	}
	stored, err := store(k, live, b, sub)
	if err != nil {
		return sideResult{}, err
	}
	return sideResult{out: Outcome{Object: n}, stored: stored}, nil
}

func refStep(t *testing.T, k *Kind, live []byte, st Step) (sideResult, error) {
	if live == nil && st.Op == "update" {
		return notFound, nil
	}
	fm := refManager(t, k, st.Subresource)
	liveObj := RefNew(k)
	if live != nil {
		var err error
		if liveObj, err = RefDecode(k, live); err != nil {
			return sideResult{}, err
		}
	}
	var b []byte
	switch st.Op {
	case "create", "update":
		body := st.Body
		var err error
		if st.Op == "update" {
			if body, err = mutate(k, live, st.Body); err != nil {
				return sideResult{}, err
			}
		}
		obj, err := RefDecode(k, body)
		if err != nil {
			return sideResult{}, err
		}
		if b, err = RefEncode(fm.UpdateNoErrors(liveObj, obj, st.Manager)); err != nil {
			return sideResult{}, err
		}
	case "apply":
		applied, err := RefApplyBody(st.Body)
		if err != nil {
			return sideResult{out: statusOutcome(err)}, nil
		}
		res, err := fm.Apply(liveObj, applied, st.Manager, st.Force)
		if err != nil {
			return sideResult{out: statusOutcome(err)}, nil
		}
		if b, err = RefEncode(res); err != nil {
			return sideResult{}, err
		}
	}
	return finish(k, live, b, st.Subresource)
}

func TestServerSideApply(t *testing.T) {
	steps := &tally{name: "server-side apply (steps)"}
	seqs := &tally{name: "server-side apply (sequences)"}
	for _, k := range AllKinds {
		ours := oursManager(t, k)
		for i := 0; i < ssaSequencesPerKind; i++ {
			seq := NewGen(seed("ssa", k, i)).Sequence(fmt.Sprintf("ssa/%s/%03d", k.Name, i), k)
			var oursLive, refLive []byte
			firstDiff := ""
			for j, st := range seq.Steps {
				id := fmt.Sprintf("%s#%d(%s %s)", seq.ID, j, st.Op, st.Manager)
				o, err := safeStep(func() (sideResult, error) { return oursStep(ours, k, oursLive, st) })
				if err != nil {
					t.Fatalf("%s: ours: %v", id, err)
				}
				r, err := safeStep(func() (sideResult, error) { return refStep(t, k, refLive, st) })
				if err != nil {
					t.Fatalf("%s: reference: %v", id, err)
				}
				if !steps.check(id, o.out, r.out) && firstDiff == "" {
					firstDiff = fmt.Sprintf("step %d: %s", j, diffOutcome(o.out, r.out))
				}
				if o.stored != nil {
					oursLive = o.stored
				}
				if r.stored != nil {
					refLive = r.stored
				}
			}
			seqs.n++
			if firstDiff == "" {
				seqs.agree++
			} else {
				seqs.disagreed = append(seqs.disagreed, seq.ID+": "+firstDiff)
			}
		}
	}
	steps.report(t, ssaFloor)
	seqs.disagreed = nil // listed per step above
	seqs.report(t, ssaSequenceFloor)
}

func safeStep(f func() (sideResult, error)) (r sideResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = sideResult{out: Outcome{Code: -2, Message: fmt.Sprint("panic: ", p)}}, nil
		}
	}()
	return f()
}
