package kubectl

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// script is testdata/commands.json: the kubectl commands that the browser
// test (tests/browser/kubectl.test.mjs) runs in kubectl.wasm and compares
// with the same commands run natively.
type script struct {
	Files map[string]string `json:"files"`
	Steps []step            `json:"steps"`
}

type step struct {
	Args   []string `json:"args"`
	Stdin  string   `json:"stdin"`
	Code   int      `json:"code"`
	Stdout []string `json:"stdout"`
	Stderr []string `json:"stderr"`
}

// TestNativeCommands runs testdata/commands.json with this module's native
// kubectl (cmd/native: upstream kubectl v0.37.2) against the core's native
// server without controllers (as the browser test's sandbox runs:
// createSandbox({controllers: false})), each step's
// exit code and output checked.
//
// Binaries: $KUBESANDBOX_BIN/{kubesandbox,kubesandbox-cel,kubectl} (make test-kubectl
// builds them), else they are built here.
func TestNativeCommands(t *testing.T) {
	var s script
	raw, err := os.ReadFile("testdata/commands.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	bin := binaries(t)
	server := startServer(t, filepath.Join(bin, "kubesandbox"), "-controllers=false")
	runSteps(t, s, filepath.Join(bin, "kubectl"), server, 0)
}

// runSteps runs a script's steps in order with kubectl against server,
// in a fresh HOME holding the script's files, and checks each step's exit
// code and output; it stops at the first failing step (later steps depend
// on it). A step running longer than timeout (0: none) is killed.
func runSteps(t *testing.T, s script, kubectl, server string, timeout time.Duration) {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".kube"), 0o755); err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(home, ".kube", "config")
	if err := os.WriteFile(kubeconfig, []byte(Kubeconfig(server)), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, text := range s.Files {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, st := range s.Steps {
		// steps depend on the ones before: stop at the first failure
		ok := t.Run(name(i, st.Args), func(t *testing.T) {
			ctx := context.Background()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			cmd := exec.CommandContext(ctx, kubectl, st.Args...)
			cmd.Dir = home
			cmd.Env = append(os.Environ(), "HOME="+home, "KUBECONFIG="+kubeconfig, "KUBECTL_KUBERC=false")
			cmd.Stdin = strings.NewReader(st.Stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code := 0
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					t.Fatal(err)
				}
				code = exit.ExitCode()
			}
			if code != st.Code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, st.Code, stdout.String(), stderr.String())
			}
			for _, want := range st.Stdout {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", want, stdout.String(), stderr.String())
				}
			}
			for _, want := range st.Stderr {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
		})
		if !ok {
			break
		}
	}
}

// name is a step's subtest name: its arguments, shortened.
func name(i int, args []string) string {
	n := strings.Join(args, " ")
	if len(n) > 60 {
		n = n[:60]
	}
	return strings.ReplaceAll(strings.ReplaceAll(n, "/", "_"), " ", "_")
}

// binaries returns a directory with kubesandbox and kubectl in it.
func binaries(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("KUBESANDBOX_BIN"); dir != "" {
		return dir
	}
	dir := t.TempDir()
	for _, b := range []struct{ dir, out, pkg string }{
		{"..", "kubesandbox", "./cmd/kubesandbox"},
		{"../cel", "kubesandbox-cel", "./cmd/kubesandbox-cel"}, // started by kubesandbox beside it
		{".", "kubectl", "./cmd/native"},
	} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, b.out), b.pkg)
		cmd.Dir = b.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	return dir
}

// startServer runs the native server on a free port, with args added
// ("-controllers=false"), and returns its URL.
func startServer(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-kubeconfig", ""}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "serving on "); ok {
				url <- u
			}
		}
	}()
	select {
	case u := <-url:
		return u
	case <-time.After(time.Minute):
		t.Fatal("kubesandbox did not say where it serves")
		return ""
	}
}
