// Package celproc carries core/cel's Transport over a pipe to the CEL
// engine running as a process of its own (bin/kubesandbox-cel, built from
// the cel module's cmd/kubesandbox-cel), so that the native server
// (cmd/kubesandbox) never links the engine's k8s.io/* packages and never
// pays their package init (tens of milliseconds) before its first answer.
// It mirrors the browser, where web/worker.js loads cel-crd.wasm and
// cel-policy.wasm the first time a call needs them:
//
//   - Engine(path) is a core/cel.Engine whose first call starts path;
//     every call after that is one line on its stdin and one on its
//     stdout. The core calls the engine only when a CRD has
//     x-kubernetes-validations or a ValidatingAdmissionPolicy exists, so a
//     server without any never starts it.
//   - Serve is the engine's end (cel.Dispatch per line).
//
// The wire is JSON, one object a line, answered in any order:
//
//	→ {"id":1,"method":"CheckCRD","request":{"crd":{...}}}
//	← {"id":1,"response":[]}
//	→ {"id":2,"method":"Nope","request":{}}
//	← {"id":2,"error":"cel: unknown method \"Nope\""}
//
// A failure to start the engine (a missing executable) fails the call as
// the browser's failed load does — "the CEL engine (...) could not be
// loaded: ...", an InternalError to the client — and the next call tries
// again; so does an engine that exited.
package celproc

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// request and response are the wire's lines.
type request struct {
	ID      uint64          `json:"id"`
	Method  string          `json:"method"`
	Request json.RawMessage `json:"request"`
}

type response struct {
	ID       uint64          `json:"id"`
	Error    string          `json:"error,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
}

// ErrLoad wraps a failed start of the engine.
var ErrLoad = errors.New("could not be loaded")

// Transport is the client end: a cel.Transport to the engine at Path,
// started by the first Call. Its zero value (with Path set) is ready.
type Transport struct {
	Path string
	// Stderr receives the engine's stderr (default os.Stderr).
	Stderr io.Writer

	mu      sync.Mutex // guards everything below; held across a start
	proc    *proc
	started int // starts so far (a test's view)
}

// proc is one running engine.
type proc struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	wmu     sync.Mutex // one line at a time on in
	mu      sync.Mutex // guards next, pending, err
	next    uint64
	pending map[uint64]chan response
	err     error         // set when the engine is gone
	exited  chan struct{} // closed once the process is reaped (read)
}

// Engine is the engine at path (e.g. "bin/kubesandbox-cel"), started on
// the first call.
func Engine(path string) cel.Engine { return cel.Remote(&Transport{Path: path}) }

// Call sends one call to the engine, starting it if it does not run.
func (t *Transport) Call(method string, req []byte) ([]byte, error) {
	p, err := t.running()
	if err != nil {
		return nil, err
	}
	return p.call(method, req)
}

// Starts is how many times the engine was started.
func (t *Transport) Starts() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.started
}

// Close ends the engine (its stdin closes; it exits) and waits until it
// has.
func (t *Transport) Close() error {
	t.mu.Lock()
	p := t.proc
	t.proc = nil
	t.mu.Unlock()
	if p == nil {
		return nil
	}
	p.in.Close()
	<-p.exited
	return nil
}

// running is the engine, started if there is none or the last one is gone.
func (t *Transport) running() (*proc, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.proc != nil && t.proc.alive() {
		return t.proc, nil
	}
	p, err := t.start()
	if err != nil {
		return nil, fmt.Errorf("the CEL engine (%s) %w: %v", t.Path, ErrLoad, err)
	}
	t.proc = p
	t.started++
	return p, nil
}

func (t *Transport) start() (*proc, error) {
	if t.Path == "" {
		return nil, errors.New("no engine configured (-cel)")
	}
	cmd := exec.Command(t.Path)
	cmd.Stderr = t.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, in: in, pending: map[uint64]chan response{}, exited: make(chan struct{})}
	go p.read(out)
	return p, nil
}

func (p *proc) alive() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err == nil
}

// call writes one request line and waits for its answer.
func (p *proc) call(method string, req []byte) ([]byte, error) {
	ch := make(chan response, 1)
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return nil, p.err
	}
	p.next++
	id := p.next
	p.pending[id] = ch
	p.mu.Unlock()
	line, err := json.Marshal(request{ID: id, Method: method, Request: req})
	if err != nil {
		p.forget(id)
		return nil, err
	}
	p.wmu.Lock()
	_, err = p.in.Write(append(line, '\n'))
	p.wmu.Unlock()
	if err != nil {
		p.fail(fmt.Errorf("cel: the engine is gone: %v", err))
	}
	r := <-ch
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	return r.Response, nil
}

func (p *proc) forget(id uint64) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// read hands each answer line to its caller; at the end of the engine's
// stdout every call still waiting fails.
func (p *proc) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	for sc.Scan() {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			continue // not ours (a stray print): the caller waits on its id
		}
		p.mu.Lock()
		ch := p.pending[r.ID]
		delete(p.pending, r.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- r
		}
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	p.fail(fmt.Errorf("cel: the engine exited (%v)", err))
	p.in.Close()
	p.cmd.Wait() // reap it; the one Wait (Close waits on exited)
	close(p.exited)
}

// fail marks the engine gone and answers every waiting call with err.
func (p *proc) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
	}
	for id, ch := range p.pending {
		ch <- response{ID: id, Error: p.err.Error()}
		delete(p.pending, id)
	}
}

// Serve is the engine's end: it answers each request line of in on out
// (cel.Dispatch on e, each call on a goroutine of its own; a panic is the
// call's error) until in ends.
func Serve(e cel.Engine, in io.Reader, out io.Writer) error {
	var wmu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	for sc.Scan() {
		var r request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("celproc: a request that is not JSON: %v", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := response{ID: r.ID}
			b, err := dispatch(e, r.Method, r.Request)
			if err != nil {
				resp.Error = err.Error()
			} else {
				resp.Response = b
			}
			line, _ := json.Marshal(resp)
			wmu.Lock()
			defer wmu.Unlock()
			out.Write(append(line, '\n'))
		}()
	}
	return sc.Err()
}

// dispatch is cel.Dispatch with a panic turned into the call's error.
func dispatch(e cel.Engine, method string, req []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cel: %s panicked: %v", method, r)
		}
	}()
	return cel.Dispatch(e, method, req)
}
