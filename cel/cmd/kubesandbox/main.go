// Command kubesandbox is the native server (internal/servermain has the
// flags) with the CEL engine (cel/engine) linked in-process: one binary,
// no pipe, for `cd cel && go run ./cmd/kubesandbox`. `make build` builds
// the root module's cmd/kubesandbox instead, which starts the engine
// (cmd/kubesandbox-cel) as a process of its own the first time a rule or
// a policy needs it, and so answers its first request without this
// binary's k8s.io/* package init.
//
//	kubesandbox -controllers=false -tls -kubeconfig /tmp/kubeconfig
package main

import (
	"github.com/kubesandbox/kubesandbox/cel/engine"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/internal/servermain"
)

func main() {
	servermain.Main(func() cel.Engine { return engine.New() })
}
