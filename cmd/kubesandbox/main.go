// Command kubesandbox serves the core's API natively, so kubectl and
// client-go can talk to it: over plain HTTP by default, or — with -tls —
// over HTTPS with a self-signed certificate and a bearer token, both in
// the kubeconfig it writes (internal/servermain has the flags).
//
// It links the core alone. CRD validation rules and ValidatingAdmissionPolicies
// are evaluated by the CEL engine, kubesandbox-cel (the cel module's
// cmd/kubesandbox-cel, the real k8s.io code), which it starts the first
// time a rule or a policy needs it and reaches over a pipe
// (internal/celproc) — as the browser loads cel-crd.wasm/cel-policy.wasm.
// The engine's package init (tens of milliseconds) is so never on the
// way to the first answer. `make build` puts both in bin/:
//
//	bin/kubesandbox -addr 127.0.0.1:8080            # finds bin/kubesandbox-cel beside itself
//	bin/kubesandbox -cel /elsewhere/kubesandbox-cel
//
// Without the engine the server runs, and a write that needs it answers
// 500 InternalError "the CEL engine (...) could not be loaded: ..." (as
// the browser when its engine cannot load).
package main

import (
	"flag"
	"os"
	"path/filepath"

	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/internal/celproc"
	"github.com/kubesandbox/kubesandbox/internal/servermain"
)

func main() {
	path := flag.String("cel", besideMe("kubesandbox-cel"), "the CEL engine's executable (the cel module's cmd/kubesandbox-cel), started the first time a CRD rule or an admission policy needs it")
	servermain.Main(func() cel.Engine { return celproc.Engine(*path) })
}

// besideMe is name in this executable's directory.
func besideMe(name string) string {
	self, err := os.Executable()
	if err != nil {
		return name
	}
	return filepath.Join(filepath.Dir(self), name)
}
