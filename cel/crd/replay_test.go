package crd_test

import (
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/cel/internal/celreplay"
)

// TestCRDTranscripts replays every cel-crd-* transcript against a fresh
// server with the engine: every compared step must pass.
func TestCRDTranscripts(t *testing.T) {
	celreplay.Run(t, "cel-crd-", 3*time.Second, 3)
}
