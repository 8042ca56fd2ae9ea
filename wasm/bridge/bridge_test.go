package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// recorder is a Sink that records calls as readable lines.
type recorder struct {
	calls  []string
	header http.Header
	body   string
}

func (r *recorder) Head(status int, h http.Header, body []byte, streaming bool) {
	r.header = h.Clone()
	r.body = string(body)
	r.calls = append(r.calls, fmt.Sprintf("head %d streaming=%v body=%q", status, streaming, body))
}
func (r *recorder) Chunk(p []byte) { r.calls = append(r.calls, fmt.Sprintf("chunk %q", p)) }
func (r *recorder) End(err error) {
	if err != nil {
		r.calls = append(r.calls, "end "+err.Error())
		return
	}
	r.calls = append(r.calls, "end")
}

func init() {
	Now = func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	Log = io.Discard
}

func get(url string) Request { return Request{Method: "GET", URL: "http://127.0.0.1:8080" + url} }

func TestServe(t *testing.T) {
	tests := []struct {
		name    string
		req     Request
		handler http.HandlerFunc
		want    []string
		header  map[string]string // expected header values ("" = absent)
	}{{
		name: "buffered body with explicit type",
		req:  get("/version"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"major":"1",`))
			w.Write([]byte(`"minor":"37"}`))
		},
		want:   []string{`head 200 streaming=false body="{\"major\":\"1\",\"minor\":\"37\"}"`},
		header: map[string]string{"Content-Type": "application/json", "Content-Length": "26", "Date": "Thu, 02 Jan 2025 03:04:05 GMT"},
	}, {
		name: "status and sniffed content type, as net/http",
		req:  get("/x"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.WriteHeader(http.StatusTeapot) // superfluous: ignored
			io.WriteString(w, "404 page not found\n")
		},
		want:   []string{`head 404 streaming=false body="404 page not found\n"`},
		header: map[string]string{"Content-Type": "text/plain; charset=utf-8", "Content-Length": "19"},
	}, {
		name: "headers changed after WriteHeader are not sent",
		req:  get("/x"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("A", "1")
			w.WriteHeader(201)
			w.Header().Set("B", "2")
		},
		want:   []string{`head 201 streaming=false body=""`},
		header: map[string]string{"A": "1", "B": "", "Content-Length": "0", "Content-Type": ""},
	}, {
		name: "no body for 204",
		req:  get("/x"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNoContent)
			if _, err := w.Write([]byte("x")); err != http.ErrBodyNotAllowed {
				panic("want ErrBodyNotAllowed")
			}
		},
		want:   []string{`head 204 streaming=false body=""`},
		header: map[string]string{"Content-Length": ""},
	}, {
		name: "HEAD keeps the length, drops the body",
		req:  Request{Method: "HEAD", URL: "http://h/version"},
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "26")
			io.WriteString(w, `{"major":"1","minor":"37"}`)
		},
		want:   []string{`head 200 streaming=false body=""`},
		header: map[string]string{"Content-Length": "26"},
	}, {
		name: "each flush is one chunk; the rest goes at the end",
		req:  get("/api/v1/configmaps?watch=1"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Transfer-Encoding", "chunked")
			w.(http.Flusher).Flush()
			io.WriteString(w, `{"type":"ADDED",`)
			io.WriteString(w, `"object":{}}`+"\n")
			w.(http.Flusher).Flush()
			w.(http.Flusher).Flush() // nothing new: no chunk
			io.WriteString(w, `{"type":"DELETED","object":{}}`+"\n")
		},
		want: []string{
			`head 200 streaming=true body=""`,
			`chunk "{\"type\":\"ADDED\",\"object\":{}}\n"`,
			`chunk "{\"type\":\"DELETED\",\"object\":{}}\n"`,
			"end",
		},
		header: map[string]string{"Content-Type": "application/json", "Transfer-Encoding": "", "Content-Length": ""},
	}, {
		name: "ResponseController flushes too",
		req:  get("/s"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "a")
			if err := http.NewResponseController(w).Flush(); err != nil {
				panic(err)
			}
		},
		want: []string{`head 200 streaming=true body=""`, `chunk "a"`, "end"},
	}, {
		name: "a panic before the head is a network error",
		req:  get("/p"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			var m map[string]int
			m["x"]++
		},
		want: []string{"end bridge: handler panicked: assignment to entry in nil map"},
	}, {
		name: "a panic while streaming ends the stream with an error",
		req:  get("/p"),
		handler: func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		},
		want: []string{`head 200 streaming=true body=""`, "end handler aborted the response"},
	}, {
		name:    "a relative URL is refused",
		req:     Request{Method: "GET", URL: "/version"},
		handler: func(w http.ResponseWriter, r *http.Request) { panic("not reached") },
		want:    []string{`end bridge: URL "/version" is not absolute`},
	}, {
		name:    "a bad method is refused",
		req:     Request{Method: "G ET", URL: "http://h/"},
		handler: func(w http.ResponseWriter, r *http.Request) { panic("not reached") },
		want:    []string{`end net/http: invalid method "G ET"`},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			Serve(context.Background(), tc.handler, tc.req, rec)
			if got := strings.Join(rec.calls, "\n"); got != strings.Join(tc.want, "\n") {
				t.Errorf("calls:\n%s\nwant:\n%s", got, strings.Join(tc.want, "\n"))
			}
			for k, v := range tc.header {
				if got := rec.header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestNewHTTPRequest(t *testing.T) {
	r, err := NewHTTPRequest(context.Background(), Request{
		Method: "POST",
		URL:    "http://127.0.0.1:8080/api/v1/namespaces/default/configmaps?fieldManager=kubectl",
		Header: [][2]string{{"content-type", "application/json"}, {"Accept", "application/json, */*"}, {"X-Multi", "a"}, {"x-multi", "b"}, {"", "dropped"}},
		Body:   []byte(`{"kind":"ConfigMap"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	checks := []struct{ name, got, want string }{
		{"method", r.Method, "POST"},
		{"host", r.Host, "127.0.0.1:8080"},
		{"path", r.URL.Path, "/api/v1/namespaces/default/configmaps"},
		{"RequestURI", r.RequestURI, "/api/v1/namespaces/default/configmaps?fieldManager=kubectl"},
		{"query", r.URL.Query().Get("fieldManager"), "kubectl"},
		{"content type", r.Header.Get("Content-Type"), "application/json"},
		{"accept keeps its commas", r.Header.Get("Accept"), "application/json, */*"},
		{"repeated header", strings.Join(r.Header.Values("X-Multi"), ";"), "a;b"},
		{"body", string(body), `{"kind":"ConfigMap"}`},
		{"content length", fmt.Sprint(r.ContentLength), "20"},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
	t.Run("no body is NoBody", func(t *testing.T) {
		r, err := NewHTTPRequest(context.Background(), get("/version"))
		if err != nil || r.Body != http.NoBody || r.ContentLength != 0 {
			t.Errorf("body %v length %d err %v", r.Body, r.ContentLength, err)
		}
	})
}

// TestCancel: cancelling the context ends the handler's request context,
// makes writes fail, and sends nothing more (the JS stream is gone).
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rec := &recorder{}
	writeErr := make(chan error, 1)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		cancel() // the page cancels its stream
		<-r.Context().Done()
		_, err := io.WriteString(w, "second\n")
		w.(http.Flusher).Flush()
		writeErr <- err
	})
	Serve(ctx, handler, get("/w"), rec)
	if err := <-writeErr; !errors.Is(err, context.Canceled) {
		t.Errorf("write after cancel: %v, want context.Canceled", err)
	}
	want := `head 200 streaming=true body=""` + "\n" + `chunk "first\n"` + "\nend"
	if got := strings.Join(rec.calls, "\n"); got != want {
		t.Errorf("calls:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzServe feeds arbitrary requests and handler behaviour through Serve:
// it must never panic and must always follow the Sink contract.
func FuzzServe(f *testing.F) {
	f.Add("GET", "http://h/version", "Accept", "application/json", []byte(nil), uint8(0), 200, []byte("ok"))
	f.Add("POST", "http://h/api/v1/namespaces/default/configmaps?x=1", "Content-Type", "application/json", []byte(`{}`), uint8(1), 201, []byte("a\nb\n"))
	f.Add("HEAD", "http://h/", "", "", []byte(nil), uint8(2), 204, []byte("x"))
	f.Add("G ET", "::", "X", "y", []byte("b"), uint8(3), 99, []byte(""))
	f.Add("PATCH", "http://h/%zz", "X", "\x00", []byte("b"), uint8(4), 1000, []byte("\xff"))
	f.Fuzz(func(t *testing.T, method, url, hk, hv string, body []byte, mode uint8, status int, out []byte) {
		handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			for i := 0; i < int(mode%4); i++ {
				w.Write(out)
				if mode&4 != 0 {
					w.(http.Flusher).Flush()
				}
			}
			if mode&8 != 0 {
				panic("boom")
			}
		})
		rec := &recorder{}
		Serve(context.Background(), handler, Request{Method: method, URL: url, Header: [][2]string{{hk, hv}}, Body: body}, rec)
		if len(rec.calls) == 0 {
			t.Fatal("no sink call")
		}
		first, last := rec.calls[0], rec.calls[len(rec.calls)-1]
		switch {
		case strings.HasPrefix(first, "head ") && strings.Contains(first, "streaming=true"):
			if !strings.HasPrefix(last, "end") {
				t.Fatalf("stream not ended: %q", rec.calls)
			}
		case strings.HasPrefix(first, "head "):
			if len(rec.calls) != 1 {
				t.Fatalf("buffered response with more calls: %q", rec.calls)
			}
		case strings.HasPrefix(first, "end "):
			if len(rec.calls) != 1 {
				t.Fatalf("failure with more calls: %q", rec.calls)
			}
		default:
			t.Fatalf("bad first call %q", first)
		}
	})
}
