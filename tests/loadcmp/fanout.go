package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// Watch fan-out (-fanout 100,400): N watches on the ConfigMaps of a fresh
// namespace, then -fanout-creates creates of a ~1 KiB ConfigMap on
// -fanout-c workers (1: one after another); the run ends when every watcher has read every event. Timed:
// events delivered per second (N × creates ÷ wall clock) and the server's
// CPU per delivered event (utime+stime as for the paths; the real server's
// kube-apiserver + etcd). A round with 0 watchers first gives each server's
// CPU per create alone, so that "net" is the CPU of delivery only:
// (CPU − creates × CPU per create alone − idle) ÷ events.
//
// The client does not decode what it reads: a watcher counts events in the
// raw bytes — newlines of a JSON stream, length prefixes of protobuf frames
// — so that 400 watchers on the same 2 cores cost the client little more
// than the reads.

// fanoutResult is one fan-out timed on one server.
type fanoutResult struct {
	server   string
	round    int
	watchers int
	creates  int
	wall     time.Duration
	cpu      float64 // seconds of server CPU from the first create to the last event read
	idle     float64 // of which the server's idle rate would be
	bytes    int64   // read by all watchers
}

func (r fanoutResult) events() int { return r.watchers * r.creates }

// fanout runs one fan-out of w watchers and n creates on s.
func (s *server) fanout(round, w, n, conc int, accept string) (fanoutResult, error) {
	res := fanoutResult{server: s.name, round: round, watchers: w, creates: n}
	ns := fmt.Sprintf("%s-fan-%d-%d", s.ns, round, w)
	body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns)
	if _, err := s.do("POST", "/api/v1/namespaces", body, jsonType, "", 201); err != nil {
		return res, err
	}
	coll := "/api/v1/namespaces/" + ns + "/configmaps"
	rv, err := s.listRV(coll)
	if err != nil {
		return res, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var read atomic.Int64
	done := make(chan error, w)
	for i := 0; i < w; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.url+coll+"?watch=1&resourceVersion="+rv, nil)
		req.Header.Set("Authorization", "Bearer "+s.token)
		req.Header.Set("Accept", accept)
		c := client(s.http1, 1) // a connection of its own: one informer of one client
		defer c.CloseIdleConnections()
		resp, err := c.Do(req)
		if err != nil {
			return res, err
		}
		if resp.StatusCode != 200 {
			resp.Body.Close()
			return res, fmt.Errorf("%s watch: %s", s.name, resp.Status)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			proto := strings.Contains(resp.Header.Get("Content-Type"), "protobuf")
			b, err := countEvents(resp.Body, proto, n)
			read.Add(b)
			done <- err
		}()
	}
	time.Sleep(500 * time.Millisecond) // every watch registered (kube-apiserver's watch cache)

	c0, t0 := s.cpuSeconds(), time.Now()
	if _, err := parallel(n, conc, func(i int) (int64, error) {
		return s.do("POST", coll, configMap(fmt.Sprintf("cm-%05d", i)), jsonType, "", 201)
	}); err != nil {
		return res, err
	}
	for i := 0; i < w; i++ {
		if err := <-done; err != nil {
			return res, fmt.Errorf("%s watcher: %v", s.name, err)
		}
	}
	res.wall, res.cpu = time.Since(t0), s.cpuSeconds()-c0
	res.idle = s.idle * res.wall.Seconds()
	cancel()
	wg.Wait()
	res.bytes = read.Load()
	s.made = append(s.made, ns) // deleted at the end: emptying one costs CPU the next fan-out would be charged
	return res, nil
}

// cleanUp deletes the namespaces the fan-outs made.
func (s *server) cleanUp() {
	for _, ns := range s.made {
		s.do("DELETE", "/api/v1/namespaces/"+ns, "", "", "", 200)
	}
}

// listRV is the resourceVersion of a list of coll.
func (s *server) listRV(coll string) (string, error) {
	req, _ := http.NewRequest("GET", s.url+coll, nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var list struct {
		Metadata struct{ ResourceVersion string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return "", err
	}
	return list.Metadata.ResourceVersion, nil
}

// countEvents reads a watch stream until it has seen want events and
// returns the bytes read. JSON: one event per line. Protobuf
// (;stream=watch): frames of a 4-byte big-endian length and that many bytes.
// Nothing is decoded.
func countEvents(r io.Reader, proto bool, want int) (int64, error) {
	buf := make([]byte, 64<<10)
	var total int64
	events := 0
	var head [4]byte
	headN, skip := 0, 0 // protobuf: bytes of the length read so far; of the frame left
	for events < want {
		n, err := r.Read(buf)
		total += int64(n)
		p := buf[:n]
		if !proto {
			events += bytes.Count(p, []byte{'\n'})
		}
		for proto && len(p) > 0 {
			if skip > 0 {
				k := min(skip, len(p))
				skip -= k
				p = p[k:]
				if skip == 0 {
					events++
				}
				continue
			}
			k := copy(head[headN:], p)
			headN += k
			p = p[k:]
			if headN == 4 {
				headN, skip = 0, int(binary.BigEndian.Uint32(head[:]))
				if skip == 0 {
					events++
				}
			}
		}
		if err != nil {
			if events >= want {
				break
			}
			return total, fmt.Errorf("after %d of %d events: %v", events, want, err)
		}
	}
	return total, nil
}

// runFanout measures every watcher count on every server, rounds times,
// after a round of creates with no watcher (CPU per create alone).
func runFanout(servers []*server, counts []int, rounds, creates, conc int, accept string) {
	var results []fanoutResult
	for r := 1; r <= rounds; r++ {
		for _, w := range append([]int{0}, counts...) {
			for _, s := range order(servers, r) {
				res, err := s.fanout(r, w, creates, conc, accept)
				if err != nil {
					for _, s := range servers {
						s.stop()
					}
					must(err)
				}
				results = append(results, res)
				if w == 0 {
					fmt.Fprintf(os.Stderr, "round %d no watcher        %-12s %8.0f µs CPU/create\n", r, s.name, res.cpu/float64(creates)*1e6)
					continue
				}
				fmt.Fprintf(os.Stderr, "round %d fan-out %3d watchers %-12s %8.0f events/s %8.2f µs CPU/event\n",
					r, w, s.name, float64(res.events())/res.wall.Seconds(), res.cpu/float64(res.events())*1e6)
			}
		}
	}
	printFanout(os.Stdout, servers, results)
	for _, s := range servers {
		s.cleanUp()
	}
}

// printFanout prints one row per round and watcher count: each server's
// events/s, CPU per event (all, and net of creates and idle) and the
// others' ratios to the first server (the real one when -oracle is given).
func printFanout(f *os.File, servers []*server, results []fanoutResult) {
	alone := map[string]fanoutResult{} // server/round → the 0-watcher run
	for _, r := range results {
		if r.watchers == 0 {
			alone[fmt.Sprint(r.server, r.round)] = r
		}
	}
	net := func(r fanoutResult) float64 {
		a := alone[fmt.Sprint(r.server, r.round)]
		perCreate := max(a.cpu-a.idle, 0) / float64(a.creates)
		return max(r.cpu-r.idle-perCreate*float64(r.creates), 0) / float64(r.events())
	}
	w := tabwriter.NewWriter(f, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "fan-out\tround\t"
	for _, s := range servers {
		head += s.name + " events/s\t" + s.name + " CPU µs/event\t" + s.name + " net\t"
	}
	for _, s := range servers[1:] {
		head += s.name + " rate×\t" + s.name + " CPU×\t" + s.name + " CPU× net\t"
	}
	fmt.Fprintln(w, head)
	type key struct{ round, watchers int }
	by := map[key]map[string]fanoutResult{}
	var keys []key
	for _, r := range results {
		k := key{r.round, r.watchers}
		if r.watchers == 0 {
			continue
		}
		if by[k] == nil {
			by[k] = map[string]fanoutResult{}
			keys = append(keys, k)
		}
		by[k][r.server] = r
	}
	for _, k := range keys {
		line := fmt.Sprintf("%d watchers\t%d\t", k.watchers, k.round)
		for _, s := range servers {
			r := by[k][s.name]
			line += fmt.Sprintf("%.0f\t%.2f\t%.2f\t", float64(r.events())/r.wall.Seconds(), r.cpu/float64(r.events())*1e6, net(r)*1e6)
		}
		first := by[k][servers[0].name]
		for _, s := range servers[1:] {
			r := by[k][s.name]
			line += fmt.Sprintf("%.1f\t%.1f\t%.1f\t", first.wall.Seconds()/r.wall.Seconds(), first.cpu/r.cpu, net(first)/net(r))
		}
		fmt.Fprintln(w, line)
	}
	w.Flush()
}
