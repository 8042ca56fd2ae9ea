package policy_test

import (
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/internal/celreplay"
)

// TestPolicyTranscripts replays every cel-vap-* transcript (recorded without
// kube-controller-manager: tests/conformance/scenarios/cel-vap-*.yaml)
// against a fresh server with the engine: every compared step must pass.
func TestPolicyTranscripts(t *testing.T) {
	celreplay.Run(t, "cel-vap-", 5*time.Second, 1)
}
