package replay

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
)

// minPass is the number of compared steps that must pass; the lead raises
// it as the server grows so that regressions fail the suite.
const minPass = 323

// waitCap bounds every wait of a transcript: the emulator establishes CRDs
// and watch caches at once, so a longer wait only means a missing feature.
const waitCap = 3 * time.Second

// TestMain lets all transcripts run at once: they are network-bound (reads
// and waits sleep on timers), so the default -parallel (GOMAXPROCS) would
// serialise their timeouts. An explicit -parallel wins, and fuzzing keeps
// the default (-parallel is also its worker count).
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	fuzzing := false
	if f := flag.Lookup("test.fuzz"); f != nil && f.Value.String() != "" {
		fuzzing = true // -parallel is also the number of fuzz workers
	}
	if f := flag.Lookup("test.parallel"); f != nil && !set && !fuzzing {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n < 64 {
			_ = flag.Set("test.parallel", "64")
		}
	}
	os.Exit(m.Run())
}

func TestLoad(t *testing.T) {
	ts := loadTruth(t)
	steps := 0
	for _, tr := range ts {
		steps += len(tr.Steps)
	}
	// The README's counts: 41 transcripts, 452 steps, 323 compared.
	if len(ts) != 41 || steps != 452 || CompareCount(ts) != 323 {
		t.Errorf("transcripts=%d steps=%d compared=%d, want 41/452/323", len(ts), steps, CompareCount(ts))
	}
}

// TestConformance replays every transcript against a fresh in-process
// server and reports per transcript "name: passed/compared" with compact
// diffs of the failing steps (REPLAY_VERBOSE=1: whole diffs). It fails
// when fewer than minPass steps pass.
func TestConformance(t *testing.T) {
	ts := loadTruth(t)
	maxLines := 40
	if os.Getenv("REPLAY_VERBOSE") == "1" {
		maxLines = 0
	}
	var mu sync.Mutex
	passed, compared := 0, 0
	t.Run("transcripts", func(t *testing.T) {
		for i := range ts {
			tr := ts[i]
			t.Run(tr.Scenario, func(t *testing.T) {
				t.Parallel()
				res := replayFresh(tr)
				p, c := res.Counts()
				mu.Lock()
				passed += p
				compared += c
				mu.Unlock()
				t.Log("\n" + res.Report(maxLines))
			})
		}
	})
	summary := fmt.Sprintf("conformance: %d/%d steps pass", passed, CompareCount(ts))
	t.Log(summary)
	fmt.Println(summary)
	if compared != CompareCount(ts) {
		t.Errorf("compared %d steps, transcripts hold %d", compared, CompareCount(ts))
	}
	if passed < minPass {
		t.Errorf("%d steps pass, below minPass %d", passed, minPass)
	}
}

// replayFresh runs one transcript against its own server instance.
func replayFresh(tr Transcript) Result {
	srv := httptest.NewServer(apiserver.New(apiserver.Options{}))
	client := NewClient()
	res := RunWith(srv.URL, tr, client, Options{MaxWait: waitCap})
	client.CloseIdleConnections()
	// Close blocks until every handler returned; a watch handler that
	// ignores cancellation must not hang the suite.
	done := make(chan struct{})
	go func() {
		srv.CloseClientConnections()
		srv.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		res.Err = "server did not shut down within 5s (a handler ignores request cancellation?)"
	}
	return res
}
