package policy_test

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/replay"
)

// transcripts are the project's recordings; the cel-vap-* ones were
// recorded from kube-apiserver v1.37.2 without kube-controller-manager
// (tests/conformance/scenarios/cel-vap-*.yaml).
const transcripts = "../../tests/conformance/transcripts"

// TestPolicyTranscripts replays every cel-vap-* transcript against a fresh
// server with the engine, in the recording's shape (no controllers), and
// requires every compared step to pass.
func TestPolicyTranscripts(t *testing.T) {
	all, err := replay.Load(transcripts)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tr := range all {
		if !strings.HasPrefix(tr.Scenario, "cel-vap-") {
			continue
		}
		n++
		t.Run(tr.Scenario, func(t *testing.T) {
			api := apiserver.New(apiserver.Options{CEL: engine.New()})
			defer api.Close()
			srv := httptest.NewServer(api)
			defer srv.Close()
			client := replay.NewClient()
			defer client.CloseIdleConnections()
			res := replay.RunWith(srv.URL, tr, client, replay.Options{MaxWait: 5 * time.Second})
			p, c := res.Counts()
			lines := 60
			if os.Getenv("REPLAY_VERBOSE") == "1" {
				lines = 0
			}
			if p != c || res.Err != "" {
				t.Errorf("%s: %d/%d steps pass %s\n%s", tr.Scenario, p, c, res.Err, res.Report(lines))
			} else {
				t.Logf("%s: %d/%d", tr.Scenario, p, c)
			}
		})
	}
	if n == 0 {
		t.Fatal("no cel-vap-* transcripts")
	}
}
