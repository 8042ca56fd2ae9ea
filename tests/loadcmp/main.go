// Command loadcmp measures request throughput and server CPU per request
// of kubesandbox against the real control plane (kube-apiserver + etcd,
// ../shared/oracle) with one client in one run (issue #16, "Native"):
//
//	loadcmp -oracle /root/.cache/kube-oracle/run/kube-10130 -bin ours=bin/kubesandbox -rounds 2
//
// Every server is spoken to as client-go speaks to it: HTTPS with a bearer
// token, HTTP/2, connections reused, -c workers at once. -oracle names the
// run directory of a kube-start.sh instance (its kubeconfig gives the
// kube-apiserver's HTTPS address and token; its PID files the processes
// whose CPU is counted: kube-apiserver and etcd, not the HTTP proxy, which
// is not used). Each -bin NAME=PATH is a kubesandbox binary that loadcmp
// starts itself (-tls -controllers=false -nodes 0) and stops at the end;
// several -bin compare builds (before/after a change) in the same run.
//
// Paths, each timed on every server in turn before the next path starts:
// create (POST of a ~1 KiB ConfigMap), GET of one ConfigMap and lists of
// 700 and 2,000 ConfigMaps, the reads in JSON and in protobuf. For each:
// requests/s (wall clock) and server CPU per request — utime+stime of the
// server's processes from /proc/PID/stat, read before and after a fixed
// number of requests. Bodies are read to the end and discarded; their mean
// size is printed so that a server answering less shows.
//
// With -fanout 100,400 it measures watch fan-out instead (fanout.go):
// events/s and server CPU per delivered event with that many watchers.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

type binFlags []string

func (b *binFlags) String() string     { return strings.Join(*b, ",") }
func (b *binFlags) Set(v string) error { *b = append(*b, v); return nil }

func main() {
	oracle := flag.String("oracle", "", "run directory of a kube-start.sh instance (…/run/kube-PORT); empty: no real server")
	var bins binFlags
	flag.Var(&bins, "bin", "NAME=PATH of a kubesandbox binary to start and measure (repeatable)")
	port := flag.Int("port", 10135, "first port for the started binaries (one each; the default sits in the gap an oracle at 10130 leaves before 10140)")
	rounds := flag.Int("rounds", 2, "rounds of every path on every server")
	conc := flag.Int("c", 4, "concurrent client workers")
	nCreate := flag.Int("creates", 2000, "creates timed per round (the first round's also fill the 2,000 list)")
	nGet := flag.Int("gets", 4000, "GETs timed per round and encoding")
	nList700 := flag.Int("lists700", 100, "lists of 700 per round and encoding")
	nList2000 := flag.Int("lists2000", 40, "lists of 2,000 per round and encoding")
	http1 := flag.Bool("http1", false, "HTTP/1.1 instead of HTTP/2")
	binFlagsStr := flag.String("binflags", "", "more flags for every started binary, space-separated (e.g. \"-pprof 127.0.0.1:6061\")")
	only := flag.String("only", "", "run only the paths whose name contains this (e.g. \"protobuf\")")
	fanout := flag.String("fanout", "", "watcher counts (e.g. \"100,400\"): measure watch fan-out instead of the request paths")
	fanoutCreates := flag.Int("fanout-creates", 200, "creates per fan-out (each an event for every watcher)")
	fanoutConc := flag.Int("fanout-c", 1, "client workers creating during a fan-out (more: kube-apiserver closes watchers that fall behind)")
	fanoutProto := flag.Bool("fanout-protobuf", false, "fan-out watches in protobuf instead of JSON")
	flag.Parse()

	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	if *oracle != "" {
		s, err := oracleServer(*oracle, *http1, *conc)
		must(err)
		servers = append(servers, s)
	}
	for i, b := range bins {
		name, path, ok := strings.Cut(b, "=")
		if !ok {
			must(fmt.Errorf("-bin %q: want NAME=PATH", b))
		}
		s, err := startBinary(name, path, *port+i, *http1, *conc, strings.Fields(*binFlagsStr))
		if err != nil {
			for _, s := range servers {
				s.stop()
			}
			must(err)
		}
		servers = append(servers, s)
	}
	if len(servers) == 0 {
		must(fmt.Errorf("nothing to measure: give -oracle and/or -bin"))
	}
	for _, s := range servers {
		if *fanout != "" {
			s.ns = fmt.Sprintf("loadcmp-%d", time.Now().Unix()%1e6) // the fan-out makes its own namespaces
		} else {
			must(s.setup())
		}
		fmt.Printf("%s: %s, pids %v, idle CPU %.1f ms/s\n", s.name, s.url, s.pids, s.idleCPU()*1000)
	}

	if *fanout != "" {
		var counts []int
		for _, f := range strings.Split(*fanout, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			must(err)
			counts = append(counts, n)
		}
		accept := jsonType
		if *fanoutProto {
			accept = protoType
		}
		runFanout(servers, counts, *rounds, *fanoutCreates, *fanoutConc, accept)
		return
	}

	var results []result
	for r := 1; r <= *rounds; r++ {
		for _, p := range paths(*nCreate, *nGet, *nList700, *nList2000) {
			if !strings.Contains(p.name, *only) {
				continue
			}
			for _, s := range order(servers, r) {
				res, err := s.run(p, *conc)
				if err != nil {
					for _, s := range servers {
						s.stop()
					}
					must(err)
				}
				res.round = r
				results = append(results, res)
				fmt.Fprintf(os.Stderr, "round %d %-20s %-12s %8.0f req/s %8.1f µs CPU/req\n", r, p.name, s.name, res.rate(), res.cpuPerReq()*1e6)
			}
		}
	}
	printTable(os.Stdout, servers, results)
}

// order alternates which server goes first from round to round, so that
// neither always runs right after the other's load.
func order(s []*server, round int) []*server {
	if round%2 == 1 {
		return s
	}
	out := make([]*server, len(s))
	for i := range s {
		out[i] = s[len(s)-1-i]
	}
	return out
}

// printTable prints one row per path and round: each server's rate and CPU
// per request, and — with the real server first — each other server's
// ratios to it (throughput: ours ÷ real; CPU: real ÷ ours, so that both
// read "× better"; "net": each server's idle rate over the run taken off
// first — kube-apiserver and etcd work when nobody asks, 15–100 ms/s here).
func printTable(f *os.File, servers []*server, results []result) {
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "path\tround\t"
	for _, s := range servers {
		head += s.name + " req/s\t" + s.name + " CPU µs/req\t" + s.name + " B/resp\t"
	}
	if servers[0].oracle {
		for _, s := range servers[1:] {
			head += s.name + " rate×\t" + s.name + " CPU×\t" + s.name + " CPU× net\t"
		}
	}
	fmt.Fprintln(w, head)
	by := map[string]map[string]result{}
	var keys []string
	for _, r := range results {
		k := fmt.Sprintf("%s\t%d", r.path, r.round)
		if by[k] == nil {
			by[k] = map[string]result{}
			keys = append(keys, k)
		}
		by[k][r.server] = r
	}
	for _, k := range keys {
		line := k + "\t"
		for _, s := range servers {
			r := by[k][s.name]
			line += fmt.Sprintf("%.0f\t%.0f\t%d\t", r.rate(), r.cpuPerReq()*1e6, r.bytes/int64(max(r.n, 1)))
		}
		if servers[0].oracle {
			real := by[k][servers[0].name]
			for _, s := range servers[1:] {
				r := by[k][s.name]
				line += fmt.Sprintf("%.1f\t%.1f\t%.1f\t", r.rate()/real.rate(), real.cpuPerReq()/r.cpuPerReq(), real.netCPUPerReq()/r.netCPUPerReq())
			}
		}
		fmt.Fprintln(w, line)
	}
	w.Flush()
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadcmp:", err)
		os.Exit(1)
	}
}
