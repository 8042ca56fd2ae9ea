// Command startnative measures the native server's start-up as a client
// sees it (issue #16: "first answer after exec ≤ 20 ms"): the time from
// exec to the first 200 on /version, and to the first 200 on a list,
// against a trivial Go HTTP server binary in the same run — this program
// itself, re-executed with -serve (net/http answering every path with a
// fixed body), so both binaries are built by the same toolchain:
//
//	go build -o bin/startnative ./tests/startnative
//	bin/startnative -bin bin/kubesandbox -rounds 20
//	bin/startnative -bin bin/kubesandbox -before /work/base-bin/kubesandbox   # before and after in one run
//
// Each round starts the baseline and then the server (the order alternates
// between rounds, so a busy machine slows both alike) on a free loopback
// port and dials it every 100 µs until it accepts; then one GET of
// /version and one of -list, each on a fresh connection. The process is
// killed after its answers. Medians and the 90th percentile are printed,
// each with its ratio to the baseline's.
//
// -inittrace also runs the server once with GODEBUG=inittrace=1 and prints
// the sum of its package init clock time and the slowest packages (where
// the time before main goes).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"time"
)

func main() {
	serve := flag.String("serve", "", "run as the baseline: serve on this address")
	bin := flag.String("bin", "bin/kubesandbox", "the server binary")
	before := flag.String("before", "", "another server binary to start in the same rounds (e.g. main's build, /work/base-bin/kubesandbox): before and after in one run")
	rounds := flag.Int("rounds", 20, "starts of each binary")
	list := flag.String("list", "/api/v1/namespaces/default/configmaps", "the list to ask for after /version")
	controllers := flag.Bool("controllers", true, "start the server with its controllers (as make serve)")
	inittrace := flag.Bool("inittrace", true, "also run the server once with GODEBUG=inittrace=1")
	flag.Parse()
	if *serve != "" {
		baseline(*serve)
		return
	}
	self, err := os.Executable()
	must(err)
	progs := []prog{
		{name: "baseline (trivial Go net/http server)", argv: func(addr string) []string { return []string{self, "-serve", addr} }},
		{name: "kubesandbox (" + *bin + ")", argv: func(addr string) []string {
			return []string{*bin, "-addr", addr, "-kubeconfig", "", fmt.Sprintf("-controllers=%t", *controllers)}
		}},
	}
	if *before != "" {
		progs = append(progs, prog{name: "before (" + *before + ")", argv: func(addr string) []string {
			return []string{*before, "-addr", addr, "-kubeconfig", "", fmt.Sprintf("-controllers=%t", *controllers)}
		}})
	}
	res := make([]result, len(progs))
	for r := 0; r < *rounds; r++ {
		for k := range progs {
			i := (k + r) % len(progs)
			v, l, err := start(progs[i], *list)
			must(err)
			res[i].version = append(res[i].version, v)
			res[i].list = append(res[i].list, l)
		}
	}
	fmt.Printf("\nnative start-up, %d starts each (exec → first 200, a fresh connection per request)\n\n", *rounds)
	fmt.Println("| program | exec → /version: median | p90 | ÷ baseline | exec → list: median | p90 | ÷ baseline |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	base := res[0]
	for i, p := range progs {
		fmt.Printf("| %s | %s | %s | %.2f× | %s | %s | %.2f× |\n", p.name,
			ms(pct(res[i].version, .5)), ms(pct(res[i].version, .9)), float64(pct(res[i].version, .5))/float64(pct(base.version, .5)),
			ms(pct(res[i].list, .5)), ms(pct(res[i].list, .9)), float64(pct(res[i].list, .5))/float64(pct(base.list, .5)))
	}
	if *inittrace {
		for _, p := range progs[1:] {
			initTrace(p)
		}
	}
}

type prog struct {
	name string
	argv func(addr string) []string
}

type result struct{ version, list []time.Duration }

// start execs p on a free port and times the first 200 of /version and of list.
func start(p prog, list string) (version, listed time.Duration, err error) {
	addr, err := freeAddr()
	if err != nil {
		return 0, 0, err
	}
	argv := p.argv(addr)
	cmd := exec.Command(argv[0], argv[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if err != nil {
			err = fmt.Errorf("%s: %w\n%s", p.name, err, out.String())
		}
	}()
	if err = firstOK(addr, "/version", t0); err != nil {
		return 0, 0, err
	}
	version = time.Since(t0)
	if err = firstOK(addr, list, t0); err != nil {
		return 0, 0, err
	}
	return version, time.Since(t0), nil
}

// firstOK dials addr until it accepts (every 100 µs, for at most 10 s
// after t0) and GETs path on that connection; anything but a 200 fails.
func firstOK(addr, path string, t0 time.Time) error {
	var c net.Conn
	for {
		var err error
		if c, err = net.Dial("tcp", addr); err == nil {
			break
		}
		if time.Since(t0) > 10*time.Second {
			return fmt.Errorf("%s did not accept in 10 s: %w", addr, err)
		}
		time.Sleep(100 * time.Microsecond)
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: application/json\r\nConnection: close\r\n\r\n", path, addr); err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// baseline is the trivial server: every path answers a fixed JSON body.
func baseline(addr string) {
	body := []byte(`{"major":"1","minor":"37","gitVersion":"v1.37.2-baseline"}`)
	must(http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})))
}

// initTrace runs p once with GODEBUG=inittrace=1 until it answers
// /version and prints the package init clock time, in total and the
// slowest packages.
func initTrace(p prog) {
	addr, err := freeAddr()
	must(err)
	argv := p.argv(addr)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	must(cmd.Start())
	err = firstOK(addr, "/version", t0)
	answered := time.Since(t0)
	cmd.Process.Kill()
	cmd.Wait()
	must(err)
	// init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs
	re := regexp.MustCompile(`(?m)^init (\S+) @([0-9.]+) ms, ([0-9.]+) ms clock`)
	type pkg struct {
		name string
		ms   float64
	}
	var pkgs []pkg
	total, last := 0.0, 0.0
	for _, m := range re.FindAllStringSubmatch(stderr.String(), -1) {
		at, _ := strconv.ParseFloat(m[2], 64)
		d, _ := strconv.ParseFloat(m[3], 64)
		pkgs = append(pkgs, pkg{m[1], d})
		total += d
		last = at + d
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ms > pkgs[j].ms })
	fmt.Printf("\n%s with GODEBUG=inittrace=1: /version answered %s after exec; %d packages initialised, %.1f ms of init clock in all, the last done %.1f ms after the runtime started\n",
		p.name, ms(answered), len(pkgs), total, last)
	for i := 0; i < len(pkgs) && i < 8; i++ {
		fmt.Printf("  %-60s %6.2f ms\n", pkgs[i].name, pkgs[i].ms)
	}
}

func pct(xs []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "startnative:", err)
		os.Exit(1)
	}
}
