package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
)

// stream is an open watch: a goroutine decodes the newline-delimited JSON
// events into a queue that reads consume.
type stream struct {
	mu     sync.Mutex
	queue  []event
	ended  bool          // the server closed the stream (or it never opened)
	notify chan struct{} // signalled (non-blocking) on every change
	cancel context.CancelFunc
	body   io.ReadCloser
}

// event is one watch event: raw bytes for normalisation, the decoded value
// for captures, and its type for dropping BOOKMARKs.
type event struct {
	raw []byte
	val any
	typ string
}

// endedStream is the handle of a watch that did not answer 200.
func endedStream() *stream {
	return &stream{ended: true, notify: make(chan struct{}, 1), cancel: func() {}}
}

// startStream consumes resp.Body in the background.
func startStream(resp *http.Response, cancel context.CancelFunc) *stream {
	s := &stream{notify: make(chan struct{}, 1), cancel: cancel, body: resp.Body}
	go s.loop(resp.Body)
	return s
}

func (s *stream) loop(r io.Reader) {
	defer func() {
		_ = recover() // a decoding bug must not kill the test binary
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		s.signal()
	}()
	d := json.NewDecoder(r)
	for {
		var raw json.RawMessage
		if err := d.Decode(&raw); err != nil {
			return
		}
		e := event{raw: bytes.Clone(raw)}
		e.val, _ = decodeJSON(e.raw)
		if m, ok := e.val.(map[string]any); ok {
			e.typ, _ = m["type"].(string)
		}
		s.mu.Lock()
		s.queue = append(s.queue, e)
		s.mu.Unlock()
		s.signal()
	}
}

func (s *stream) signal() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// take pops up to k events (all when k == 0), dropping BOOKMARKs unless
// bookmarks is set. It reports whether the queue is now empty.
func (s *stream) take(out []event, k int, bookmarks bool) ([]event, bool, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) > 0 && (k == 0 || len(out) < k) {
		e := s.queue[0]
		s.queue = s.queue[1:]
		if e.typ == "BOOKMARK" && !bookmarks {
			continue
		}
		out = append(out, e)
	}
	return out, len(s.queue) == 0, s.ended
}

// read takes the next k events within timeout. k == 0 waits the whole
// timeout and returns whatever arrived (returning early only when the
// stream has ended, since nothing more can arrive).
func (s *stream) read(k int, timeout time.Duration, bookmarks bool) (evs []event, timedOut, ended bool) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		var empty bool
		evs, empty, ended = s.take(evs, k, bookmarks)
		if k > 0 && len(evs) >= k {
			return evs, false, ended
		}
		if ended && empty {
			return evs, len(evs) < k, true
		}
		select {
		case <-s.notify:
		case <-timer.C:
			evs, _, ended = s.take(evs, k, bookmarks)
			return evs, len(evs) < k, ended
		}
	}
}

// close stops the stream.
func (s *stream) close() {
	s.cancel()
	if s.body != nil {
		s.body.Close()
	}
}
