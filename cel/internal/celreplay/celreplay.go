// Package celreplay replays the project's cel-* transcripts (recorded from
// kube-apiserver v1.37.2; core/replay skips them, having no engine) against
// a fresh server with the CEL engine per transcript, in the recording's
// shape: no controllers, but for the transcripts recorded with
// kube-controller-manager (KUBE_KCM=1, Recorded). Every compared step must
// pass.
package celreplay

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/controllers"
	"github.com/kubesandbox/kubesandbox/core/replay"
)

// Recorded are the transcripts recorded from the full control plane
// (KUBE_KCM=1), replayed with the in-process controllers (no Nodes).
var Recorded = map[string]bool{"cel-vap-status": true}

// Transcripts is where the recordings are, from a package directory of the
// cel module (cel/crd, cel/policy).
const Transcripts = "../../tests/conformance/transcripts"

// Run replays every transcript whose scenario starts with prefix, waiting at
// most maxWait for a step's condition, and fails unless at least min
// transcripts were found. REPLAY_VERBOSE=1 prints whole reports.
func Run(t *testing.T, prefix string, maxWait time.Duration, min int) {
	t.Helper()
	RunWith(t, Transcripts, prefix, maxWait, min, func() cel.Engine { return engine.New() })
}

// RunWith is Run with the transcripts in dir and the engine newEngine
// returns for each transcript (cmd/kubesandbox-cel's test: the engine as
// a process of its own).
func RunWith(t *testing.T, dir, prefix string, maxWait time.Duration, min int, newEngine func() cel.Engine) {
	t.Helper()
	ts, err := replay.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := 60
	if os.Getenv("REPLAY_VERBOSE") == "1" {
		lines = 0
	}
	n := 0
	for _, tr := range ts {
		if !strings.HasPrefix(tr.Scenario, prefix) {
			continue
		}
		n++
		t.Run(tr.Scenario, func(t *testing.T) {
			opts := apiserver.Options{CEL: newEngine()}
			if Recorded[tr.Scenario] {
				opts.Controllers = controllers.StarterWith(controllers.Options{Nodes: 0})
			}
			api := apiserver.New(opts)
			defer api.Close()
			srv := httptest.NewServer(api)
			defer srv.Close()
			client := replay.NewClient()
			defer client.CloseIdleConnections()
			res := replay.RunWith(srv.URL, tr, client, replay.Options{MaxWait: maxWait})
			p, c := res.Counts()
			t.Logf("%s: %d/%d", tr.Scenario, p, c)
			if res.Err != "" || p != c || c == 0 {
				t.Errorf("%d/%d steps pass %s\n%s", p, c, res.Err, res.Report(lines))
			}
		})
	}
	if n < min {
		t.Fatalf("%d %s* transcripts in %s, want at least %d", n, prefix, dir, min)
	}
}
