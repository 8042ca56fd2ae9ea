package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// fakeServer plays the recording server from a transcript: it answers
// each request with the stored response de-normalised by synth, streams
// the stored watch events, answers the wait polls, and answers the first
// request once with 429 to exercise the retry. Replaying a transcript
// against it must pass every compared step, which tests the runner end to
// end (requests as sent, variables, captures, streams, reads, waits).
type fakeServer struct {
	tr  *Transcript
	syn *synth

	mu      sync.Mutex
	cursor  int
	streams map[string]chan []byte
	did429  bool
	errs    []string
}

func newFake(tr *Transcript) *fakeServer {
	return &fakeServer{tr: tr, syn: &synth{}, streams: map[string]chan []byte{}}
}

func (f *fakeServer) errorf(format string, a ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, a...))
}

// pattern turns a stored path with ${vars} into a regexp.
func varPattern(s string) *regexp.Regexp {
	parts := varRef.Split(s, -1)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile("^" + strings.Join(parts, "[^$]+") + "$")
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("User-Agent") == "" { // the runner's wait polls send none
		f.serveWait(w, r)
		return
	}
	f.mu.Lock()
	if _, ok := r.Header["Accept-Encoding"]; ok {
		f.errorf("%s %s: Accept-Encoding was sent", r.Method, r.URL)
	}
	j := f.cursor
	for j < len(f.tr.Steps) && f.tr.Steps[j].Request == nil {
		j++
	}
	if j == len(f.tr.Steps) {
		f.errorf("unexpected request %s %s", r.Method, r.URL)
		f.mu.Unlock()
		w.WriteHeader(500)
		return
	}
	st := &f.tr.Steps[j]
	f.check(st, r)
	if !f.did429 {
		f.did429 = true
		f.mu.Unlock()
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	f.cursor = j + 1
	resp := st.Response
	h := w.Header()
	if resp.Headers.ContentType != nil {
		h.Set("Content-Type", *resp.Headers.ContentType)
	}
	for _, v := range resp.Headers.Warning {
		h.Add("Warning", f.syn.text(v))
	}
	var body []byte
	switch {
	case len(resp.Body) > 0:
		body = f.syn.jsonBytes(resp.Body)
	case resp.BodyText != nil:
		body = []byte(f.syn.text(*resp.BodyText))
	case resp.BodyBase64 != nil:
		body = decodeBase64(*resp.BodyBase64)
	}
	if st.Watch == "" || resp.Status != http.StatusOK {
		f.pushReads(j + 1)
		f.mu.Unlock()
		w.WriteHeader(resp.Status)
		w.Write(body)
		return
	}
	ch := make(chan []byte, 100)
	f.streams[st.Watch] = ch
	f.pushReads(j + 1)
	f.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	for {
		select {
		case e := <-ch:
			w.Write(append(e, '\n'))
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

// check compares the request with the stored one (variables as wildcards).
func (f *fakeServer) check(st *Step, r *http.Request) {
	q := st.Request
	if r.Method != q.Method || !varPattern(q.Path).MatchString(r.URL.Path) {
		f.errorf("step %q: got %s %s, want %s %s", st.Name, r.Method, r.URL.Path, q.Method, q.Path)
	}
	got := r.URL.Query()
	if len(got) != len(q.Query) {
		f.errorf("step %q: query %v, want %v", st.Name, got, q.Query)
	}
	for k, v := range q.Query {
		if !varPattern(v).MatchString(got.Get(k)) {
			f.errorf("step %q: query %s=%q, want %q", st.Name, k, got.Get(k), v)
		}
	}
	for k, v := range q.Headers {
		if !varPattern(v).MatchString(r.Header.Get(k)) {
			f.errorf("step %q: header %s=%q, want %q", st.Name, k, r.Header.Get(k), v)
		}
	}
	b, _ := io.ReadAll(r.Body)
	switch {
	case len(q.Body) > 0:
		var c bytes.Buffer
		if err := json.Compact(&c, q.Body); err != nil || !varPattern(c.String()).Match(b) {
			f.errorf("step %q: body %s, want %s", st.Name, b, q.Body)
		}
	case q.BodyText != nil:
		if !varPattern(*q.BodyText).Match(b) {
			f.errorf("step %q: body %q, want %q", st.Name, b, *q.BodyText)
		}
	case len(b) > 0:
		f.errorf("step %q: unexpected body %q", st.Name, b)
	}
}

// pushReads queues the events of the read steps that follow step i (up to
// the next request) on their streams.
func (f *fakeServer) pushReads(i int) {
	for ; i < len(f.tr.Steps) && f.tr.Steps[i].Request == nil; i++ {
		s := &f.tr.Steps[i]
		if s.Read == nil || s.Result == nil {
			continue
		}
		ch := f.streams[s.Read.Handle]
		if ch == nil {
			continue
		}
		for _, e := range s.Result.Events {
			ch <- f.syn.jsonBytes(e)
		}
	}
}

// serveWait answers a wait poll as satisfied.
func (f *fakeServer) serveWait(w http.ResponseWriter, r *http.Request) {
	for _, s := range f.tr.Steps {
		if s.Wait == nil || s.Wait.Path != r.URL.Path {
			continue
		}
		if s.Wait.Condition != "" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"status":{"conditions":[{"type":"Other","status":"True"},{"type":%q,"status":"True"}]}}`, s.Wait.Condition)
			return
		}
		if s.Wait.Status != 0 {
			w.WriteHeader(s.Wait.Status)
		}
		return
	}
	w.WriteHeader(http.StatusNotFound)
}

// TestRunAgainstRecording replays every transcript against a fake server
// that answers like the recording; every compared step must pass.
func TestRunAgainstRecording(t *testing.T) {
	ts := loadTruth(t)
	for i := range ts {
		tr := ts[i]
		t.Run(tr.Scenario, func(t *testing.T) {
			t.Parallel()
			f := newFake(&tr)
			srv := httptest.NewServer(f)
			defer srv.Close()
			defer srv.CloseClientConnections()
			res := RunWith(srv.URL, tr, nil, Options{MaxWait: waitCap})
			if p, c := res.Counts(); p != c || res.Err != "" {
				t.Errorf("%s", res.Report(0))
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, e := range f.errs {
				t.Error(e)
			}
			if f.cursor == 0 {
				t.Error("no request reached the server")
			}
		})
	}
}
