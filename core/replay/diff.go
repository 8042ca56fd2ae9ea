package replay

import (
	"fmt"
	"strings"
)

// Diff returns a unified-style line diff of want (expected, "-") and got
// ("+") with 3 lines of context, or "" when they are equal.
//
// Example: Diff("a\nb\n", "a\nc\n") is
//
//	@@ -1,2 +1,2 @@
//	 a
//	-b
//	+c
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	if d := hunks(lineOps(a, b), 3); d != "" {
		return d
	}
	return "\\ the texts differ only in their final newline\n"
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

type op struct {
	kind byte // ' ', '-', '+'
	line string
	ai   int // 1-based line in a (for ' ' and '-')
	bi   int // 1-based line in b (for ' ' and '+')
}

// maxCells bounds the LCS table; beyond it the middle is shown as a plain
// replacement.
const maxCells = 4_000_000

// lineOps computes an edit script via the LCS of the lines after trimming
// the common prefix and suffix.
func lineOps(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', a[i], i + 1, i + 1})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m > maxCells {
		for i, l := range ma {
			ops = append(ops, op{'-', l, pre + i + 1, 0})
		}
		for j, l := range mb {
			ops = append(ops, op{'+', l, 0, pre + j + 1})
		}
	} else {
		// lcs[i][j] = LCS length of ma[i:] and mb[j:]
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, op{' ', ma[i], pre + i + 1, pre + j + 1})
				i++
				j++
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', ma[i], pre + i + 1, 0})
				i++
			default:
				ops = append(ops, op{'+', mb[j], 0, pre + j + 1})
				j++
			}
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, op{' ', a[len(a)-suf+k], len(a) - suf + k + 1, len(b) - suf + k + 1})
	}
	return ops
}

// hunks renders the changed regions with ctx lines of context.
func hunks(ops []op, ctx int) string {
	var out strings.Builder
	i, prev := 0, 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, prev)
		end := i
		// extend while changes are within 2*ctx of each other
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			k := end
			for k < len(ops) && ops[k].kind == ' ' && k-end < 2*ctx {
				k++
			}
			if k < len(ops) && ops[k].kind != ' ' {
				end = k
				continue
			}
			break
		}
		stop := min(end+ctx, len(ops))
		aStart, bStart, aN, bN := 0, 0, 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				if aStart == 0 {
					aStart = o.ai
				}
				aN++
			}
			if o.kind != '-' {
				if bStart == 0 {
					bStart = o.bi
				}
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart, aN, bStart, bN)
		for _, o := range ops[start:stop] {
			out.WriteByte(o.kind)
			out.WriteString(o.line)
			out.WriteByte('\n')
		}
		i, prev = stop, stop
	}
	return out.String()
}

// Report renders a result: "name: passed/compared", then for each failing
// step its name, notes and diff, each diff cut after maxLines lines
// (maxLines <= 0: everything).
func (r Result) Report(maxLines int) string {
	var b strings.Builder
	p, c := r.Counts()
	fmt.Fprintf(&b, "%s: %d/%d\n", r.Scenario, p, c)
	if r.Err != "" {
		fmt.Fprintf(&b, "  error: %s\n", r.Err)
	}
	for _, s := range r.Steps {
		if !s.Compared {
			for _, n := range s.Notes {
				fmt.Fprintf(&b, "  step %d %q: %s\n", s.Index, s.Name, n)
			}
			continue
		}
		if s.Pass {
			continue
		}
		fmt.Fprintf(&b, "  FAIL step %d %q\n", s.Index, s.Name)
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "    note: %s\n", n)
		}
		lines := splitLines(s.Diff)
		for i, l := range lines {
			if maxLines > 0 && i >= maxLines {
				fmt.Fprintf(&b, "    ... %d more diff lines (REPLAY_VERBOSE=1 shows all)\n", len(lines)-i)
				break
			}
			b.WriteString("    " + l + "\n")
		}
	}
	return b.String()
}
