package replay

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// labeler applies normalisation rules 4 to 6 to every string of a run, in
// visiting order, with label counters shared by the whole transcript.
//
// Example: visiting `{"metadata":{"resourceVersion":"812","uid":"6f1c…"}}`
// and later the message `... precondition (812) ...` yields RV1, UID1 and
// `... precondition (RV1) ...`.
type labeler struct {
	uids, rvs, conts map[string]string
	names            []genName        // exact generated names, longest first
	prefixes         []*regexp.Regexp // P followed by 5 [a-z0-9] ending a word
}

type genName struct{ name, repl string }

func newLabeler() *labeler {
	return &labeler{uids: map[string]string{}, rvs: map[string]string{}, conts: map[string]string{}}
}

func label(m map[string]string, prefix, raw string) string {
	if l, ok := m[raw]; ok {
		return l
	}
	l := prefix + strconv.Itoa(len(m)+1)
	m[raw] = l
	return l
}

// maxGeneratedBase is the server's limit for the generateName prefix
// (63 - 5 random characters).
const maxGeneratedBase = 58

// collectGenerated records, from one parsed JSON value, generated names
// (rule 4: objects whose metadata has generateName P and a name starting
// with P) and every generateName prefix.
func (l *labeler) collectGenerated(v any, exact map[string]string, prefixes map[string]bool) {
	switch t := v.(type) {
	case map[string]any:
		if p, ok := t["generateName"].(string); ok && p != "" {
			prefixes[p] = true
		}
		if md, ok := t["metadata"].(map[string]any); ok {
			p, _ := md["generateName"].(string)
			n, _ := md["name"].(string)
			base := p
			if len(base) > maxGeneratedBase {
				base = base[:maxGeneratedBase]
			}
			if base != "" && len(n) > len(base) && strings.HasPrefix(n, base) {
				exact[n] = p + "<rand>"
			}
		}
		for _, e := range t {
			l.collectGenerated(e, exact, prefixes)
		}
	case []any:
		for _, e := range t {
			l.collectGenerated(e, exact, prefixes)
		}
	}
}

var yamlGenerateName = regexp.MustCompile(`generateName:\s*["']?([^"'\s,}]+)`)

// collectText records generateName prefixes written in a YAML/text body.
func collectText(s string, prefixes map[string]bool) {
	for _, m := range yamlGenerateName.FindAllStringSubmatch(s, -1) {
		prefixes[m[1]] = true
	}
}

// setGenerated installs the collected names and prefixes.
func (l *labeler) setGenerated(exact map[string]string, prefixes map[string]bool) {
	for n, r := range exact {
		l.names = append(l.names, genName{n, r})
	}
	sort.Slice(l.names, func(i, j int) bool {
		if len(l.names[i].name) != len(l.names[j].name) {
			return len(l.names[i].name) > len(l.names[j].name)
		}
		return l.names[i].name < l.names[j].name
	})
	var ps []string
	for p := range prefixes {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return len(ps[i]) > len(ps[j]) || len(ps[i]) == len(ps[j]) && ps[i] < ps[j] })
	for _, p := range ps {
		l.prefixes = append(l.prefixes, regexp.MustCompile(regexp.QuoteMeta(p)+`[a-z0-9]{5}\b`))
	}
}

// generated applies rule 4 to one string.
func (l *labeler) generated(s string) string {
	for _, g := range l.names {
		if strings.Contains(s, g.name) {
			s = strings.ReplaceAll(s, g.name, g.repl)
		}
	}
	for _, re := range l.prefixes {
		s = re.ReplaceAllStringFunc(s, func(m string) string { return m[:len(m)-5] + "<rand>" })
	}
	return s
}

// value normalises a JSON value in place order (keys sorted by their raw
// text, arrays in order) and returns the result.
func (l *labeler) value(v any) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(t))
		for _, k := range keys {
			nk := l.text(k)
			out[nk] = l.keyed(k, t[k])
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = l.value(e)
		}
		return t
	case string:
		return l.text(t)
	}
	return v
}

// keyed normalises the value under key k: whole-string labels for uid,
// resourceVersion and continue.
func (l *labeler) keyed(k string, v any) any {
	s, ok := v.(string)
	if !ok || s == "" {
		return l.value(v)
	}
	switch k {
	case "uid":
		return label(l.uids, "UID", s)
	case "resourceVersion":
		return label(l.rvs, "RV", s)
	case "continue":
		return label(l.conts, "CONT", s)
	}
	return l.text(s)
}

type spanKind int

const (
	spanTime spanKind = iota
	spanUID
	spanRV
	spanCont
)

type pattern struct {
	re    *regexp.Regexp
	group int // submatch replaced (0: whole match)
	kind  spanKind
}

// patterns of rules 5 and 6 inside strings. Example matches:
//
//	2026-11-22T07:39:04.123456+02:00             → <time>
//	6f1c2a9e-0000-4000-8000-000000000000         → UIDn
//	resourceVersion: "812"                       → resourceVersion: "RVn"
//	\"resourceVersion\":\"812\"                  → \"resourceVersion\":\"RVn\"
//	ResourceVersion in the precondition (812)    → ... (RVn)
//	continue: eyJ2Ijoi...                        → continue: CONTn
var patterns = []pattern{
	{regexp.MustCompile(`[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})`), 0, spanTime},
	{regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`), 0, spanUID},
	{regexp.MustCompile(`resourceVersion: "([^"]+)"`), 1, spanRV},
	{regexp.MustCompile(`\\*"resourceVersion\\*":\s*\\*"([^"\\]+)\\*"`), 1, spanRV},
	{regexp.MustCompile(`ResourceVersion in the precondition \(([^()]+)\)`), 1, spanRV},
	{regexp.MustCompile(`ResourceVersion in record \(([^()]+)\)`), 1, spanRV},
	{regexp.MustCompile(`continue: "([^"\s]+)"`), 1, spanCont},
	{regexp.MustCompile(`continue: ([^"\s]+)`), 1, spanCont},
}

type span struct {
	start, end int
	kind       spanKind
}

// text normalises one string: generated names, then labels and times left
// to right.
func (l *labeler) text(s string) string {
	s = l.generated(s)
	var spans []span
	for _, p := range patterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
			a, b := m[2*p.group], m[2*p.group+1]
			if a >= 0 && b > a {
				spans = append(spans, span{a, b, p.kind})
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	var b strings.Builder
	pos := 0
	for _, sp := range spans {
		if sp.start < pos {
			continue // overlaps an earlier match
		}
		b.WriteString(s[pos:sp.start])
		raw := s[sp.start:sp.end]
		switch sp.kind {
		case spanTime:
			b.WriteString("<time>")
		case spanUID:
			b.WriteString(label(l.uids, "UID", raw))
		case spanRV:
			b.WriteString(label(l.rvs, "RV", raw))
		case spanCont:
			b.WriteString(label(l.conts, "CONT", raw))
		}
		pos = sp.end
	}
	b.WriteString(s[pos:])
	return b.String()
}
