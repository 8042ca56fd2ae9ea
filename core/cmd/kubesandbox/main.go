// Command kubesandbox serves the core's API natively over plain HTTP, so
// kubectl and client-go can talk to it.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6443", "address to listen on")
	kubeconfig := flag.String("kubeconfig", "kubeconfig.yaml", "where to write a kubeconfig for this server (empty: don't)")
	ctrl := flag.Bool("controllers", true, "run the in-process controllers (garbage collector, Deployments, ReplicaSets, Jobs, DaemonSets, the scheduler and simulated kubelets)")
	nodes := flag.Int("nodes", controllers.DefaultNodes, "simulated Nodes (sandbox-control-plane, sandbox-worker, ...); 0: nothing runs Pods, they stay Pending (a control plane without scheduler or kubelet)")
	flag.Parse()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *nodes < 0 {
		fmt.Fprintln(os.Stderr, "-nodes must not be negative")
		os.Exit(2)
	}
	opts := apiserver.Options{}
	if *ctrl {
		opts.Controllers = controllers.StarterWith(controllers.Options{Nodes: *nodes})
	}
	srv := &http.Server{Handler: apiserver.New(opts)}
	go srv.Serve(ln)

	url := "http://" + ln.Addr().String()
	if *kubeconfig != "" {
		if err := writeKubeconfig(*kubeconfig, url); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		abs, _ := filepath.Abs(*kubeconfig)
		fmt.Printf("kubeconfig written to %s (kubectl --kubeconfig %s get ns)\n", abs, abs)
	}
	fmt.Printf("serving on %s\n", url)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	srv.Shutdown(context.Background())
}

func writeKubeconfig(path, url string) error {
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kubesandbox
  cluster:
    server: %s
    insecure-skip-tls-verify: true
users:
- name: kubesandbox
  user: {}
contexts:
- name: kubesandbox
  context:
    cluster: kubesandbox
    user: kubesandbox
    namespace: default
current-context: kubesandbox
`, url)
	return os.WriteFile(path, []byte(cfg), 0o600)
}
