// Package conformance finds, for tests, the transcripts recorded from a
// real kube-apiserver: $KUBESANDBOX_CONFORMANCE, else
// ../shared/conformance/transcripts beside the repository.
//
// Without them a test is skipped on a developer's machine but fails in CI
// (CI=true, which `make test` also sets): a gate that can skip silently
// is no gate.
package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir is the transcripts directory; it may not exist (see Missing).
func Dir() string {
	if d := os.Getenv("KUBESANDBOX_CONFORMANCE"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, "transcripts")); err == nil && fi.IsDir() {
			return filepath.Join(d, "transcripts")
		}
		return d
	}
	return filepath.Join(repoRoot(), "..", "shared", "conformance", "transcripts")
}

// Read returns the transcript file name (e.g. "json-patch.json"), or
// ends the test through Missing.
func Read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		Missing(t, "conformance transcript %s: %v (set KUBESANDBOX_CONFORMANCE)", name, err)
	}
	return b
}

// Missing ends a test that lacks a transcript: Skipf, or Fatalf in CI.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("CI: "+format, args...)
	}
	t.Skipf(format, args...)
}

// InCI reports whether CI is set to anything but "", "0" or "false".
func InCI() bool {
	switch strings.ToLower(os.Getenv("CI")) {
	case "", "0", "false":
		return false
	}
	return true
}

// repoRoot is the nearest directory above the working directory (a test's
// package directory) that holds this module's go.mod, or "." if none.
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/kubesandbox/kubesandbox\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
