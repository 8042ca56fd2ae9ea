// Package replay replays the conformance transcripts recorded from a real
// kube-apiserver (see /work/shared/conformance/README.md) against a live
// HTTP server, normalises the whole run exactly as the recorder did, and
// compares every compared step's rendered text with the stored one.
//
// Typical use:
//
//	ts, _ := replay.Load("/work/shared/conformance/transcripts")
//	for _, t := range ts {
//		res := replay.Run("http://127.0.0.1:8080", t, nil)
//		fmt.Print(res.Report(40))
//	}
package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Transcript is one recorded scenario.
type Transcript struct {
	Scenario    string            `json:"scenario"`
	Description string            `json:"description"`
	Server      string            `json:"server"`
	Vars        map[string]string `json:"vars"`
	Steps       []Step            `json:"steps"`
}

// Step is one step of a transcript. Exactly one of Request (optionally with
// Watch), Read, Close or a bare Wait is set.
type Step struct {
	Name     string            `json:"name"`
	Request  *Request          `json:"request,omitempty"`
	Capture  map[string]string `json:"capture,omitempty"`
	Ignore   []string          `json:"ignore,omitempty"`
	Wait     *Wait             `json:"wait,omitempty"`
	Watch    string            `json:"watch,omitempty"`
	Read     *Read             `json:"read,omitempty"`
	Close    string            `json:"close,omitempty"`
	Response *Response         `json:"response,omitempty"`
	Result   *ReadResult       `json:"result,omitempty"`
}

// Kind tells which shape a step has.
func (s *Step) Kind() StepKind {
	switch {
	case s.Read != nil:
		return KindRead
	case s.Close != "":
		return KindClose
	case s.Request != nil && s.Watch != "":
		return KindWatch
	case s.Request != nil:
		return KindRequest
	}
	return KindWait
}

// Compared reports whether the step has a response that is compared.
func (s *Step) Compared() bool {
	switch s.Kind() {
	case KindRequest, KindWatch:
		return s.Response != nil
	case KindRead:
		return s.Result != nil
	}
	return false
}

// StepKind is the shape of a step.
type StepKind int

// The step shapes of the README's table.
const (
	KindRequest StepKind = iota
	KindWatch
	KindRead
	KindClose
	KindWait
)

// Request is a recorded HTTP request. Body keeps the file's bytes so that
// the key order of the recording is what gets sent.
type Request struct {
	Method   string          `json:"method"`
	Path     string          `json:"path"`
	Query    Strings         `json:"query,omitempty"`
	Headers  Strings         `json:"headers,omitempty"`
	Body     json.RawMessage `json:"body,omitempty"`
	BodyText *string         `json:"bodyText,omitempty"`
}

// Wait polls a path until it answers a status and/or a condition, or (with
// Field) until the value at that dotted path renders as Value — the waits
// of transcripts recorded from a full control plane, for its controllers.
type Wait struct {
	Path           string  `json:"path"`
	Query          Strings `json:"query,omitempty"`
	Condition      string  `json:"condition,omitempty"`
	Field          string  `json:"field,omitempty"`
	Value          string  `json:"value,omitempty"`
	Status         int     `json:"status,omitempty"`
	TimeoutSeconds float64 `json:"timeoutSeconds,omitempty"`
	Optional       bool    `json:"optional,omitempty"`
}

// Read takes events from an open watch stream.
type Read struct {
	Handle         string  `json:"handle"`
	Events         int     `json:"events"`
	TimeoutSeconds float64 `json:"timeoutSeconds"`
	Bookmarks      bool    `json:"bookmarks,omitempty"`
}

// Response is a stored (normalised) response.
type Response struct {
	Status     int             `json:"status"`
	Headers    Headers         `json:"headers"`
	Body       json.RawMessage `json:"body,omitempty"`
	BodyText   *string         `json:"bodyText,omitempty"`
	BodyBase64 *string         `json:"bodyBase64,omitempty"`
}

// ReadResult is a stored (normalised) read result.
type ReadResult struct {
	Events   []json.RawMessage `json:"events"`
	TimedOut bool              `json:"timedOut"`
	Ended    bool              `json:"ended"`
}

// Headers are the kept response headers.
type Headers struct {
	ContentType *string
	Warning     []string
}

// UnmarshalJSON accepts {"Content-Type": "...", "Warning": "..." | [...]}.
func (h *Headers) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	for k, v := range m {
		switch strings.ToLower(k) {
		case "content-type":
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("Content-Type: %w", err)
			}
			h.ContentType = &s
		case "warning":
			var one string
			if json.Unmarshal(v, &one) == nil {
				h.Warning = append(h.Warning, one)
				continue
			}
			var list []string
			if err := json.Unmarshal(v, &list); err != nil {
				return fmt.Errorf("Warning: %w", err)
			}
			h.Warning = append(h.Warning, list...)
		}
	}
	return nil
}

// Strings is a map of strings that also accepts numbers and booleans as
// values (written as their JSON text).
type Strings map[string]string

// UnmarshalJSON decodes an object of scalars.
func (s *Strings) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(Strings, len(m))
	for k, v := range m {
		var str string
		if json.Unmarshal(v, &str) == nil {
			out[k] = str
			continue
		}
		out[k] = string(bytes.TrimSpace(v))
	}
	*s = out
	return nil
}

// Load reads every *.json transcript in dir, sorted by file name.
func Load(dir string) ([]Transcript, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no transcripts in %s", dir)
	}
	sort.Strings(files)
	var out []Transcript
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		t, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		if t.Scenario == "" {
			t.Scenario = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		out = append(out, t)
	}
	return out, nil
}

// Parse decodes one transcript and checks the step shapes.
func Parse(b []byte) (Transcript, error) {
	var t Transcript
	if err := json.Unmarshal(b, &t); err != nil {
		return t, err
	}
	for i := range t.Steps {
		s := &t.Steps[i]
		if err := s.check(); err != nil {
			return t, fmt.Errorf("step %d (%s): %w", i, s.Name, err)
		}
	}
	return t, nil
}

func (s *Step) check() error {
	n := 0
	if s.Request != nil {
		n++
	}
	if s.Read != nil {
		n++
	}
	if s.Close != "" {
		n++
	}
	if n > 1 {
		return errors.New("more than one of request, read, close")
	}
	if n == 0 && s.Wait == nil {
		return errors.New("empty step")
	}
	if s.Watch != "" && s.Request == nil {
		return errors.New("watch without request")
	}
	if s.Read != nil && s.Read.Events < 0 {
		return errors.New("read: negative events")
	}
	return nil
}

// CompareCount is the number of compared steps in ts.
func CompareCount(ts []Transcript) int {
	n := 0
	for i := range ts {
		for j := range ts[i].Steps {
			if ts[i].Steps[j].Compared() {
				n++
			}
		}
	}
	return n
}
