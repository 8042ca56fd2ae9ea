// Command replay replays the conformance transcripts and prints, per
// transcript, "name: passed/compared" with diffs of the failing steps and
// the total.
//
//	go run ./core/replay/cmd/replay                  # in-process server per transcript
//	go run ./core/replay/cmd/replay -run 'watch|list' -v
//	go run ./core/replay/cmd/replay -url http://127.0.0.1:8080
//
// With -url every selected transcript runs once against that server (each
// transcript uses its own API group, so one fresh server takes them all).
package main

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/replay"
)

func main() {
	verbose := flag.Bool("v", false, "show whole diffs")
	run := flag.String("run", "", "only transcripts whose name matches this regexp")
	url := flag.String("url", "", "replay against this server instead of an in-process one")
	dir := flag.String("dir", defaultDir(), "transcripts directory")
	maxWait := flag.Duration("maxwait", 3*time.Second, "cap on every wait (0: the transcripts' own)")
	flag.Parse()

	ts, err := replay.Load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(2)
	}
	var re *regexp.Regexp
	if *run != "" {
		if re, err = regexp.Compile(*run); err != nil {
			fmt.Fprintln(os.Stderr, "replay: -run:", err)
			os.Exit(2)
		}
	}
	var sel []replay.Transcript
	for _, t := range ts {
		if re == nil || re.MatchString(t.Scenario) {
			sel = append(sel, t)
		}
	}

	results := make([]replay.Result, len(sel))
	var wg sync.WaitGroup
	for i := range sel {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			base := *url
			if base == "" {
				srv := httptest.NewServer(apiserver.New(apiserver.Options{}))
				defer srv.Close()
				defer srv.CloseClientConnections()
				base = srv.URL
			}
			results[i] = replay.RunWith(base, sel[i], nil, replay.Options{MaxWait: *maxWait})
		}(i)
	}
	wg.Wait()

	lines := 40
	if *verbose {
		lines = 0
	}
	passed, compared := 0, 0
	for _, r := range results {
		fmt.Print(r.Report(lines))
		p, c := r.Counts()
		passed += p
		compared += c
	}
	fmt.Printf("conformance: %d/%d steps pass\n", passed, compared)
	if passed != compared {
		os.Exit(1)
	}
}

// defaultDir finds the transcripts: $KUBESANDBOX_CONFORMANCE, else
// ../shared/conformance/transcripts from the repository root (or from here).
func defaultDir() string {
	if d := os.Getenv("KUBESANDBOX_CONFORMANCE"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, "transcripts")); err == nil && fi.IsDir() {
			return filepath.Join(d, "transcripts")
		}
		return d
	}
	for _, d := range []string{"../shared/conformance/transcripts", "../../../../shared/conformance/transcripts"} {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return "../shared/conformance/transcripts"
}
