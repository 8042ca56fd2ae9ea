// Command kubectl is upstream kubectl v0.37.2 built from this module with
// the browser build's command tree (kubectl.NewCommand: no exec, attach,
// port-forward, proxy, cp, debug, edit, plugin), so the browser build
// (cmd/wasm) and the native one run the same code and the same commands.
package main

import (
	"os"

	"github.com/kubesandbox/kubesandbox/kubectl"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	command := kubectl.NewCommand(kubectl.Options{
		Arguments: os.Args,
		ConfigFlags: genericclioptions.NewConfigFlags(true).WithDeprecatedPasswordFlag().
			WithDiscoveryBurst(300).WithDiscoveryQPS(50.0).WithWarningPrinter(streams),
		IOStreams: streams,
		Exit:      os.Exit,
	})
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
