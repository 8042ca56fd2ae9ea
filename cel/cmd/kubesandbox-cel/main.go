// Command kubesandbox-cel is the CEL engine (cel/engine: CRD validation
// rules and ValidatingAdmissionPolicies, the real k8s.io code) as a
// process of its own: the native server (the root module's
// cmd/kubesandbox) starts it the first time a rule or a policy needs it
// and talks to it over its stdin and stdout, one JSON line a call
// (internal/celproc):
//
//	echo '{"id":1,"method":"Nope","request":{}}' | kubesandbox-cel
//	{"id":1,"error":"cel: unknown method \"Nope\""}
//
// It exits when its stdin ends (the server is gone).
package main

import (
	"fmt"
	"os"

	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/internal/celproc"
)

func main() {
	// Serve writes each answer as one line in one Write: no buffering
	if err := celproc.Serve(engine.New(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "kubesandbox-cel:", err)
		os.Exit(1)
	}
}
