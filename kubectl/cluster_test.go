package kubectl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestClusterCommands runs testdata/cluster.json — what a learner types
// against a living cluster: a Deployment scaled, rolled out, undone and
// restarted, a Service and its endpoints, a Job waited for, a Job from a
// CronJob, a StatefulSet and a DaemonSet (rolled out, their history read
// and undone), deletes with each cascade, a namespace deleted, a Node
// drained — with the native kubectl against
// bin/kubesandbox with its controllers and three Nodes (as `make serve`).
// Each step waits with kubectl itself (rollout status, wait --for), so the
// expected texts do not race the controllers; they are substrings that a
// real v1.37.2 cluster prints too. A step is killed after 3 minutes (a
// command that hangs fails instead of stalling the test).
func TestClusterCommands(t *testing.T) {
	var s script
	raw, err := os.ReadFile("testdata/cluster.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	bin := binaries(t)
	server := startServer(t, filepath.Join(bin, "kubesandbox"), "-nodes", "3")
	runSteps(t, s, filepath.Join(bin, "kubectl"), server, 3*time.Minute)
}
