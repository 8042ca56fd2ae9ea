package main

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// server is one API server under measurement: where to reach it and which
// processes' CPU is its cost.
type server struct {
	name   string
	url    string // https://host:port
	token  string
	pids   []int
	oracle bool
	http1  bool
	cmd    *exec.Cmd // started by us (-bin), stopped at the end
	c      *http.Client
	ns     string   // namespace prefix, unique per run
	idle   float64  // CPU seconds per second with no client (idleCPU)
	made   []string // namespaces of the fan-outs, deleted at the end
}

// result is one path timed on one server.
type result struct {
	path, server string
	round        int
	n            int
	wall         time.Duration
	cpu          float64 // seconds of server CPU over the n requests
	idle         float64 // of which the server's idle rate would be
	bytes        int64   // response bytes read
}

func (r result) rate() float64      { return float64(r.n) / r.wall.Seconds() }
func (r result) cpuPerReq() float64 { return r.cpu / float64(r.n) }

// netCPUPerReq is cpuPerReq without the server's idle rate over the run
// (kube-apiserver's and etcd's own background work), at least zero.
func (r result) netCPUPerReq() float64 { return max(r.cpu-r.idle, 0) / float64(r.n) }

func client(http1 bool, conc int) *http.Client {
	tr := &http.Transport{
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true},
		ForceAttemptHTTP2:   !http1,
		MaxIdleConnsPerHost: conc + 2,
	}
	if http1 {
		tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	return &http.Client{Transport: tr, Timeout: 5 * time.Minute}
}

// oracleServer reads a kube-start.sh run directory: the kubeconfig's
// HTTPS server, the token, and the PIDs of kube-apiserver and etcd.
func oracleServer(dir string, http1 bool, conc int) (*server, error) {
	kc, err := os.ReadFile(filepath.Join(dir, "kubeconfig"))
	if err != nil {
		return nil, err
	}
	m := regexp.MustCompile(`server: "?(https://[^",}\s]+)`).FindSubmatch(kc)
	if m == nil {
		return nil, fmt.Errorf("%s/kubeconfig: no https server", dir)
	}
	tok, err := os.ReadFile(filepath.Join(dir, "token"))
	if err != nil {
		return nil, err
	}
	s := &server{name: "real", url: string(m[1]), token: strings.TrimSpace(string(tok)), oracle: true, http1: http1, c: client(http1, conc)}
	for _, p := range []string{"kube-apiserver", "etcd"} {
		b, err := os.ReadFile(filepath.Join(dir, p+".pid"))
		if err != nil {
			return nil, err
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("%s.pid: %v", p, err)
		}
		s.pids = append(s.pids, pid)
	}
	return s, nil
}

// startBinary starts a kubesandbox binary as a bare control plane over
// HTTPS (the test mode: no controllers, no nodes) and waits until it
// answers /readyz.
func startBinary(name, path string, port int, http1 bool, conc int, extra []string) (*server, error) {
	const token = "loadcmp-token"
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	if ln, err := net.Listen("tcp", addr); err != nil { // another server there would be measured instead
		return nil, fmt.Errorf("%s: port %d: %v", name, port, err)
	} else {
		ln.Close()
	}
	cmd := exec.Command(path, "-addr", addr, "-tls", "-token", token, "-controllers=false", "-nodes", "0", "-kubeconfig", "")
	cmd.Args = append(cmd.Args, extra...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{name: name, url: "https://" + addr, token: token, pids: []int{cmd.Process.Pid}, cmd: cmd, http1: http1, c: client(http1, conc)}
	for deadline := time.Now().Add(60 * time.Second); ; {
		if _, err := s.do("GET", "/readyz", "", "", "", 200); err == nil {
			return s, nil
		} else if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("%s: not ready after 60 s: %v", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// do sends one request and reads the answer to the end; it returns the
// number of body bytes.
func (s *server) do(method, path, body, ctype, accept string, want int) (int64, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := s.c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return 0, fmt.Errorf("%s %s %s: %d %s", s.name, method, path, resp.StatusCode, b)
	}
	return io.Copy(io.Discard, resp.Body)
}

// cpuSeconds sums utime+stime of the server's processes (/proc/PID/stat
// fields 14 and 15, in clock ticks of 1/100 s).
func (s *server) cpuSeconds() float64 {
	var ticks int64
	for _, pid := range s.pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		must(err)
		// The command name (field 2) is in parentheses and may hold spaces.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		for _, i := range []int{11, 12} { // utime, stime: fields 14, 15 counted from 1
			v, err := strconv.ParseInt(f[i], 10, 64)
			must(err)
			ticks += v
		}
	}
	return float64(ticks) / 100
}

// idleCPU is the servers' own CPU per second with no client: background
// work (kube-apiserver's leases and controllers, etcd's heartbeats) that
// every measurement below includes.
func (s *server) idleCPU() float64 {
	c0, t0 := s.cpuSeconds(), time.Now()
	time.Sleep(2 * time.Second)
	s.idle = (s.cpuSeconds() - c0) / time.Since(t0).Seconds()
	return s.idle
}

// parallel runs f(0..n-1) on conc workers and returns the bytes read.
func parallel(n, conc int, f func(i int) (int64, error)) (int64, error) {
	var next, bytes atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				b, err := f(i)
				if err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n))
					return
				}
				bytes.Add(b)
			}
		}()
	}
	wg.Wait()
	return bytes.Load(), first
}

// run times one path: n requests on conc workers, CPU read around them.
func (s *server) run(p path, conc int) (result, error) {
	c0, t0 := s.cpuSeconds(), time.Now()
	b, err := parallel(p.n, conc, func(i int) (int64, error) {
		m, u, body, ctype, accept, want := p.req(s, i)
		return s.do(m, u, body, ctype, accept, want)
	})
	wall, cpu := time.Since(t0), s.cpuSeconds()-c0
	return result{path: p.name, server: s.name, n: p.n, wall: wall, cpu: cpu, idle: s.idle * wall.Seconds(), bytes: b}, err
}
