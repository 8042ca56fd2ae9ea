package apiserver

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkWatchFanoutCreates: N HTTP watchers (real streams over
// loopback) on the configmaps of one namespace, and one op = benchCreates
// creates of ~1 KiB ConfigMaps, ending when every watcher has read every
// ADDED line. Reported: events/s delivered (watchers × creates / time) and
// the mean create latency while the watchers drain. "per-watcher" is the
// same server with each watcher decoding and encoding its own copy of
// every event (Server.perWatcherEncoding): the baseline of "shared" in the
// same run — read the ratio, not the times.
//
//	go test -run '^$' -bench WatchFanoutCreates -benchtime 5x ./core/apiserver/
func BenchmarkWatchFanoutCreates(b *testing.B) {
	for _, n := range []int{100, 400} {
		for _, mode := range []struct {
			name  string
			share bool
		}{{"shared", true}, {"per-watcher", false}} {
			b.Run(fmt.Sprintf("watchers=%d/%s", n, mode.name), func(b *testing.B) {
				benchWatchCreates(b, n, !mode.share)
			})
		}
	}
}

const benchCreates = 100

func benchWatchCreates(b *testing.B, watchers int, perWatcher bool) {
	s := New(Options{})
	s.perWatcherEncoding = perWatcher
	ts := httptest.NewServer(s)
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: watchers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	rv := strconv.FormatInt(int64(s.Store().Rev()), 10)
	var received atomic.Int64
	done := make(chan struct{}, watchers)
	var want atomic.Int64 // lines each watcher must have read before it reports
	for w := 0; w < watchers; w++ {
		resp, err := client.Get(ts.URL + cmPath + "?watch=1&resourceVersion=" + rv)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		go func() {
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			var n int64
			for sc.Scan() {
				if bytes.HasSuffix(sc.Bytes(), []byte(`"type":"ADDED"}`)) { // jsonx sorts keys
					n++
					received.Add(1)
					if n == want.Load() {
						done <- struct{}{}
					}
				}
			}
		}()
	}
	var createTime time.Duration
	seq := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		want.Add(benchCreates)
		for c := 0; c < benchCreates; c++ {
			seq++
			body := benchBody(seq)
			t0 := time.Now()
			serve(b, s, "POST", cmPath, body, 201)
			createTime += time.Since(t0)
		}
		for w := 0; w < watchers; w++ {
			<-done
		}
	}
	b.StopTimer()
	if got, exp := received.Load(), int64(watchers*benchCreates*b.N); got != exp {
		b.Fatalf("watchers read %d events, want %d", got, exp)
	}
	b.ReportMetric(float64(watchers*benchCreates*b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(createTime.Microseconds())/float64(benchCreates*b.N), "µs/create")
}
