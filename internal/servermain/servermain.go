// Package servermain is the native server's main, shared by its two
// builds:
//
//   - cmd/kubesandbox (the root module, `make build`): the core alone; the
//     CEL engine is bin/kubesandbox-cel, a process of its own started the
//     first time a rule or a policy needs it (internal/celproc), so the
//     server answers its first request without the engine's package init;
//   - cel/cmd/kubesandbox (the cel module): the engine linked in-process
//     (`cd cel && go run ./cmd/kubesandbox`, one binary, no pipe).
//
// The test mode, as envtest runs kube-apiserver (no controllers change
// objects under a test):
//
//	kubesandbox -controllers=false -tls -kubeconfig /tmp/kubeconfig
//	USE_EXISTING_CLUSTER=true KUBECONFIG=/tmp/kubeconfig go test ./...
package servermain

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	_ "net/http/pprof" // served only with -pprof, on its own listener
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/controllers"
	"github.com/kubesandbox/kubesandbox/testserver"
)

// Main parses the flags, serves until SIGINT or SIGTERM and exits.
// engine returns the CEL engine once the flags are parsed; Main calls it
// before it listens.
func Main(engine func() cel.Engine) {
	addr := flag.String("addr", "127.0.0.1:6443", "address to listen on")
	kubeconfig := flag.String("kubeconfig", "kubeconfig.yaml", "where to write a kubeconfig for this server (empty: don't)")
	ctrl := flag.Bool("controllers", true, "run the in-process controllers (garbage collector, Deployments, ReplicaSets, Jobs, DaemonSets, the scheduler and simulated kubelets); false is the test mode, as envtest runs kube-apiserver")
	nodes := flag.Int("nodes", controllers.DefaultNodes, "simulated Nodes (sandbox-control-plane, sandbox-worker, ...); 0: nothing runs Pods, they stay Pending (a control plane without scheduler or kubelet)")
	useTLS := flag.Bool("tls", false, "serve HTTPS with a self-signed certificate and require a bearer token (both written to the kubeconfig)")
	token := flag.String("token", "", "with -tls: the bearer token to require (default: random)")
	pprofAddr := flag.String("pprof", "", "serve net/http/pprof on this address (e.g. 127.0.0.1:6061; empty: don't), apart from the API")
	flag.Parse()
	if *pprofAddr != "" {
		go func() { fmt.Fprintln(os.Stderr, http.ListenAndServe(*pprofAddr, nil)) }()
	}

	if *nodes < 0 {
		fmt.Fprintln(os.Stderr, "-nodes must not be negative")
		os.Exit(2)
	}
	srv, err := testserver.Start(context.Background(), testserver.Options{
		Addr: *addr, Controllers: *ctrl, Nodes: *nodes, PlainHTTP: !*useTLS, Token: *token,
		CEL: engine(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *kubeconfig != "" {
		if err := os.WriteFile(*kubeconfig, srv.Kubeconfig(), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		abs, _ := filepath.Abs(*kubeconfig)
		fmt.Printf("kubeconfig written to %s (kubectl --kubeconfig %s get ns)\n", abs, abs)
	}
	fmt.Printf("serving on %s\n", srv.URL)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	srv.Stop()
}
