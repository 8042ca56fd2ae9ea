// Package clients checks that real Kubernetes clients — kubectl (as a
// library), client-go (typed, dynamic, informers) — work unchanged against
// kubesandbox's native server: same output, same errors, same convergence
// as against a cluster.
package clients

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	kubectlcmd "k8s.io/kubectl/pkg/cmd"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func TestMain(m *testing.M) {
	// no user preferences (~/.kube/kuberc) may change kubectl's behaviour
	os.Setenv("KUBERC", "off")
	os.Setenv("KUBECTL_COMMAND_HEADERS", "false")
	os.Exit(m.Run())
}

// recorded is one request the server saw.
type recorded struct {
	Method, Path string
	Query        url.Values
	Status       int
}

// cluster is a kubesandbox server behind httptest, with a log of requests
// and a watch gate (see gateWatches).
type cluster struct {
	*httptest.Server
	api        *apiserver.Server
	kubeconfig string
	cacheDir   string

	mu      sync.Mutex
	log     []recorded
	watches map[*http.Request]func()
	gate    chan struct{} // non-nil: new watches wait until it is closed
}

func newCluster(t *testing.T, opts apiserver.Options) *cluster {
	t.Helper()
	c := &cluster{api: apiserver.New(opts), watches: map[*http.Request]func(){}}
	c.Server = httptest.NewServer(http.HandlerFunc(c.serve))
	dir := t.TempDir()
	c.kubeconfig = filepath.Join(dir, "kubeconfig")
	c.cacheDir = filepath.Join(dir, "cache")
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: sandbox
  cluster: {server: %s}
users:
- name: sandbox
  user: {}
contexts:
- name: sandbox
  context: {cluster: sandbox, user: sandbox, namespace: default}
current-context: sandbox
`, c.URL)
	if err := os.WriteFile(c.kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.kickWatches()
		c.Server.CloseClientConnections()
		c.Server.Close()
		c.api.Close()
	})
	return c
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func isWatch(r *http.Request) bool {
	q := r.URL.Query().Get("watch")
	return q == "true" || q == "1" || strings.Contains(r.URL.Path, "/watch/")
}

func (c *cluster) serve(w http.ResponseWriter, r *http.Request) {
	if isWatch(r) {
		c.mu.Lock()
		gate := c.gate
		c.mu.Unlock()
		if gate != nil && r.Header.Get("X-Ungated") == "" {
			select {
			case <-gate:
			case <-r.Context().Done():
				return
			}
		}
		ctx, cancel := context.WithCancel(r.Context())
		r = r.WithContext(ctx)
		c.mu.Lock()
		c.watches[r] = cancel
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.watches, r)
			c.mu.Unlock()
			cancel()
		}()
	}
	// logged when it starts (a watch may run for long), status when done
	c.mu.Lock()
	i := len(c.log)
	c.log = append(c.log, recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()})
	c.mu.Unlock()
	sw := &statusWriter{ResponseWriter: w}
	c.api.ServeHTTP(sw, r)
	c.mu.Lock()
	c.log[i].Status = sw.code
	c.mu.Unlock()
}

// gateWatches holds every new watch request (but those with an X-Ungated
// header) until the returned function
// is called, and ends the running ones: a client's watch then resumes
// from an old resourceVersion, as after a network partition.
func (c *cluster) gateWatches() (release func()) {
	ch := make(chan struct{})
	c.mu.Lock()
	c.gate = ch
	c.mu.Unlock()
	c.kickWatches()
	return func() {
		c.mu.Lock()
		c.gate = nil
		c.mu.Unlock()
		close(ch)
	}
}

func (c *cluster) kickWatches() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.watches {
		cancel()
	}
}

// requests returns the logged requests that match.
func (c *cluster) requests(match func(recorded) bool) []recorded {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []recorded
	for _, r := range c.log {
		if match(r) {
			out = append(out, r)
		}
	}
	return out
}

func (c *cluster) restConfig() *rest.Config {
	return &rest.Config{Host: c.URL, QPS: 1000, Burst: 1000}
}

func (c *cluster) clientset(t *testing.T) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(c.restConfig())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func (c *cluster) dynamic(t *testing.T) *dynamic.DynamicClient {
	t.Helper()
	dc, err := dynamic.NewForConfig(c.restConfig())
	if err != nil {
		t.Fatal(err)
	}
	return dc
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// kubectlMu serialises kubectl runs: the fatal-error hook and the default
// warning handler are process globals.
var kubectlMu sync.Mutex

// exitError is how a kubectl run that would have exited reports back.
type exitError struct {
	msg  string
	code int
}

func (e exitError) Error() string { return fmt.Sprintf("exit %d: %s", e.code, e.msg) }

// kubectl runs `kubectl args...` in-process against c with stdin; it
// returns stdout, stderr and an error when kubectl would exit non-zero
// (its message is appended to stderr, as the real binary prints it).
func (c *cluster) kubectl(stdin string, args ...string) (stdout, stderr string, err error) {
	var out, errOut syncBuffer
	err = c.kubectlTo(&out, &errOut, stdin, args...)
	return out.String(), errOut.String(), err
}

func (c *cluster) kubectlTo(out, errOut *syncBuffer, stdin string, args ...string) (err error) {
	kubectlMu.Lock()
	defer kubectlMu.Unlock()
	streams := genericiooptions.IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut}
	cmd := kubectlcmd.NewKubectlCommand(kubectlcmd.KubectlOptions{
		IOStreams:   streams,
		ConfigFlags: genericclioptions.NewConfigFlags(true).WithDiscoveryBurst(300).WithDiscoveryQPS(50).WithWarningPrinter(streams),
		Arguments:   append([]string{"kubectl"}, args...),
	})
	cmd.SetArgs(append([]string{"--kubeconfig", c.kubeconfig, "--cache-dir", c.cacheDir}, args...))
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	// kubectl reads `-f -` from os.Stdin, not from IOStreams.In
	if stdin != "" {
		r, w, perr := os.Pipe()
		if perr != nil {
			return perr
		}
		go func() {
			w.Write([]byte(stdin))
			w.Close()
		}()
		saved := os.Stdin
		os.Stdin = r
		defer func() {
			os.Stdin = saved
			r.Close()
		}()
	}
	cmdutil.BehaviorOnFatal(func(msg string, code int) {
		if msg != "" && !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		errOut.Write([]byte(msg))
		panic(exitError{msg, code})
	})
	defer cmdutil.DefaultBehaviorOnFatal()
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(exitError)
			if !ok {
				panic(p)
			}
			err = e
		}
	}()
	return cmd.Execute()
}

// mustKubectl runs kubectl and fails the test on a non-zero exit.
func (c *cluster) mustKubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, errOut, err := c.kubectl(stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// wantLines checks that every pattern matches some line of out. Patterns
// are regular expressions in which a single space stands for any run of
// blanks (table columns), anchored to the whole line.
func wantLines(t *testing.T, out string, patterns ...string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for _, p := range patterns {
		re := regexp.MustCompile("^" + strings.ReplaceAll(p, " ", `\s+`) + `\s*$`)
		found := false
		for _, l := range lines {
			if re.MatchString(l) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no line matches %q in:\n%s", p, out)
		}
	}
}

// eventually polls f until it returns "" (success) or the timeout passes,
// then fails with f's last complaint.
func eventually(t *testing.T, timeout time.Duration, f func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		msg := f()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
