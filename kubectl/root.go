package kubectl

import (
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/spf13/cobra"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/klog/v2"
	"k8s.io/kubectl/pkg/cmd/annotate"
	"k8s.io/kubectl/pkg/cmd/apiresources"
	"k8s.io/kubectl/pkg/cmd/apply"
	"k8s.io/kubectl/pkg/cmd/auth"
	"k8s.io/kubectl/pkg/cmd/autoscale"
	"k8s.io/kubectl/pkg/cmd/certificates"
	"k8s.io/kubectl/pkg/cmd/clusterinfo"
	"k8s.io/kubectl/pkg/cmd/completion"
	cmdconfig "k8s.io/kubectl/pkg/cmd/config"
	"k8s.io/kubectl/pkg/cmd/create"
	"k8s.io/kubectl/pkg/cmd/delete"
	"k8s.io/kubectl/pkg/cmd/describe"
	"k8s.io/kubectl/pkg/cmd/diff"
	"k8s.io/kubectl/pkg/cmd/drain"
	"k8s.io/kubectl/pkg/cmd/events"
	"k8s.io/kubectl/pkg/cmd/explain"
	"k8s.io/kubectl/pkg/cmd/expose"
	"k8s.io/kubectl/pkg/cmd/get"
	kuberccmd "k8s.io/kubectl/pkg/cmd/kuberc"
	"k8s.io/kubectl/pkg/cmd/kustomize"
	"k8s.io/kubectl/pkg/cmd/label"
	"k8s.io/kubectl/pkg/cmd/logs"
	"k8s.io/kubectl/pkg/cmd/options"
	"k8s.io/kubectl/pkg/cmd/patch"
	"k8s.io/kubectl/pkg/cmd/replace"
	"k8s.io/kubectl/pkg/cmd/rollout"
	"k8s.io/kubectl/pkg/cmd/run"
	"k8s.io/kubectl/pkg/cmd/scale"
	"k8s.io/kubectl/pkg/cmd/set"
	"k8s.io/kubectl/pkg/cmd/taint"
	"k8s.io/kubectl/pkg/cmd/top"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/cmd/version"
	"k8s.io/kubectl/pkg/cmd/wait"
	"k8s.io/kubectl/pkg/kuberc"
	utilcomp "k8s.io/kubectl/pkg/util/completion"
	"k8s.io/kubectl/pkg/util/i18n"
	"k8s.io/kubectl/pkg/util/templates"

	// kubectl's default messages from a .mo, before any package init asks
	// for one (the first i18n.T otherwise zips and parses the .po: 1-2.5 s
	// of a browser's first command)
	_ "github.com/kubesandbox/kubesandbox/kubectl/internal/translations"
)

// NeedRuntime names the kubectl commands that need a container runtime (a
// kubelet, containers, a network to them) behind the API: NewCommand
// leaves them out, so their code (SPDY/websocket streams, terminal
// handling, tar) is not linked, and answers them with RuntimeMessage.
var NeedRuntime = []string{"attach", "exec", "port-forward", "proxy", "cp", "debug", "edit", "plugin"}

// RuntimeMessage is what a left-out command answers, e.g. for "exec":
// "kubectl exec needs a container runtime behind the API; …".
func RuntimeMessage(verb string) string {
	if verb == "edit" || verb == "plugin" {
		return fmt.Sprintf("kubectl %s runs programs on this machine (an editor, plugins); this sandbox has none: use kubectl apply, patch or replace.\n", verb)
	}
	return fmt.Sprintf("kubectl %s needs a container runtime behind the API; this sandbox has the API only (no kubelet, no containers).\n", verb)
}

// NewCommand is kubectl v0.37.2's root command (cmd.NewKubectlCommand) as
// upstream assembles it — the same groups, flags, help templates, kuberc
// preferences and completion — from the subcommands that can work against
// an API without a container runtime or a local machine: exec, attach,
// port-forward, proxy, cp, debug, edit and plugin are left out, each
// answered by a hidden command that prints RuntimeMessage and exits 1.
// `kubectl run` is kept: it links attach's stream code for -i/--attach.
// The --profile flags stay (kubectl options lists them) but only "none".
//
// It saves little (kubectl.wasm 14.16 → 13.58 MB brotli): the weight is
// the client-go scheme and clientset every command shares — all of
// k8s.io/api's groups with their protobuf, deep-copy and String methods,
// gnostic's OpenAPI models, net/http and crypto/tls — not the commands.
//
// Both builds (cmd/wasm and cmd/native) use it, so the browser test and
// TestNativeCommands run the same command tree.
//
//	c := kubectl.NewCommand(kubectl.Options{Arguments: os.Args, ConfigFlags: …, IOStreams: …, Exit: os.Exit})
func NewCommand(o Options) *cobra.Command {
	warningHandler := rest.NewWarningWriter(o.IOStreams.ErrOut, rest.WarningWriterOptions{Deduplicate: true, Color: printers.AllowsColorOutput(o.IOStreams.ErrOut)})
	warningsAsErrors := false
	var profileName, profileOutput string
	cmds := &cobra.Command{
		Use:   "kubectl",
		Short: i18n.T("kubectl controls the Kubernetes cluster manager"),
		Long: templates.LongDesc(`
      kubectl controls the Kubernetes cluster manager.

      Find more information at:
            https://kubernetes.io/docs/reference/kubectl/`),
		Run: func(cmd *cobra.Command, _ []string) { cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			rest.SetDefaultWarningHandler(warningHandler)
			if profileName != "none" {
				return fmt.Errorf("--profile is not available in this build of kubectl")
			}
			return nil
		},
		PersistentPostRunE: func(*cobra.Command, []string) error {
			if warningsAsErrors {
				switch count := warningHandler.WarningCount(); count {
				case 0:
				case 1:
					return fmt.Errorf("%d warning received", count)
				default:
					return fmt.Errorf("%d warnings received", count)
				}
			}
			return nil
		},
	}
	cmds.SetGlobalNormalizationFunc(cliflag.WarnWordSepNormalizeFunc)

	flags := cmds.PersistentFlags()
	flags.StringVar(&profileName, "profile", "none", "Name of profile to capture. One of (none|cpu|heap|goroutine|threadcreate|block|mutex|trace)")
	flags.StringVar(&profileOutput, "profile-output", "profile.pprof", "Name of the file to write the profile to")
	flags.BoolVar(&warningsAsErrors, "warnings-as-errors", warningsAsErrors, "Treat warnings received from the server as errors and exit with a non-zero exit code")

	pref := kuberc.NewPreferences()
	if !cmdutil.KubeRC.IsDisabled() {
		pref.AddFlags(flags)
	}
	kubeConfigFlags := o.ConfigFlags
	kubeConfigFlags.AddFlags(flags)
	matchVersionKubeConfigFlags := cmdutil.NewMatchVersionFlags(kubeConfigFlags)
	matchVersionKubeConfigFlags.AddFlags(flags)
	addCmdHeaderHooks(cmds, kubeConfigFlags)

	f := cmdutil.NewFactory(matchVersionKubeConfigFlags)
	streams := o.IOStreams

	getCmd := get.NewCmdGet("kubectl", f, streams)
	getCmd.ValidArgsFunction = utilcomp.ResourceTypeAndNameCompletionFunc(f)

	groups := templates.CommandGroups{
		{Message: "Basic Commands (Beginner):", Commands: []*cobra.Command{
			create.NewCmdCreate(f, streams),
			expose.NewCmdExposeService(f, streams),
			run.NewCmdRun(f, streams),
			set.NewCmdSet(f, streams),
		}},
		{Message: "Basic Commands (Intermediate):", Commands: []*cobra.Command{
			explain.NewCmdExplain("kubectl", f, streams),
			getCmd,
			delete.NewCmdDelete(f, streams),
		}},
		{Message: "Deploy Commands:", Commands: []*cobra.Command{
			rollout.NewCmdRollout("kubectl", f, streams),
			scale.NewCmdScale(f, streams),
			autoscale.NewCmdAutoscale(f, streams),
		}},
		{Message: "Cluster Management Commands:", Commands: []*cobra.Command{
			certificates.NewCmdCertificate(f, streams),
			clusterinfo.NewCmdClusterInfo(f, streams),
			top.NewCmdTop(f, streams),
			drain.NewCmdCordon(f, streams),
			drain.NewCmdUncordon(f, streams),
			drain.NewCmdDrain(f, streams),
			taint.NewCmdTaint(f, streams),
		}},
		{Message: "Troubleshooting and Debugging Commands:", Commands: []*cobra.Command{
			describe.NewCmdDescribe("kubectl", f, streams),
			logs.NewCmdLogs(f, streams),
			auth.NewCmdAuth(f, streams),
			events.NewCmdEvents(f, streams),
		}},
		{Message: "Advanced Commands:", Commands: []*cobra.Command{
			diff.NewCmdDiff(f, streams),
			apply.NewCmdApply("kubectl", f, streams),
			patch.NewCmdPatch(f, streams),
			replace.NewCmdReplace(f, streams),
			wait.NewCmdWait(f, streams),
			kustomize.NewCmdKustomize(streams),
		}},
		{Message: "Settings Commands:", Commands: []*cobra.Command{
			label.NewCmdLabel(f, streams),
			annotate.NewCmdAnnotate("kubectl", f, streams),
			completion.NewCmdCompletion(streams.Out, ""),
		}},
	}
	groups.Add(cmds)

	// alpha has no commands in v0.37.2: hidden, as upstream hides it
	alpha := &cobra.Command{
		Use:   "alpha",
		Short: i18n.T("Commands for features in alpha"),
		Long:  templates.LongDesc(i18n.T("These commands correspond to alpha features that are not enabled in Kubernetes clusters by default.")),
	}
	alpha.SetHelpFunc(func(*cobra.Command, []string) {
		alpha.Println(i18n.T("No alpha commands are available in this version of kubectl"))
	})
	templates.ActsAsRootCommand(cmds, []string{"options", alpha.Name()}, groups...)

	utilcomp.SetFactoryForCompletion(f)
	registerCompletionFuncForGlobalFlags(cmds, f)

	cmds.AddCommand(alpha)
	cmds.AddCommand(cmdconfig.NewCmdConfig(f, clientcmd.NewDefaultPathOptions(), streams))
	cmds.AddCommand(version.NewCmdVersion(f, streams))
	cmds.AddCommand(apiresources.NewCmdAPIVersions(f, streams))
	cmds.AddCommand(apiresources.NewCmdAPIResources(f, streams))
	cmds.AddCommand(options.NewCmdOptions(streams.Out))
	if !cmdutil.KubeRC.IsDisabled() {
		cmds.AddCommand(kuberccmd.NewCmdKubeRC(streams))
	}
	for _, verb := range NeedRuntime {
		cmds.AddCommand(leftOut(verb, streams))
	}

	cmds.SetGlobalNormalizationFunc(cliflag.WordSepNormalizeFunc)

	if !cmdutil.KubeRC.IsDisabled() {
		existingPreRunE := cmds.PersistentPreRunE
		cmds.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
			if originalCommandArgs, ok := cmd.Annotations[kuberc.KubeRCOriginalCommandAnnotation]; ok {
				klog.V(1).Info(fmt.Sprintf("original command: %q", fmt.Sprintf("%s %s", cmd.Root().Name(), originalCommandArgs)))
			}
			return existingPreRunE(cmd, args)
		}
		if _, err := pref.Apply(cmds, kubeConfigFlags, o.Arguments, streams.ErrOut); err != nil {
			fmt.Fprintf(streams.ErrOut, "error occurred while applying preferences %v\n", err)
			o.Exit(1)
		}
	}
	return cmds
}

// Options are cmd.KubectlOptions without the plugin handler, plus how to
// exit (os.Exit natively; the wasm build unwinds the call instead).
type Options struct {
	Arguments   []string
	ConfigFlags *genericclioptions.ConfigFlags
	IOStreams   genericiooptions.IOStreams
	Exit        func(code int)
}

// leftOut is the hidden stand-in for a left-out command: it takes any
// arguments and flags, prints RuntimeMessage and exits 1.
func leftOut(verb string, streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:                verb,
		Hidden:             true,
		DisableFlagParsing: true,
		Run: func(*cobra.Command, []string) {
			fmt.Fprint(streams.ErrOut, "error: "+RuntimeMessage(verb))
			cmdutil.CheckErr(cmdutil.ErrExit) // exit 1, nothing more printed
		},
	}
}

// addCmdHeaderHooks is upstream's (cmd.go, SIG CLI KEP 859): the
// X-Kubectl-Command/-Session headers on every request.
func addCmdHeaderHooks(cmds *cobra.Command, kubeConfigFlags *genericclioptions.ConfigFlags) {
	crt := &genericclioptions.CommandHeaderRoundTripper{}
	existingPreRunE := cmds.PersistentPreRunE
	cmds.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		crt.ParseCommandHeaders(cmd, args)
		return existingPreRunE(cmd, args)
	}
	var noProxy atomic.Bool // upstream skips the headers for `proxy`, not built here
	wrapConfigFn := kubeConfigFlags.WrapConfigFn
	kubeConfigFlags.WithWrapConfigFn(func(c *rest.Config) *rest.Config {
		if wrapConfigFn != nil {
			c = wrapConfigFn(c)
		}
		c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
			return &genericclioptions.CommandHeaderRoundTripper{Delegate: rt, Headers: crt.Headers, SkipHeaders: &noProxy}
		})
		return c
	})
}

// registerCompletionFuncForGlobalFlags is upstream's (cmd.go).
func registerCompletionFuncForGlobalFlags(cmd *cobra.Command, f cmdutil.Factory) {
	cmdutil.CheckErr(cmd.RegisterFlagCompletionFunc("namespace",
		func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return utilcomp.CompGetResource(f, "namespace", toComplete), cobra.ShellCompDirectiveNoFileComp
		}))
	cmdutil.CheckErr(cmd.RegisterFlagCompletionFunc("context",
		func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return utilcomp.ListContextsInConfig(toComplete), cobra.ShellCompDirectiveNoFileComp
		}))
	cmdutil.CheckErr(cmd.RegisterFlagCompletionFunc("cluster",
		func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return utilcomp.ListClustersInConfig(toComplete), cobra.ShellCompDirectiveNoFileComp
		}))
	cmdutil.CheckErr(cmd.RegisterFlagCompletionFunc("user",
		func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return utilcomp.ListUsersInConfig(toComplete), cobra.ShellCompDirectiveNoFileComp
		}))
}
