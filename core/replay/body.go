package replay

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// bodyKind says how a body is held and rendered.
type bodyKind int

const (
	bodyNone   bodyKind = iota
	bodyJSON            // an object or array, numbers kept as written
	bodyText            // any other UTF-8
	bodyBinary          // not UTF-8: base64, compared verbatim
)

// body is a parsed response body or watch event (normalisation rule 1).
type body struct {
	kind bodyKind
	json any    // bodyJSON: map[string]any, []any, json.Number, string, bool, nil
	text string // bodyText: the text; bodyBinary: standard base64
}

// parseBody classifies raw bytes: not UTF-8 → binary; a JSON object or
// array → JSON; anything else non-empty → text.
func parseBody(b []byte) body {
	if len(b) == 0 {
		return body{}
	}
	if !utf8.Valid(b) {
		return body{kind: bodyBinary, text: base64.StdEncoding.EncodeToString(b)}
	}
	if v, ok := decodeJSON(b); ok {
		switch v.(type) {
		case map[string]any, []any:
			return body{kind: bodyJSON, json: v}
		}
	}
	return body{kind: bodyText, text: string(b)}
}

// decodeJSON decodes exactly one JSON value keeping numbers as json.Number
// so that they render as written (1 and 1.0 stay different).
func decodeJSON(b []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

// renderJSON writes v with sorted keys, 2-space indent and no HTML escaping.
func renderJSON(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return "<unrenderable: " + err.Error() + ">"
	}
	return strings.TrimRight(b.String(), "\n")
}

func (b body) render() string {
	switch b.kind {
	case bodyJSON:
		return renderJSON(b.json)
	case bodyText, bodyBinary:
		return b.text
	}
	return ""
}

// applyIgnore removes the dotted paths (normalisation rule 2). "$" removes
// the whole body; "*" matches any key or array index; a leading "$." is
// optional, as in the recorder.
//
// Example: "items.*.metadata.managedFields" drops managedFields of every item.
func applyIgnore(b body, paths []string) body {
	for _, p := range paths {
		if p == "$" {
			return body{}
		}
	}
	if b.kind != bodyJSON {
		return b
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		b.json = removePath(b.json, strings.Split(strings.TrimPrefix(p, "$."), "."))
	}
	return b
}

// removePath removes the value(s) at segs below v and returns v (arrays may
// be replaced by shorter ones).
func removePath(v any, segs []string) any {
	if len(segs) == 0 {
		return v
	}
	seg, last := segs[0], len(segs) == 1
	switch t := v.(type) {
	case map[string]any:
		if seg == "*" {
			if last {
				return map[string]any{}
			}
			for k, e := range t {
				t[k] = removePath(e, segs[1:])
			}
			return t
		}
		e, ok := t[seg]
		if !ok {
			return t
		}
		if last {
			delete(t, seg)
		} else {
			t[seg] = removePath(e, segs[1:])
		}
		return t
	case []any:
		if seg == "*" {
			if last {
				return []any{}
			}
			for i, e := range t {
				t[i] = removePath(e, segs[1:])
			}
			return t
		}
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(t) {
			return t
		}
		if last {
			return append(t[:i:i], t[i+1:]...)
		}
		t[i] = removePath(t[i], segs[1:])
		return t
	}
	return v
}

// lookupPath follows a dotted capture path (keys or array indices).
func lookupPath(v any, path string) (any, bool) {
	if path == "" {
		return v, true
	}
	for _, seg := range strings.Split(path, ".") {
		if seg == "#" { // the length of a list or map
			switch t := v.(type) {
			case map[string]any:
				v = json.Number(strconv.Itoa(len(t)))
				continue
			case []any:
				v = json.Number(strconv.Itoa(len(t)))
				continue
			}
			return nil, false
		}
		switch t := v.(type) {
		case map[string]any:
			e, ok := t[seg]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			if k, want, ok := strings.Cut(seg, "="); ok { // the first element whose k is want
				found := false
				for _, e := range t {
					if m, _ := e.(map[string]any); m != nil && m[k] == want {
						v, found = e, true
						break
					}
				}
				if !found {
					return nil, false
				}
				continue
			}
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// fieldText renders a waited-for value as the recorder does: nothing (a
// missing field) as "", booleans as true/false, else as scalarText.
func fieldText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(t)
	}
	return scalarText(v)
}

// scalarText is a captured value as text: strings as they are, numbers as
// written, anything else as compact JSON.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if e.Encode(v) != nil {
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

// str returns m[k] as text for sorting ("" when missing).
func str(m map[string]any, k string) string {
	v, ok := m[k]
	if !ok || v == nil {
		return ""
	}
	return scalarText(v)
}

// sortParts applies normalisation rule 3 everywhere below v: managedFields
// lists sorted by (operation, manager, subresource, apiVersion); Status
// details.causes sorted by (field, reason, message) with the message's
// bracketed list rewritten in that order.
func sortParts(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			sortParts(e)
		}
		if mf, ok := t["managedFields"].([]any); ok {
			sortBy(mf, "operation", "manager", "subresource", "apiVersion")
		}
		if t["kind"] == "Status" {
			sortCauses(t)
		}
	case []any:
		for _, e := range t {
			sortParts(e)
		}
	}
}

func sortBy(list []any, keys ...string) {
	sort.SliceStable(list, func(i, j int) bool {
		a, _ := list[i].(map[string]any)
		b, _ := list[j].(map[string]any)
		for _, k := range keys {
			x, y := str(a, k), str(b, k)
			if x != y {
				return x < y
			}
		}
		return false
	})
}

// sortCauses sorts a Status's details.causes and rewrites the trailing
// "[a, b]" list of its message in the new order. Example: causes for
// fields y then x and message `W "w" is invalid: [y: bad, x: bad]` become
// x then y and `W "w" is invalid: [x: bad, y: bad]`.
func sortCauses(status map[string]any) {
	details, _ := status["details"].(map[string]any)
	if details == nil {
		return
	}
	causes, ok := details["causes"].([]any)
	if !ok || len(causes) == 0 {
		return
	}
	sortBy(causes, "field", "reason", "message")
	msg, ok := status["message"].(string)
	if !ok || !strings.HasSuffix(msg, "]") {
		return
	}
	var items []string
	seen := map[string]bool{}
	for _, c := range causes {
		m, _ := c.(map[string]any)
		it := str(m, "field") + ": " + str(m, "message")
		if !seen[it] {
			seen[it] = true
			items = append(items, it)
		}
	}
	if len(items) < 2 {
		return
	}
	sorted := strings.Join(items, ", ")
	start := len(msg) - 1 - len(sorted) - 1
	if start < 0 || msg[start] != '[' {
		return
	}
	if !isPermutation(msg[start+1:len(msg)-1], items, make([]bool, len(items))) {
		return
	}
	status["message"] = msg[:start+1] + sorted + "]"
}

// isPermutation reports whether s is all of items (each once, any order)
// joined by ", ". Backtracking: items may be prefixes of one another.
func isPermutation(s string, items []string, used []bool) bool {
	all := true
	for _, u := range used {
		all = all && u
	}
	if all {
		return s == ""
	}
	for i, it := range items {
		if used[i] || !strings.HasPrefix(s, it) {
			continue
		}
		rest := s[len(it):]
		used[i] = true
		done := true
		for _, u := range used {
			done = done && u
		}
		switch {
		case done && rest == "":
			used[i] = false
			return true
		case !done && strings.HasPrefix(rest, ", "):
			if isPermutation(rest[2:], items, used) {
				used[i] = false
				return true
			}
		}
		used[i] = false
	}
	return false
}

// tableAges applies normalisation rule 7 everywhere below v: in a Table,
// cells of "date" columns become "<age>".
// ageColumns are the built-in printers' columns that hold a duration
// relative to the time of the request although they are typed "string"
// (the conformance README, "Recording your own transcripts").
var ageColumns = map[string]bool{"Age": true, "Last Seen": true, "First Seen": true, "Last Schedule": true, "Duration": true}

func tableAges(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			tableAges(e)
		}
		if t["kind"] != "Table" {
			return
		}
		cols, _ := t["columnDefinitions"].([]any)
		rows, _ := t["rows"].([]any)
		for i, c := range cols {
			cm, _ := c.(map[string]any)
			if cm == nil || (cm["type"] != "date" && !ageColumns[fmt.Sprint(cm["name"])]) {
				continue
			}
			for _, r := range rows {
				rm, _ := r.(map[string]any)
				cells, _ := rm["cells"].([]any)
				if i >= len(cells) {
					continue
				}
				if _, isStr := cells[i].(string); isStr { // as the recorder: text cells only
					cells[i] = "<age>"
				}
			}
		}
	case []any:
		for _, e := range t {
			tableAges(e)
		}
	}
}
