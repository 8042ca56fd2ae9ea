// Command kubectl is kubectl built from the k8s.io/kubectl library at the
// version the tests use (v0.37.2), for trying the native server by hand
// and for regenerating docs/clients.md:
//
//	cd reference && go build -o ../bin/kubectl ./clients/kubectl
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
	os.Exit(0)
}
