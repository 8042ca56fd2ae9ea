package replay

import (
	"strconv"
	"strings"
)

// RawStep is what a replay observed for one compared step, before
// normalisation.
type RawStep struct {
	Kind        StepKind // KindRequest, KindWatch or KindRead
	Status      int      // request, watch
	ContentType *string  // nil: no Content-Type header
	Warnings    []string // all Warning header values, in order
	Body        []byte   // request: the body; watch: the body when Status != 200
	Events      [][]byte // read: one raw JSON event each
	TimedOut    bool     // read
	Ended       bool     // read
	Ignore      []string // the step's ignore paths
	RequestBody []byte   // the body that was sent (for generateName prefixes)
}

// view is one step ready to render: the normalised counterpart of RawStep.
type view struct {
	kind        StepKind
	status      int
	contentType *string
	warnings    []string
	body        body
	events      []body
	timedOut    bool
	ended       bool
}

// Normalise normalises a whole run (README "Normalisation", rules 1-8, with
// label counters shared by all steps) and renders each step as text.
func Normalise(steps []RawStep) []string {
	views := make([]view, len(steps))
	for i, s := range steps {
		views[i] = view{kind: s.Kind, status: s.Status, contentType: s.ContentType,
			warnings: append([]string(nil), s.Warnings...), timedOut: s.TimedOut, ended: s.Ended}
		if s.Kind == KindRead {
			for _, e := range s.Events {
				views[i].events = append(views[i].events, parseBody(e))
			}
		} else {
			views[i].body = parseBody(s.Body)
		}
	}

	// Rule 4 needs the whole run first: collect generated names/prefixes.
	l := newLabeler()
	exact, prefixes := map[string]string{}, map[string]bool{}
	for i, s := range steps {
		if req := parseBody(s.RequestBody); req.kind == bodyJSON {
			l.collectGenerated(req.json, exact, prefixes)
		} else if req.kind == bodyText {
			collectText(req.text, prefixes)
		}
		for _, b := range append([]body{views[i].body}, views[i].events...) {
			switch b.kind {
			case bodyJSON:
				l.collectGenerated(b.json, exact, prefixes)
			case bodyText:
				collectText(b.text, prefixes)
			}
		}
	}
	l.setGenerated(exact, prefixes)

	out := make([]string, len(steps))
	for i, s := range steps {
		v := &views[i]
		for j, w := range v.warnings {
			v.warnings[j] = l.text(w)
		}
		v.body = l.normaliseBody(applyIgnore(v.body, s.Ignore))
		for j, e := range v.events {
			v.events[j] = l.normaliseBody(applyIgnore(e, s.Ignore))
		}
		out[i] = v.render()
	}
	return out
}

// normaliseBody applies rules 3 to 7 to one parsed body.
func (l *labeler) normaliseBody(b body) body {
	switch b.kind {
	case bodyJSON:
		sortParts(b.json)
		b.json = l.value(b.json)
		tableAges(b.json)
	case bodyText:
		b.text = l.text(b.text)
	}
	return b
}

// Expected renders a stored step (already normalised; only its ignore
// paths are applied again) the same way Normalise renders a raw one.
func Expected(s *Step) string {
	v := view{kind: s.Kind()}
	switch {
	case s.Kind() == KindRead && s.Result != nil:
		v.timedOut, v.ended = s.Result.TimedOut, s.Result.Ended
		for _, e := range s.Result.Events {
			v.events = append(v.events, applyIgnore(storedJSON(e), s.Ignore))
		}
	case s.Response != nil:
		r := s.Response
		v.status, v.contentType, v.warnings = r.Status, r.Headers.ContentType, r.Headers.Warning
		switch {
		case len(r.Body) > 0 && string(r.Body) != "null":
			v.body = storedJSON(r.Body)
		case r.BodyText != nil && *r.BodyText != "":
			v.body = body{kind: bodyText, text: *r.BodyText}
		case r.BodyBase64 != nil && *r.BodyBase64 != "":
			v.body = body{kind: bodyBinary, text: *r.BodyBase64}
		}
		v.body = applyIgnore(v.body, s.Ignore)
	}
	return v.render()
}

func storedJSON(raw []byte) body {
	if j, ok := decodeJSON(raw); ok {
		return body{kind: bodyJSON, json: j}
	}
	return body{kind: bodyText, text: string(raw)}
}

// render is the README's "When a step passes" text:
//
//	status: 201
//	Content-Type: application/json
//	Warning: 299 - "unknown field \"spec.bogus\""
//	body:
//	{ ...sorted, indented JSON... }
//
// and for reads: timedOut, ended, the number of events, then each event.
func (v view) render() string {
	var b strings.Builder
	if v.kind == KindRead {
		b.WriteString("timedOut: " + strconv.FormatBool(v.timedOut) + "\n")
		b.WriteString("ended: " + strconv.FormatBool(v.ended) + "\n")
		b.WriteString("events: " + strconv.Itoa(len(v.events)) + "\n")
		for i, e := range v.events {
			b.WriteString("event " + strconv.Itoa(i+1) + ":\n")
			b.WriteString(e.render() + "\n")
		}
		return b.String()
	}
	b.WriteString("status: " + strconv.Itoa(v.status) + "\n")
	if v.contentType != nil {
		b.WriteString("Content-Type: " + *v.contentType + "\n")
	}
	for _, w := range v.warnings {
		b.WriteString("Warning: " + w + "\n")
	}
	if v.kind == KindWatch && v.status == 200 {
		return b.String()
	}
	b.WriteString("body:\n")
	if v.body.kind == bodyBinary {
		b.WriteString("(base64) ")
	}
	if s := v.body.render(); s != "" {
		b.WriteString(s + "\n")
	}
	return b.String()
}
