//go:build js && wasm

// Command wasm is upstream kubectl v0.37.2 for a browser: one Go instance
// that runs a fresh kubectl command tree per call. It installs
//
//	kubesandboxKubectl(args, server) → Promise<exit code>
//
// e.g. kubesandboxKubectl(['get', 'pods', '-o', 'name'], 'http://localhost:8080/sandbox/ex1').
// Output is written to fds 1 and 2 and stdin is read from fd 0, all of
// which are the JS filesystem's (web/kubectl-fs.js): the page collects
// them per call, so a `get -w` streams. Requests go through Go's js/wasm
// net/http transport (fetch), so the service worker answers them with the
// in-browser core. The kubeconfig ($HOME/.kube/config, written here per
// call) points at server; the discovery cache ($HOME/.kube/cache) lives in
// the same in-memory filesystem, so later commands skip discovery.
//
// Calls are run one at a time (kubectl keeps state in globals: the fatal
// handler, the default warning handler, os.Stdin). The exit code is the
// one the kubectl process would exit with: cmdutil.CheckErr's fatal
// handler is replaced by one that unwinds the call with its code.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall/js"

	"github.com/kubesandbox/kubesandbox/kubectl"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/component-base/cli"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	js.Global().Set("kubesandboxKubectl", js.FuncOf(call))
	select {}
}

var mu sync.Mutex // one kubectl at a time

// call is the JS entry: it starts the command on a goroutine and returns a
// Promise of its exit code (a JS function must not block).
func call(_ js.Value, a []js.Value) any {
	var args []string
	if len(a) > 0 && a[0].Type() == js.TypeObject {
		for i := 0; i < a[0].Length(); i++ {
			args = append(args, a[0].Index(i).String())
		}
	}
	server := ""
	if len(a) > 1 && a[1].Type() == js.TypeString {
		server = a[1].String()
	}
	var resolve js.Value
	executor := js.FuncOf(func(_ js.Value, p []js.Value) any {
		resolve = p[0]
		return nil
	})
	promise := js.Global().Get("Promise").New(executor)
	executor.Release()
	go func() {
		mu.Lock()
		defer mu.Unlock()
		resolve.Invoke(run(args, server))
	}()
	return promise
}

// exit unwinds a call from the fatal handler with its exit code.
type exit int

// run runs `kubectl args…` against server and returns its exit code.
func run(args []string, server string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			if c, ok := r.(exit); ok {
				code = int(c)
				return
			}
			// a panic inside kubectl: report it as the process would
			// (Go exits with 2), and keep the instance for the next call
			fmt.Fprintf(os.Stderr, "panic: %v\n\n%s", r, debug.Stack())
			code = 2
		}
	}()
	cmdutil.BehaviorOnFatal(func(msg string, c int) {
		if msg != "" {
			if !strings.HasSuffix(msg, "\n") {
				msg += "\n"
			}
			fmt.Fprint(os.Stderr, msg)
		}
		panic(exit(c))
	})
	defer cmdutil.DefaultBehaviorOnFatal()

	if err := writeKubeconfig(server); err != nil {
		fmt.Fprintf(os.Stderr, "error: writing the kubeconfig: %v\n", err)
		return 1
	}
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	command := kubectl.NewCommand(kubectl.Options{
		Arguments: append([]string{"kubectl"}, args...),
		ConfigFlags: genericclioptions.NewConfigFlags(true).WithDeprecatedPasswordFlag().
			WithDiscoveryBurst(300).WithDiscoveryQPS(50.0).WithWarningPrinter(streams),
		IOStreams: streams,
		Exit:      func(c int) { panic(exit(c)) },
	})
	command.SetArgs(args)
	if err := cli.RunNoErrOutput(command); err != nil {
		cmdutil.CheckErr(err)
	}
	return 0
}

var lastServer string

// writeKubeconfig points $HOME/.kube/config at server (when it changed).
func writeKubeconfig(server string) error {
	if server == "" || server == lastServer {
		return nil
	}
	path := os.Getenv("KUBECONFIG")
	if path == "" {
		path = filepath.Join(os.Getenv("HOME"), ".kube", "config")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	config := kubectl.Kubeconfig(server)
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		return err
	}
	lastServer = server
	return nil
}
