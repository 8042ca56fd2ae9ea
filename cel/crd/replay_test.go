package crd_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/replay"
)

// transcripts are the project's recordings from kube-apiserver v1.37.2;
// the cel-crd-* ones need the CEL engine, so they are replayed here, not
// by core/replay (which skips cel-*).
const transcripts = "../../tests/conformance/transcripts"

// TestCRDTranscripts replays every cel-crd-* transcript against a fresh
// server with the engine: every compared step must pass.
func TestCRDTranscripts(t *testing.T) {
	ts, err := replay.Load(transcripts)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tr := range ts {
		if !strings.HasPrefix(tr.Scenario, "cel-crd-") {
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
			res := replay.RunWith(srv.URL, tr, client, replay.Options{MaxWait: 3 * time.Second})
			p, c := res.Counts()
			t.Logf("%s: %d/%d", tr.Scenario, p, c)
			if res.Err != "" || p != c || c == 0 {
				t.Errorf("%d/%d steps pass\n%s", p, c, res.Report(0))
			}
		})
	}
	if n < 3 {
		t.Fatalf("%d cel-crd-* transcripts in %s, want at least 3", n, transcripts)
	}
}
