package main

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/internal/celreplay"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/internal/celproc"
)

// TestReplayThroughProcess replays every cel-* transcript (CRD rules and
// admission policies) against a server whose engine is this command, built
// and started as the native server starts it (internal/celproc, one engine
// process per transcript): the pipe must change nothing a client sees.
func TestReplayThroughProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	bin := filepath.Join(t.TempDir(), "kubesandbox-cel")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var started []*celproc.Transport
	t.Cleanup(func() {
		for _, tr := range started {
			tr.Close()
		}
	})
	celreplay.RunWith(t, "../../../tests/conformance/transcripts", "cel-", 5*time.Second, 4, func() cel.Engine {
		tr := &celproc.Transport{Path: bin}
		started = append(started, tr)
		return cel.Remote(tr)
	})
	for _, tr := range started {
		if tr.Starts() != 1 {
			t.Errorf("the engine started %d times for one transcript, want once", tr.Starts())
		}
	}
}
