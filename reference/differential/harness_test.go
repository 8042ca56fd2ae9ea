package differential

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apierr"
)

// tally counts agreement for one engine and keeps the disagreements.
type tally struct {
	name      string
	n, agree  int
	disagreed []string // "id: one-line diff"
	nondet    []string // cases where the reference itself varies run to run
}

// refRetries is how often a disagreeing reference is run again: the real
// strategic merge patch iterates Go maps, so a patch with two directives
// touching the same list can give different results from run to run.
const refRetries = 64

// checkRetry is check, but when ours differs it reruns the reference and
// counts ours as agreeing if any run gives its outcome (the real server
// could answer that too); such cases are listed as nondeterministic.
func (t *tally) checkRetry(id string, ours Outcome, ref func() Outcome) bool {
	first := ref()
	if diffOutcome(ours, first) == "" {
		return t.check(id, ours, first)
	}
	for i := 0; i < refRetries; i++ {
		if again := ref(); diffOutcome(ours, again) == "" {
			t.nondet = append(t.nondet, id+": reference varies; ours is one of its outcomes; other: "+diffOutcome(ours, first))
			return t.check(id, ours, again)
		}
	}
	return t.check(id, ours, first)
}

func (t *tally) check(id string, ours, ref Outcome) bool {
	t.n++
	if d := diffOutcome(ours, ref); d != "" {
		t.disagreed = append(t.disagreed, id+": "+d)
		return false
	}
	t.agree++
	return true
}

// report prints the summary and fails below floor (the committed number
// of agreeing cases, see docs/differential.md).
func (t *tally) report(tb testing.TB, floor int) {
	tb.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d cases, %d agree, %d disagree (floor %d)\n", t.name, t.n, t.agree, t.n-t.agree, floor)
	for _, d := range t.disagreed {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	if len(t.nondet) > 0 {
		fmt.Fprintf(&b, "  agreeing, but the reference is nondeterministic in %d cases:\n", len(t.nondet))
		for _, d := range t.nondet {
			fmt.Fprintf(&b, "    %s\n", d)
		}
	}
	tb.Log(b.String())
	if p := os.Getenv("DIFFERENTIAL_REPORT"); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteString(b.String())
			f.Close()
		}
	}
	if t.agree < floor {
		tb.Errorf("%s: agreement dropped: %d of %d cases agree, floor is %d", t.name, t.agree, t.n, floor)
	}
}

// apiOutcome is what our server answers for err.
func apiOutcome(err error) Outcome {
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return Outcome{Code: http.StatusInternalServerError, Message: err.Error()}
	}
	o := Outcome{Code: ae.Code, Reason: string(ae.Reason), Message: ae.Message}
	if ae.Details != nil {
		for _, c := range ae.Details.Causes {
			o.Causes = append(o.Causes, c.Type+"|"+c.Field+"|"+c.Message)
		}
		sort.Strings(o.Causes)
	}
	return o
}

// diffOutcome is "" when equal, else a one-line description.
func diffOutcome(ours, ref Outcome) string {
	switch {
	case ours.Object != nil && ref.Object != nil:
		if bytes.Equal(ours.Object, ref.Object) {
			return ""
		}
		return jsonDiff(ours.Object, ref.Object)
	case ours.Object == nil && ref.Object == nil:
		if reflect.DeepEqual(ours, ref) {
			return ""
		}
		return "error: ours " + clip(ours.String()) + " | ref " + clip(ref.String())
	case ours.Object != nil:
		return "ours succeeded, ref failed: " + clip(ref.String())
	}
	return "ours failed: " + clip(ours.String()) + " | ref succeeded"
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 240 {
		return s[:240] + "…"
	}
	return s
}

// jsonDiff names the first path where two JSON documents differ.
func jsonDiff(a, b []byte) string {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "ours " + clip(string(a)) + " | ref " + clip(string(b))
	}
	path, u, v := firstDiff("", x, y)
	return fmt.Sprintf("at %s: ours %s | ref %s", path, clip(compact(u)), clip(compact(v)))
}

func compact(v any) string {
	if v == missing {
		return "<missing>"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

var missing = &struct{}{}

func firstDiff(path string, x, y any) (string, any, any) {
	switch xt := x.(type) {
	case map[string]any:
		yt, ok := y.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range xt {
			keys[k] = true
		}
		for k := range yt {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			xv, xok := xt[k]
			yv, yok := yt[k]
			if !xok {
				return path + "." + k, missing, yv
			}
			if !yok {
				return path + "." + k, xv, missing
			}
			if !reflect.DeepEqual(xv, yv) {
				return firstDiff(path+"."+k, xv, yv)
			}
		}
		return path, x, y
	case []any:
		yt, ok := y.([]any)
		if !ok {
			break
		}
		for i := range xt {
			if i >= len(yt) {
				return fmt.Sprintf("%s[%d]", path, i), xt[i], missing
			}
			if !reflect.DeepEqual(xt[i], yt[i]) {
				return firstDiff(fmt.Sprintf("%s[%d]", path, i), xt[i], yt[i])
			}
		}
		if len(yt) > len(xt) {
			return fmt.Sprintf("%s[%d]", path, len(xt)), missing, yt[len(xt)]
		}
	}
	if path == "" {
		path = "."
	}
	return path, x, y
}
