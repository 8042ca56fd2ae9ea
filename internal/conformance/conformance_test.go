package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInCI(t *testing.T) {
	for _, tc := range []struct {
		ci   string
		want bool
	}{{"", false}, {"0", false}, {"false", false}, {"FALSE", false}, {"true", true}, {"1", true}, {"yes", true}} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			if got := InCI(); got != tc.want {
				t.Errorf("InCI() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDir(t *testing.T) {
	tmp := t.TempDir()
	if err := os.Mkdir(filepath.Join(tmp, "transcripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, env, want string }{
		{"a conformance checkout", tmp, filepath.Join(tmp, "transcripts")},
		{"the transcripts themselves", filepath.Join(tmp, "transcripts"), filepath.Join(tmp, "transcripts")},
		{"beside the repository", "", filepath.Join(repoRoot(), "..", "shared", "conformance", "transcripts")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("KUBESANDBOX_CONFORMANCE", tc.env)
			if got := Dir(); got != tc.want {
				t.Errorf("Dir() = %s, want %s", got, tc.want)
			}
		})
	}
	if root, want := repoRoot(), filepath.Dir(filepath.Dir(mustAbs(t, "."))); root != want {
		t.Errorf("repoRoot() = %s, want %s (two above internal/conformance)", root, want)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
