package bridge

import (
	"context"
	"net/http"
	"net/textproto"
	"testing"
	"time"
)

// TestCanonicalKey: the request path's own canonicalisation gives what
// textproto.CanonicalMIMEHeaderKey gives, for the names browsers send and
// for the ones it hands back to textproto.
func TestCanonicalKey(t *testing.T) {
	for _, name := range []string{
		"accept", "content-type", "Content-Type", "CONTENT-TYPE", "user-agent", "sec-ch-ua-platform",
		"x-kubernetes-pf-flowschema-uid", "Content-MD5", "www-authenticate", "a", "-", "--x", "x-", "1-a",
		"x_under", "has space", "ünicode", "Accept\x00", "dnt",
	} {
		t.Run(name, func(t *testing.T) {
			if got, want := canonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
				t.Errorf("canonicalKey(%q) = %q, want %q", name, got, want)
			}
		})
	}
}

// FuzzCanonicalKey: any name, the same answer as textproto.
func FuzzCanonicalKey(f *testing.F) {
	for _, s := range []string{"accept", "X-ABC", "a-b-c", "x_y", "9z", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := canonicalKey(name), textproto.CanonicalMIMEHeaderKey(name); got != want {
			t.Errorf("canonicalKey(%q) = %q, want %q", name, got, want)
		}
	})
}

// TestDate: the Date header is formatted once a second and follows Now.
func TestDate(t *testing.T) {
	at := time.Date(2026, 11, 27, 1, 2, 3, 0, time.UTC)
	for _, tc := range []struct {
		name string
		t    time.Time
		want string
	}{
		{"first", at, "Fri, 27 Nov 2026 01:02:03 GMT"},
		{"same second", at.Add(900 * time.Millisecond), "Fri, 27 Nov 2026 01:02:03 GMT"},
		{"next second", at.Add(time.Second), "Fri, 27 Nov 2026 01:02:04 GMT"},
		{"another zone", at.In(time.FixedZone("X", 3600)).Add(2 * time.Second), "Fri, 27 Nov 2026 01:02:05 GMT"},
		{"back in time", at.Add(-time.Hour), "Fri, 27 Nov 2026 00:02:03 GMT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := date(tc.t); got != tc.want {
				t.Errorf("date = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestServeCancel: the caller's cancel ends the handler's context, and
// ServeCancel calls it when the handler returns.
func TestServeCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan context.Context, 1)
	ServeCancel(ctx, cancel, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Context().Err() != nil {
			t.Error("the context is cancelled while the handler runs")
		}
		seen <- r.Context()
		w.Write([]byte("ok"))
	}), get("/x"), &recorder{})
	if err := (<-seen).Err(); err != context.Canceled {
		t.Errorf("after the handler: %v, want context.Canceled", err)
	}
	if ctx.Err() != context.Canceled {
		t.Errorf("the caller's context: %v, want context.Canceled", ctx.Err())
	}
}
