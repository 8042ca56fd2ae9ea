// Command static serves the playground and the browser runtime's files for
// development and tests. It never answers the Kubernetes API: in the
// browser, the service worker hands API requests to the WebAssembly core.
//
//	static -addr 127.0.0.1:8080 -root playground -mount /web/=bin/web
//
// serves playground/ at / and bin/web/ at /web/, and prints
// "serving on http://127.0.0.1:8080" once it answers (with -addr
// 127.0.0.1:0 the chosen port is printed). It sends application/wasm for
// .wasm and text/javascript for .js, serves x.wasm.br or x.wasm.gz in place
// of x.wasm when the client accepts that encoding, and allows the service
// worker at /web/sw.js to control the whole origin (Service-Worker-Allowed).
// With -debug, GET /__static/requests lists the paths it was asked for, so
// tests can prove that an API path never reached it.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type mounts []string

func (m *mounts) String() string     { return strings.Join(*m, ",") }
func (m *mounts) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	root := flag.String("root", "playground", "directory served at /")
	debug := flag.Bool("debug", false, "record request paths, listed at /__static/requests")
	var ms mounts
	flag.Var(&ms, "mount", "PREFIX=DIR: serve DIR at PREFIX (repeatable), e.g. /web/=bin/web")
	flag.Parse()

	h, err := newServer(*root, ms, *debug)
	if err != nil {
		fmt.Fprintln(os.Stderr, "static:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "static:", err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	url := "http://" + *addr // printed exactly as given…
	if _, port, _ := net.SplitHostPort(*addr); port == "0" {
		url = "http://" + ln.Addr().String() // …unless the kernel picked the port
	}
	if err := waitAnswering(url); err != nil {
		fmt.Fprintln(os.Stderr, "static:", err)
		os.Exit(1)
	}
	fmt.Println("serving on " + url)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
}

// waitAnswering polls url until the server answers (any status).
func waitAnswering(url string) error {
	c := &http.Client{Timeout: time.Second}
	var err error
	for i := 0; i < 50; i++ {
		var resp *http.Response
		if resp, err = c.Get(url + "/__static/ping"); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

type server struct {
	dirs  []mount // longest prefix first
	debug bool
	mu    sync.Mutex
	seen  []string
}

type mount struct{ prefix, dir string }

func newServer(root string, ms []string, debug bool) (*server, error) {
	s := &server{debug: debug}
	for _, m := range ms {
		prefix, dir, ok := strings.Cut(m, "=")
		if !ok || !strings.HasPrefix(prefix, "/") || !strings.HasSuffix(prefix, "/") {
			return nil, fmt.Errorf("-mount %q: want /PREFIX/=DIR", m)
		}
		s.dirs = append(s.dirs, mount{prefix, dir})
	}
	s.dirs = append(s.dirs, mount{"/", root})
	for _, m := range s.dirs {
		if st, err := os.Stat(m.dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%s is not a directory", m.dir)
		}
	}
	return s, nil
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/__static/ping" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if s.debug {
		if r.URL.Path == "/__static/requests" {
			s.mu.Lock()
			b, _ := json.Marshal(s.seen)
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
			return
		}
		s.mu.Lock()
		if len(s.seen) < 10000 {
			s.seen = append(s.seen, r.URL.RequestURI())
		}
		s.mu.Unlock()
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "static server: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	file, ok := s.resolve(r.URL.Path)
	if !ok {
		http.Error(w, "static server: not found (the Kubernetes API is answered in the browser, by the service worker)", http.StatusNotFound)
		return
	}
	s.serveFile(w, r, file)
}

// resolve maps a URL path to a file: "/" → root/index.html,
// "/web/sw.js" → bin/web/sw.js. It refuses anything that is not a regular file.
func (s *server) resolve(p string) (string, bool) {
	p = path.Clean("/" + p)
	for _, m := range s.dirs {
		rest, ok := strings.CutPrefix(p+"/", m.prefix)
		if !ok {
			continue
		}
		rest = strings.TrimSuffix(rest, "/")
		file := filepath.Join(m.dir, filepath.FromSlash(rest))
		if st, err := os.Stat(file); err == nil && st.IsDir() {
			file = filepath.Join(file, "index.html")
		}
		st, err := os.Stat(file)
		return file, err == nil && st.Mode().IsRegular()
	}
	return "", false
}

var types = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
}

func (s *server) serveFile(w http.ResponseWriter, r *http.Request, file string) {
	h := w.Header()
	ext := filepath.Ext(file)
	ctype, ok := types[ext]
	if !ok {
		ctype = mime.TypeByExtension(ext)
	}
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	h.Set("Cache-Control", "no-cache")
	if filepath.Base(file) == "sw.js" {
		h.Set("Service-Worker-Allowed", "/")
	}
	if ext == ".wasm" {
		h.Add("Vary", "Accept-Encoding")
		accept := r.Header.Get("Accept-Encoding")
		for _, enc := range []struct{ token, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !acceptsEncoding(accept, enc.token) {
				continue
			}
			if st, err := os.Stat(file + enc.suffix); err == nil && st.Mode().IsRegular() {
				raw, _ := os.Stat(file)
				if raw != nil {
					h.Set("X-Uncompressed-Length", strconv.FormatInt(raw.Size(), 10))
				}
				h.Set("Content-Encoding", enc.token)
				file += enc.suffix
				break
			}
		}
	}
	f, err := os.Open(file)
	if err != nil {
		http.Error(w, "static server: "+err.Error(), http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "static server: "+err.Error(), http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// acceptsEncoding reports whether an Accept-Encoding value allows token
// ("gzip, deflate, br" allows br; "br;q=0" does not).
func acceptsEncoding(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), token) {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		if q, ok := strings.CutPrefix(params, "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				return false
			}
		}
		return true
	}
	return false
}
