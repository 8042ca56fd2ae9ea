package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Options tune a replay.
type Options struct {
	// MaxWait caps the timeout of every (non-optional) wait; 0 keeps the
	// transcript's own (default 30 s). An emulator passes waits at once, so
	// a small cap keeps a failing run from idling.
	MaxWait time.Duration
	// RequestTimeout bounds one plain request (default 60 s).
	RequestTimeout time.Duration
}

// Result is the outcome of replaying one transcript.
type Result struct {
	Scenario string
	Steps    []StepResult
	Err      string // an internal failure that stopped the replay
}

// StepResult is the outcome of one step.
type StepResult struct {
	Index    int
	Name     string
	Compared bool
	Pass     bool
	Expected string   // the stored response rendered
	Got      string   // the normalised live response rendered
	Diff     string   // expected vs got, when they differ
	Notes    []string // transport errors, failed waits, missing captures
}

// Counts returns the passing and compared step counts.
func (r Result) Counts() (passed, compared int) {
	for _, s := range r.Steps {
		if s.Compared {
			compared++
			if s.Pass {
				passed++
			}
		}
	}
	return passed, compared
}

// NewClient returns an HTTP client suitable for replays: no timeout (watch
// streams stay open) and no automatic Accept-Encoding (the recorder sent
// none).
func NewClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true, Proxy: nil}}
}

// Run replays t against the server at baseURL with the transcript's own
// timeouts. A nil client means NewClient().
func Run(baseURL string, t Transcript, client *http.Client) Result {
	return RunWith(baseURL, t, client, Options{})
}

// RunWith is Run with options.
func RunWith(baseURL string, t Transcript, client *http.Client, o Options) (res Result) {
	if client == nil {
		client = NewClient()
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 60 * time.Second
	}
	r := &runner{base: strings.TrimRight(baseURL, "/"), client: client, opts: o,
		vars: map[string]string{}, streams: map[string]*stream{}}
	res.Scenario = t.Scenario
	res.Steps = make([]StepResult, len(t.Steps))
	for i := range t.Steps {
		res.Steps[i] = StepResult{Index: i, Name: t.Steps[i].Name, Compared: t.Steps[i].Compared()}
	}
	defer func() {
		for _, s := range r.streams {
			s.close()
		}
		if p := recover(); p != nil {
			res.Err = fmt.Sprintf("replay panicked: %v", p)
		}
	}()

	var raws []RawStep
	var idx []int // step index of each raw
	for i := range t.Steps {
		s := &t.Steps[i]
		raw, notes := r.step(s)
		res.Steps[i].Notes = append(res.Steps[i].Notes, notes...)
		if s.Compared() {
			raws = append(raws, raw)
			idx = append(idx, i)
		}
	}
	got := Normalise(raws)
	for j, i := range idx {
		sr := &res.Steps[i]
		sr.Expected = Expected(&t.Steps[i])
		sr.Got = got[j]
		sr.Pass = sr.Expected == sr.Got
		if !sr.Pass {
			sr.Diff = Diff(sr.Expected, sr.Got)
		}
	}
	return res
}

type runner struct {
	base    string
	client  *http.Client
	opts    Options
	vars    map[string]string
	streams map[string]*stream
}

// step executes one step and returns what it observed.
func (r *runner) step(s *Step) (RawStep, []string) {
	raw := RawStep{Kind: s.Kind(), Ignore: s.Ignore}
	var notes []string
	note := func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) }

	switch raw.Kind {
	case KindRequest, KindWatch:
		req, reqBody, missing := r.build(s.Request)
		raw.RequestBody = reqBody
		for _, m := range missing {
			note("unknown variable ${%s}", m)
		}
		if raw.Kind == KindWatch {
			r.openWatch(s.Watch, req, reqBody, &raw, note)
		} else {
			r.do(req, reqBody, &raw, note)
		}
		if len(s.Capture) > 0 {
			v, ok := decodeJSON(raw.Body)
			r.capture(s.Capture, v, ok, note)
		}
	case KindRead:
		st := r.streams[s.Read.Handle]
		if st == nil {
			raw.Ended, raw.TimedOut = true, s.Read.Events > 0
			note("read of unknown handle %q", s.Read.Handle)
			break
		}
		d := time.Duration(s.Read.TimeoutSeconds * float64(time.Second))
		evs, timedOut, ended := st.read(s.Read.Events, d, s.Read.Bookmarks)
		raw.TimedOut, raw.Ended = timedOut, ended
		vals := make([]any, len(evs))
		for i, e := range evs {
			raw.Events = append(raw.Events, e.raw)
			vals[i] = e.val
		}
		if len(s.Capture) > 0 {
			r.capture(s.Capture, vals, true, note)
		}
	case KindClose:
		if st := r.streams[s.Close]; st != nil {
			st.close()
			delete(r.streams, s.Close)
		}
	}
	if s.Wait != nil {
		r.wait(s.Wait, note)
	}
	return raw, notes
}

// plainRequest is a substituted request ready to send.
type plainRequest struct {
	method, url string
	headers     map[string]string
}

var varRef = regexp.MustCompile(`\$\{([^{}]*)\}`)

// subst replaces ${name} with captured values; esc escapes a value for its
// context (JSON string contents inside a body).
func (r *runner) subst(s string, esc func(string) string, missing *[]string) string {
	return varRef.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		v, ok := r.vars[name]
		if !ok {
			*missing = append(*missing, name)
			return m
		}
		if esc != nil {
			return esc(v)
		}
		return v
	})
}

func jsonEscape(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s)
	q := strings.TrimSpace(b.String())
	return q[1 : len(q)-1]
}

// build substitutes variables and returns the request and its body. A JSON
// body is sent compact with the file's key order.
func (r *runner) build(q *Request) (plainRequest, []byte, []string) {
	var missing []string
	p := plainRequest{method: q.Method, headers: map[string]string{}}
	u := r.base + r.subst(q.Path, nil, &missing)
	if len(q.Query) > 0 {
		vals := url.Values{}
		for k, v := range q.Query {
			vals.Set(k, r.subst(v, nil, &missing))
		}
		u += "?" + vals.Encode()
	}
	p.url = u
	for k, v := range q.Headers {
		p.headers[k] = r.subst(v, nil, &missing)
	}
	var b []byte
	switch {
	case len(q.Body) > 0:
		var c bytes.Buffer
		if err := json.Compact(&c, q.Body); err != nil {
			c.Reset()
			c.Write(q.Body)
		}
		// ${...} can only occur inside JSON strings, so substituting the
		// escaped value in the compact text is exact.
		b = []byte(r.subst(c.String(), jsonEscape, &missing))
	case q.BodyText != nil:
		b = []byte(r.subst(*q.BodyText, nil, &missing))
	}
	return p, b, missing
}

// send performs one request, retrying 429 after Retry-After.
func (r *runner) send(ctx context.Context, p plainRequest, body []byte) (*http.Response, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, p.method, p.url, rd)
		if err != nil {
			return nil, err
		}
		req.Header = http.Header{}
		for k, v := range p.headers {
			req.Header[http.CanonicalHeaderKey(k)] = []string{v}
		}
		if _, ok := req.Header["User-Agent"]; !ok {
			req.Header["User-Agent"] = []string{""} // send none, like the recorder
		}
		resp, err := r.client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			return resp, nil
		}
		wait := time.Second
		if n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && n >= 0 {
			wait = time.Duration(n) * time.Second
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func keepHeaders(raw *RawStep, h http.Header) {
	if v, ok := h["Content-Type"]; ok && len(v) > 0 {
		ct := v[0]
		raw.ContentType = &ct
	}
	raw.Warnings = append([]string(nil), h.Values("Warning")...)
}

// do sends a plain request and keeps status, headers and body.
func (r *runner) do(p plainRequest, body []byte, raw *RawStep, note func(string, ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.RequestTimeout)
	defer cancel()
	resp, err := r.send(ctx, p, body)
	if err != nil {
		note("request failed: %v", err)
		return
	}
	defer resp.Body.Close()
	raw.Status = resp.StatusCode
	keepHeaders(raw, resp.Header)
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		note("reading body: %v", err)
	}
	raw.Body = b
}

// openWatch opens a stream under handle h.
func (r *runner) openWatch(h string, p plainRequest, body []byte, raw *RawStep, note func(string, ...any)) {
	if old := r.streams[h]; old != nil {
		old.close()
	}
	r.streams[h] = endedStream()
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := r.send(ctx, p, body)
	if err != nil {
		cancel()
		note("watch failed: %v", err)
		return
	}
	raw.Status = resp.StatusCode
	keepHeaders(raw, resp.Header)
	if resp.StatusCode != http.StatusOK {
		b, _ := readWithin(resp.Body, r.opts.RequestTimeout)
		resp.Body.Close()
		cancel()
		raw.Body = b
		return
	}
	r.streams[h] = startStream(resp, cancel)
}

// readWithin reads a whole body but gives up after d.
func readWithin(rc io.ReadCloser, d time.Duration) ([]byte, error) {
	type res struct {
		b   []byte
		err error
	}
	ch := make(chan res, 1)
	go func() {
		b, err := io.ReadAll(rc)
		ch <- res{b, err}
	}()
	select {
	case x := <-ch:
		return x.b, x.err
	case <-time.After(d):
		rc.Close()
		return nil, fmt.Errorf("body not complete after %s", d)
	}
}

// capture stores values found at dotted paths of v.
func (r *runner) capture(c map[string]string, v any, ok bool, note func(string, ...any)) {
	for name, path := range c {
		if !ok {
			note("capture %s: response is not JSON", name)
			continue
		}
		x, found := lookupPath(v, path)
		if !found {
			note("capture %s: nothing at %s", name, path)
			continue
		}
		r.vars[name] = scalarText(x)
	}
}

// wait polls until the condition holds (README "wait").
func (r *runner) wait(w *Wait, note func(string, ...any)) {
	if w.Optional {
		return
	}
	timeout := 30 * time.Second
	if w.TimeoutSeconds > 0 {
		timeout = time.Duration(w.TimeoutSeconds * float64(time.Second))
	}
	if r.opts.MaxWait > 0 && timeout > r.opts.MaxWait {
		timeout = r.opts.MaxWait
	}
	var missing []string
	p := plainRequest{method: http.MethodGet, url: r.base + r.subst(w.Path, nil, &missing)}
	if len(w.Query) > 0 {
		vals := url.Values{}
		for k, v := range w.Query {
			vals.Set(k, r.subst(v, nil, &missing))
		}
		p.url += "?" + vals.Encode()
	}
	deadline := time.Now().Add(timeout)
	last := "no answer"
	for {
		ok, why := r.poll(p, w)
		if ok {
			return
		}
		last = why
		if time.Now().Add(100 * time.Millisecond).After(deadline) {
			note("wait for %s timed out after %s: %s", w.Path, timeout, last)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// poll makes one wait request. Without a condition only the status is
// looked at and the body is not read (the path may be a watch).
func (r *runner) poll(p plainRequest, w *Wait) (bool, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := r.send(ctx, p, nil)
	if err != nil {
		return false, err.Error()
	}
	defer resp.Body.Close()
	want := w.Status
	if want == 0 {
		want = http.StatusOK
	}
	if resp.StatusCode != want {
		return false, fmt.Sprintf("status %d", resp.StatusCode)
	}
	if w.Condition == "" && w.Field == "" {
		return true, ""
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Sprintf("status %d", resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return false, err.Error()
	}
	v, _ := decodeJSON(b)
	if w.Field != "" {
		// A missing field renders as "" (so value "" waits for it to go).
		var missing []string
		got, _ := lookupPath(v, w.Field)
		if s := fieldText(got); s != r.subst(w.Value, nil, &missing) {
			return false, fmt.Sprintf("%s = %q", w.Field, s)
		}
		return true, ""
	}
	conds, _ := lookupPath(v, "status.conditions")
	list, _ := conds.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		if m["type"] == w.Condition && m["status"] == "True" {
			return true, ""
		}
	}
	return false, "condition " + w.Condition + " not True"
}
