package corev1

import (
	"encoding/json"
	"fmt"
	"strings"
)

// specDiff renders the unified diff (3 lines of context, no file headers)
// that the pod update error appends, as apimachinery's diff.Diff does with
// go-difflib. The real server diffs the JSON of its internal Go struct,
// whose keys are the Go field names with every zero field present; this
// diffs the JSON object as stored, so the hunk lines differ from the real
// server's while the shape of the message is the same.
func specDiff(a, b map[string]any) string {
	al, bl := prettyLines(a), prettyLines(b)
	ops := lcsOps(al, bl)
	var out strings.Builder
	for _, g := range groupOps(ops, 3) {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", rangeUnified(first.i1, last.i2), rangeUnified(first.j1, last.j2))
		for _, o := range g {
			if o.tag == 'e' {
				for _, l := range al[o.i1:o.i2] {
					out.WriteString(" " + l)
				}
				continue
			}
			for _, l := range al[o.i1:o.i2] {
				out.WriteString("-" + l)
			}
			for _, l := range bl[o.j1:o.j2] {
				out.WriteString("+" + l)
			}
		}
	}
	return out.String()
}

func prettyLines(v any) []string {
	b, _ := json.MarshalIndent(v, "", " ")
	lines := strings.SplitAfter(string(b), "\n")
	lines[len(lines)-1] += "\n"
	return lines
}

type opcode struct {
	tag            byte // 'e'qual, 'r'eplace, 'd'elete, 'i'nsert
	i1, i2, j1, j2 int
}

// lcsOps aligns two line lists on a longest common subsequence.
func lcsOps(a, b []string) []opcode {
	n, m := len(a), len(b)
	if n*m > 4_000_000 { // too big to align: one replacement
		return []opcode{{'r', 0, n, 0, m}}
	}
	dp := make([][]int32, n+1)
	for i := range dp {
		dp[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var ops []opcode
	add := func(tag byte, i1, i2, j1, j2 int) {
		if l := len(ops); l > 0 && (ops[l-1].tag == tag || tag != 'e' && ops[l-1].tag != 'e') {
			o := &ops[l-1]
			if o.tag != tag {
				o.tag = 'r'
			}
			o.i2, o.j2 = i2, j2
			return
		}
		ops = append(ops, opcode{tag, i1, i2, j1, j2})
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			add('e', i, i+1, j, j+1)
			i, j = i+1, j+1
		case j < m && (i == n || dp[i][j+1] >= dp[i+1][j]):
			add('i', i, i, j, j+1)
			j++
		default:
			add('d', i, i+1, j, j)
			i++
		}
	}
	return ops
}

// groupOps is difflib's GetGroupedOpCodes.
func groupOps(codes []opcode, n int) [][]opcode {
	if len(codes) == 0 {
		codes = []opcode{{'e', 0, 1, 0, 1}}
	}
	if c := codes[0]; c.tag == 'e' {
		codes[0] = opcode{'e', max(c.i1, c.i2-n), c.i2, max(c.j1, c.j2-n), c.j2}
	}
	if c := codes[len(codes)-1]; c.tag == 'e' {
		codes[len(codes)-1] = opcode{'e', c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)}
	}
	nn := n + n
	var groups [][]opcode
	var group []opcode
	for _, c := range codes {
		if c.tag == 'e' && c.i2-c.i1 > nn {
			group = append(group, opcode{'e', c.i1, min(c.i2, c.i1+n), c.j1, min(c.j2, c.j1+n)})
			groups = append(groups, group)
			group = nil
			c = opcode{'e', max(c.i1, c.i2-n), c.i2, max(c.j1, c.j2-n), c.j2}
		}
		group = append(group, c)
	}
	if len(group) > 0 && !(len(group) == 1 && group[0].tag == 'e') {
		groups = append(groups, group)
	}
	return groups
}

func rangeUnified(start, stop int) string {
	begin, length := start+1, stop-start
	if length == 1 {
		return fmt.Sprint(begin)
	}
	if length == 0 {
		begin--
	}
	return fmt.Sprintf("%d,%d", begin, length)
}
