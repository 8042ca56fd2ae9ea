// Command fanout measures watch fan-out and create/get/list rates of any
// Kubernetes API server over plain HTTP, so that the project and the real
// kube-apiserver (../shared/oracle, behind its HTTP proxy) are measured by
// the same client in the same run (issue #16):
//
//	go run ./tests/fanout -url http://127.0.0.1:6530 -watchers 100 -creates 200
//
// Fan-out: -watchers watches on the configmaps of a fresh namespace, then
// -creates ConfigMaps of ~1 KiB, one after another; it ends when every
// watcher has read every ADDED event. Printed: events/s delivered
// (watchers × creates / time) and the mean create latency meanwhile. Then,
// with the watches closed: creates/s, gets/s (sequential) and lists/s of
// the namespace.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "API server (plain HTTP)")
	watchers := flag.Int("watchers", 100, "watches on the collection")
	creates := flag.Int("creates", 200, "ConfigMaps created while they watch")
	flag.Parse()
	tr := &http.Transport{MaxIdleConnsPerHost: *watchers + 8}
	c := &http.Client{Transport: tr}
	ns := fmt.Sprintf("fanout-%d", time.Now().UnixNano()%1e9)
	must(do(c, "POST", *url+"/api/v1/namespaces", fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns), 201))
	path := *url + "/api/v1/namespaces/" + ns + "/configmaps"
	var list struct {
		Metadata struct{ ResourceVersion string }
	}
	resp, err := c.Get(path)
	must(err)
	must(json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()

	var want atomic.Int64
	done := make(chan struct{}, *watchers)
	var bodies []io.Closer
	for w := 0; w < *watchers; w++ {
		resp, err := c.Get(path + "?watch=1&resourceVersion=" + list.Metadata.ResourceVersion)
		must(err)
		if resp.StatusCode != 200 {
			must(fmt.Errorf("watch: %s", resp.Status))
		}
		bodies = append(bodies, resp.Body)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			var n int64
			for sc.Scan() {
				if bytes.Contains(sc.Bytes(), []byte(`"type":"ADDED"`)) {
					if n++; n == want.Load() {
						done <- struct{}{}
					}
				}
			}
		}()
	}
	time.Sleep(500 * time.Millisecond) // every watch registered (kube-apiserver's watch cache)
	want.Store(int64(*creates))
	data := strings.Repeat("x", 900)
	body := func(i int) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-%05d","labels":{"app":"bench"}},"data":{"a":%q}}`, i, data)
	}
	t0 := time.Now()
	var createTime time.Duration
	for i := 0; i < *creates; i++ {
		s := time.Now()
		must(do(c, "POST", path, body(i), 201))
		createTime += time.Since(s)
	}
	for w := 0; w < *watchers; w++ {
		<-done
	}
	el := time.Since(t0)
	fmt.Printf("fan-out: %d watchers × %d creates in %v: %.0f events/s, create %.2f ms mean\n",
		*watchers, *creates, el.Round(time.Millisecond), float64(*watchers**creates)/el.Seconds(), float64(createTime.Microseconds())/1000/float64(*creates))
	for _, b := range bodies {
		b.Close()
	}
	rate := func(name string, n int, f func(i int) error) {
		t := time.Now()
		for i := 0; i < n; i++ {
			must(f(i))
		}
		fmt.Printf("%s: %.0f/s\n", name, float64(n)/time.Since(t).Seconds())
	}
	rate("create", 500, func(i int) error { return do(c, "POST", path, body(100000+i), 201) })
	rate("get", 2000, func(i int) error { return do(c, "GET", fmt.Sprintf("%s/cm-%05d", path, 100000+i%500), "", 200) })
	rate(fmt.Sprintf("list of %d", *creates+500), 50, func(int) error { return do(c, "GET", path, "", 200) })
	must(do(c, "DELETE", *url+"/api/v1/namespaces/"+ns, "", 200))
}

func do(c *http.Client, method, url, body string, want int) error {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return nil
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
