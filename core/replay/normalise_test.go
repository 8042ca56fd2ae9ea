package replay

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/internal/conformance"
)

// loadTruth loads the transcripts; without them the test is skipped, or
// fails in CI (internal/conformance).
func loadTruth(t testing.TB) []Transcript {
	t.Helper()
	dir := conformance.Dir()
	if _, err := os.Stat(dir); err != nil {
		conformance.Missing(t, "conformance transcripts not found at %s (set KUBESANDBOX_CONFORMANCE): %v", dir, err)
	}
	ts, err := Load(dir)
	if err != nil {
		t.Fatalf("Load(%s): %v", dir, err)
	}
	return ts
}

// synth turns stored (normalised) responses back into a plausible raw run:
// labels become distinct raw values (RVs descending, so numeric order is
// not label order), <time> becomes timestamps of varying forms, <rand> a
// random suffix, <age> an age; managedFields and Status causes are
// reversed (with the message list rewritten) so sorting is exercised.
type synth struct {
	rv     map[string]string // label -> raw value; tests may alias two labels
	nTimes int
}

var labelRef = regexp.MustCompile(`\b(RV|UID|CONT)([0-9]+)\b|<time>|<rand>|<age>`)

func (s *synth) raw(label, kind, num string) string {
	if v, ok := s.rv[label]; ok {
		return v
	}
	n, _ := strconv.Atoi(num)
	switch kind {
	case "RV":
		return strconv.Itoa(90000 - 37*n)
	case "UID":
		return fmt.Sprintf("%08x-1b2c-4d5e-8f90-%012x", 0xdeadbeef-n*977, n*104729)
	case "CONT":
		return "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6" + strconv.Itoa(n) + "fQ"
	}
	return label
}

func (s *synth) text(str string) string {
	return labelRef.ReplaceAllStringFunc(str, func(m string) string {
		switch m {
		case "<time>":
			s.nTimes++
			return []string{"2026-11-22T07:39:04Z", "2026-11-22T07:39:05.123456Z", "2026-11-22T09:39:06+02:00"}[s.nTimes%3]
		case "<rand>":
			return "x7k2p"
		case "<age>":
			return "5m12s"
		}
		sm := labelRef.FindStringSubmatch(m)
		return s.raw(m, sm[1], sm[2])
	})
}

func (s *synth) value(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[s.text(k)] = s.value(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = s.value(e)
		}
		return t
	case string:
		return s.text(t)
	}
	return v
}

// unsort reverses managedFields and Status causes below v.
func unsort(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			unsort(e)
		}
		if mf, ok := t["managedFields"].([]any); ok {
			reverse(mf)
		}
		d, _ := t["details"].(map[string]any)
		causes, _ := d["causes"].([]any)
		if t["kind"] == "Status" && len(causes) > 1 {
			var items []string
			for _, c := range causes {
				m, _ := c.(map[string]any)
				items = append(items, str(m, "field")+": "+str(m, "message"))
			}
			reverse(causes)
			msg, _ := t["message"].(string)
			list := "[" + strings.Join(items, ", ") + "]"
			if strings.HasSuffix(msg, list) {
				for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
					items[i], items[j] = items[j], items[i]
				}
				t["message"] = strings.TrimSuffix(msg, list) + "[" + strings.Join(items, ", ") + "]"
			}
		}
	case []any:
		for _, e := range t {
			unsort(e)
		}
	}
}

func reverse(l []any) {
	for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
		l[i], l[j] = l[j], l[i]
	}
}

func (s *synth) jsonBytes(raw []byte) []byte {
	v, ok := decodeJSON(raw)
	if !ok {
		return []byte(s.text(string(raw)))
	}
	unsort(v)
	b, err := json.Marshal(s.value(v))
	if err != nil {
		panic(err)
	}
	return b
}

// rawRun builds the synthetic raw run of a transcript's compared steps.
func (s *synth) rawRun(tr *Transcript) ([]RawStep, []int) {
	var raws []RawStep
	var idx []int
	for i := range tr.Steps {
		st := &tr.Steps[i]
		if !st.Compared() {
			continue
		}
		r := RawStep{Kind: st.Kind(), Ignore: st.Ignore}
		if st.Request != nil {
			r.RequestBody = st.Request.Body
		}
		if st.Kind() == KindRead {
			r.TimedOut, r.Ended = st.Result.TimedOut, st.Result.Ended
			for _, e := range st.Result.Events {
				r.Events = append(r.Events, s.jsonBytes(e))
			}
		} else {
			resp := st.Response
			r.Status, r.ContentType = resp.Status, resp.Headers.ContentType
			for _, w := range resp.Headers.Warning {
				r.Warnings = append(r.Warnings, s.text(w))
			}
			switch {
			case len(resp.Body) > 0:
				r.Body = s.jsonBytes(resp.Body)
			case resp.BodyText != nil:
				r.Body = []byte(s.text(*resp.BodyText))
			case resp.BodyBase64 != nil:
				b, err := base64.StdEncoding.DecodeString(*resp.BodyBase64)
				if err != nil {
					panic(err)
				}
				r.Body = b
			}
		}
		raws = append(raws, r)
		idx = append(idx, i)
	}
	return raws, idx
}

// TestNormaliseTruth proves the normaliser on the recordings themselves:
// de-normalising every stored response and normalising the run again must
// give back every stored step exactly.
func TestNormaliseTruth(t *testing.T) {
	ts := loadTruth(t)
	total := 0
	for i := range ts {
		tr := &ts[i]
		t.Run(tr.Scenario, func(t *testing.T) {
			s := &synth{}
			raws, idx := s.rawRun(tr)
			got := Normalise(raws)
			for j, si := range idx {
				want := Expected(&tr.Steps[si])
				if got[j] != want {
					t.Errorf("step %d %q:\n%s", si, tr.Steps[si].Name, Diff(want, got[j]))
				}
			}
			total += len(idx)
		})
	}
	if want := CompareCount(ts); total != want {
		t.Errorf("checked %d steps, transcripts have %d compared", total, want)
	}
}

// TestNormaliseTruthDetectsBreakage shows the check above can fail: when two
// distinct resourceVersions of a transcript collapse into one raw value (a
// server that forgot to bump the RV), the normalised run differs.
func TestNormaliseTruthDetectsBreakage(t *testing.T) {
	ts := loadTruth(t)
	cases := []struct {
		scenario    string
		label, onto string // label gets the raw value of onto
	}{
		{"update-put", "RV2", "RV1"},
		{"watch-from-rv", "RV4", "RV3"},
		{"list-paging", "CONT2", "CONT1"},
		{"delete-preconditions", "UID2", "UID1"},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			var tr *Transcript
			for i := range ts {
				if ts[i].Scenario == c.scenario {
					tr = &ts[i]
				}
			}
			if tr == nil {
				conformance.Missing(t, "no transcript %s", c.scenario)
			}
			s := &synth{rv: map[string]string{}}
			m := labelRef.FindStringSubmatch(c.onto)
			s.rv[c.label] = s.raw(c.onto, m[1], m[2])
			raws, idx := s.rawRun(tr)
			got := Normalise(raws)
			diffs := 0
			for j, si := range idx {
				if got[j] != Expected(&tr.Steps[si]) {
					diffs++
				}
			}
			if diffs == 0 {
				t.Errorf("%s aliased onto %s went unnoticed", c.label, c.onto)
			}
		})
	}
}

func decodeBase64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
