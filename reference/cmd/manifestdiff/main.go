// Command manifestdiff applies a directory of manifests to two API servers —
// a real kube-apiserver and the sandbox — and reports where their answers
// differ. It is a probe for the built-in kinds' fidelity on the manifests
// people actually paste (tutorials, docs, charts): point it at a directory of
// YAML files you provide.
//
//	cd /work/shared/oracle && KUBE_KCM=0 ./kube-start.sh 6521
//	bin/kubesandbox -addr 127.0.0.1:6529 -controllers=false -nodes 0 -kubeconfig "" &
//	cd reference && go run ./cmd/manifestdiff -dir /tmp/manifests \
//	    -a http://127.0.0.1:6521 -b http://127.0.0.1:6529 -kubectl ../bin/kubectl
//
// For every file, on each server, in a fresh namespace of its own (with a
// `default` ServiceAccount, as a namespace has once kube-controller-manager
// ran), it runs
//
//	kubectl create --dry-run=server -o json -f F
//	kubectl create -o json -f F
//	kubectl get -o json -f F
//
// and compares the exit codes, the error text, the `Warning:` lines and the
// objects after normalising what is allowed to differ between two servers
// (uid, resourceVersion, timestamps, generated names, allocated cluster IPs
// and node ports; see normalise). Each difference is named by a category
// (the JSON path without indices, and how it differs); the summary counts
// manifests per category, biggest first. Cluster-scoped objects a file
// creates are deleted again afterwards.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var noSAAdmissionFlag = flag.Bool("no-sa-admission", true, "the reference server runs without the ServiceAccount admission plugin (kube-start.sh with KUBE_KCM=0): ignore serviceAccountName \"default\" in pod specs")

type server struct{ name, url string }

// step is one kubectl invocation's observable outcome.
type step struct {
	code     int
	stdout   string
	stderr   string   // without Warning lines, namespace replaced by NS
	warnings []string // "Warning: ..." lines, sorted, namespace replaced
}

func main() {
	dir := flag.String("dir", "", "directory of manifests (*.yaml, *.yml, *.json; recursive)")
	a := flag.String("a", "http://127.0.0.1:6521", "the reference server (a real kube-apiserver)")
	b := flag.String("b", "http://127.0.0.1:6529", "the server under test")
	kubectl := flag.String("kubectl", "kubectl", "kubectl binary")
	only := flag.String("only", "", "only files whose name contains this")
	verbose := flag.Bool("v", false, "print every difference of every file")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "manifestdiff: -dir is required")
		os.Exit(2)
	}
	files, err := manifests(*dir, *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "manifestdiff:", err)
		os.Exit(1)
	}
	kc, err := os.CreateTemp("", "manifestdiff-kubeconfig")
	if err != nil {
		fmt.Fprintln(os.Stderr, "manifestdiff:", err)
		os.Exit(1)
	}
	kc.Close()
	defer os.Remove(kc.Name())
	r := runner{kubectl: *kubectl, kubeconfig: kc.Name(), run: fmt.Sprintf("%d", time.Now().Unix()%100000)}
	A, B := server{"a", *a}, server{"b", *b}
	cats := map[string][]string{}
	same := 0
	for i, f := range files {
		rel, _ := filepath.Rel(*dir, f)
		diffs := r.compare(A, B, f, i)
		if len(diffs) == 0 {
			same++
			fmt.Printf("same    %s\n", rel)
			continue
		}
		fmt.Printf("DIFFER  %s (%d)\n", rel, len(diffs))
		seen := map[string]bool{}
		for _, d := range diffs {
			if *verbose {
				fmt.Printf("        %s\n", d.detail)
			}
			c := d.category
			if i := strings.Index(c, ": "); i >= 0 {
				c = c[i+2:]
			}
			c = strings.TrimPrefix(strings.TrimPrefix(c, "items[]."), "[].")
			if !seen[c] {
				seen[c] = true
				cats[c] = append(cats[c], rel)
			}
		}
	}
	fmt.Printf("\n%d manifests: %d identical, %d differ\n", len(files), same, len(files)-same)
	type kv struct {
		k string
		v []string
	}
	var list []kv
	for k, v := range cats {
		list = append(list, kv{k, v})
	}
	sort.Slice(list, func(i, j int) bool {
		if len(list[i].v) != len(list[j].v) {
			return len(list[i].v) > len(list[j].v)
		}
		return list[i].k < list[j].k
	})
	for _, e := range list {
		ex := e.v
		if len(ex) > 3 {
			ex = ex[:3]
		}
		fmt.Printf("%4d  %s   e.g. %s\n", len(e.v), e.k, strings.Join(ex, ", "))
	}
}

func manifests(dir, only string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(p)
		if (ext == ".yaml" || ext == ".yml" || ext == ".json") && strings.Contains(filepath.Base(p), only) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

type runner struct {
	kubectl, kubeconfig, run string
}

func (r runner) kubectlRun(s server, ns string, args ...string) step {
	full := append([]string{"--kubeconfig", r.kubeconfig, "--server", s.url}, args...)
	if ns != "" {
		full = append(full, "-n", ns)
	}
	cmd := exec.Command(r.kubectl, full...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	st := step{stdout: out.String()}
	if err != nil {
		st.code = 1
		if ee, ok := err.(*exec.ExitError); ok {
			st.code = ee.ExitCode()
		}
	}
	var rest []string
	for _, l := range strings.Split(errb.String(), "\n") {
		if ns != "" {
			l = strings.ReplaceAll(l, ns, "NS")
		}
		switch {
		case strings.HasPrefix(l, "Warning: "):
			st.warnings = append(st.warnings, l)
		case strings.TrimSpace(l) != "":
			rest = append(rest, l)
		}
	}
	sort.Strings(st.warnings)
	st.stderr = strings.Join(rest, "\n")
	return st
}

// outcome is what one server answered for one file.
type outcome struct {
	dry, create, get step
}

func (r runner) apply(s server, file string, i int) outcome {
	ns := fmt.Sprintf("md-%s-%03d-%s", r.run, i, s.name)
	r.kubectlRun(s, "", "create", "namespace", ns)
	r.kubectlRun(s, ns, "create", "serviceaccount", "default")
	var o outcome
	o.dry = r.kubectlRun(s, ns, "create", "--dry-run=server", "-o", "json", "-f", file)
	o.create = r.kubectlRun(s, ns, "create", "-o", "json", "-f", file)
	o.get = r.kubectlRun(s, ns, "get", "-o", "json", "-f", file)
	// Cluster-scoped objects outlive the namespace: delete what the file
	// made, without the finalizers no controller would remove here
	// (kubernetes.io/pv-protection).
	r.kubectlRun(s, ns, "patch", "--type=merge", "-p", `{"metadata":{"finalizers":null}}`, "-f", file)
	r.kubectlRun(s, ns, "delete", "--ignore-not-found", "--wait=false", "-f", file)
	r.kubectlRun(s, "", "delete", "namespace", ns, "--wait=false")
	return o
}

// diff is one difference between the two servers' outcomes.
type diff struct{ category, detail string }

func (r runner) compare(a, b server, file string, i int) []diff {
	oa, ob := r.apply(a, file, i), r.apply(b, file, i)
	var out []diff
	for _, p := range []struct {
		name   string
		sa, sb step
	}{{"dry-run", oa.dry, ob.dry}, {"create", oa.create, ob.create}, {"get", oa.get, ob.get}} {
		out = append(out, compareStep(p.name, p.sa, p.sb)...)
	}
	return out
}

func compareStep(name string, a, b step) []diff {
	var out []diff
	if a.code != b.code {
		out = append(out, diff{name + ": exit code", fmt.Sprintf("%s: exit %d vs %d; stderr %q vs %q", name, a.code, b.code, a.stderr, b.stderr)})
	} else if a.stderr != b.stderr {
		out = append(out, diff{name + ": error text", fmt.Sprintf("%s: stderr\n          want %q\n          got  %q", name, a.stderr, b.stderr)})
	}
	if strings.Join(a.warnings, "\n") != strings.Join(b.warnings, "\n") {
		out = append(out, diff{name + ": warnings", fmt.Sprintf("%s: warnings\n          want %q\n          got  %q", name, a.warnings, b.warnings)})
	}
	if a.code != 0 || b.code != 0 {
		return out
	}
	for _, d := range diffJSON(a.stdout, b.stdout) {
		out = append(out, diff{name + ": " + d.category, name + ": " + d.detail})
	}
	return out
}
