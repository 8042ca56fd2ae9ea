package apiserver

// Fuzz targets for the request decoders the handler runs before anything
// touches the store: write bodies (JSON, YAML, protobuf), continue tokens
// and the list/watch query parameters (resourceVersion, resourceVersionMatch,
// limit, timeoutSeconds, selectors, sendInitialEvents).
//
// Each target checks the decoder's contract, not only "no panic":
//
//	decodeObject    an object, or an *apierr.Error with 400 or 415
//	decodeContinue  a token that re-encodes to itself, or an error
//	listOptions     options that agree with the query, or a 400/422 Status
//
// Run one for ten minutes:
//
//	go test ./core/apiserver -run '^$' -fuzz '^FuzzDecodeObject$' -fuzztime 10m

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/store"
)

var fuzzContentTypes = []string{"", mediaJSON, mediaYAML, mediaProtobuf, "application/json; charset=utf-8", "text/plain", "application/merge-patch+json", ";;"}

func FuzzDecodeObject(f *testing.F) {
	seeds := []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}`,
		`{"apiVersion":1}`,
		`[]`,
		`{"a":1,"a":2}`,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\n",
		"a: &a [*a, *a]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\n", // alias bomb
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000),      // deep nesting
		strings.Repeat("- ", 500) + "x",
		"k8s\x00\n\x0f\n\x02v1\x12\tConfigMap\x12\x10\n\x0e\n\x01a\x12\x00\x1a\x00\"\x00*\x002\x00",
		"k8s\x00\n\x00\x12\xff\xff",
		"",
		"\xef\xbb\xbf{}",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i), false)
		f.Add([]byte(s), uint8(i), true)
	}
	srv := New(Options{})
	cms := srv.reg.lookup("", "v1", "configmaps")
	deps := srv.reg.lookup("apps", "v1", "deployments")
	f.Fuzz(func(t *testing.T, body []byte, ctIdx uint8, apps bool) {
		res := cms
		if apps {
			res = deps
		}
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		if ct := fuzzContentTypes[int(ctIdx)%len(fuzzContentTypes)]; ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		obj, err := decodeObject(r, body, res)
		// JSON bodies: the same answer as probing apiVersion/kind first
		// and decoding second (what decodeObject did before it parsed once).
		if ct := r.Header.Get("Content-Type"); ct == "" || ct == mediaJSON {
			var want string
			if perr := probeKind(body); perr != nil {
				want = "probe: " + perr.Error()
			} else if _, jerr := jsonx.DecodeObject(body); jerr != nil {
				want = "decode: " + jerr.Error()
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (want == "") != (err == nil) || (want != "" && !strings.Contains(got, want[strings.Index(want, ": ")+2:])) {
				t.Fatalf("two-pass oracle: %q, single pass: %q", want, got)
			}
		}
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error is not a Status: %T %v", err, err)
			}
			if ae.Code != http.StatusBadRequest && ae.Code != http.StatusUnsupportedMediaType {
				t.Fatalf("code %d (%s) for a body decode error", ae.Code, ae.Message)
			}
			if obj != nil {
				t.Fatalf("an object and an error")
			}
			return
		}
		if obj == nil {
			t.Fatalf("no object and no error")
		}
		b, err := jsonx.Marshal(obj)
		if err != nil {
			t.Fatalf("decoded object does not encode: %v", err)
		}
		back, err := jsonx.DecodeObject(b)
		if err != nil {
			t.Fatalf("re-encoded object does not decode: %v\n%s", err, b)
		}
		b2, _ := jsonx.Marshal(back)
		if !bytes.Equal(b, b2) {
			t.Fatalf("not stable through encode/decode:\n%s\n%s", b, b2)
		}
	})
}

func FuzzContinueToken(f *testing.F) {
	f.Add(encodeContinue(7, "default/cm-1\x00"), int64(7), "default/cm-1\x00")
	f.Add(encodeContinue(-1, "a"), int64(-1), "a")
	f.Add("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi8ifQ", int64(1), "../")
	f.Add("not base64!", int64(0), "")
	f.Add("e30", int64(3), "x//y")
	f.Fuzz(func(t *testing.T, raw string, rv int64, start string) {
		// Any string: a token or an error, never both, never a panic.
		tok, err := decodeContinue(raw)
		if err != nil {
			if tok != nil {
				t.Fatalf("token and error")
			}
			if !strings.HasPrefix(err.Error(), "continue key is not valid") {
				t.Fatalf("unexpected error text %q", err)
			}
		} else {
			if tok.RV == 0 || tok.V != "meta.k8s.io/v1" {
				t.Fatalf("accepted a token the real server rejects: %+v", tok)
			}
			again, err := decodeContinue(encodeContinue(store.Revision(tok.RV), tok.Start))
			if err != nil || *again != *tok {
				t.Fatalf("re-encoded token differs: %+v vs %+v (%v)", again, tok, err)
			}
		}
		// Any token we hand out decodes to what we put in, when its key is
		// one the real server would accept.
		// (Keys are object names, valid UTF-8; json.Marshal would replace
		// invalid bytes in the real server's token as well.)
		if rv == 0 || start == "" || !utf8.ValidString(start) {
			return
		}
		tok, err = decodeContinue(encodeContinue(store.Revision(rv), start))
		if err != nil {
			return // unclean path: the real server refuses it too
		}
		if tok.RV != rv || strings.TrimPrefix(start, "/") != tok.Start {
			t.Fatalf("round trip: got %+v for rv=%d start=%q", tok, rv, start)
		}
	})
}

func FuzzListOptions(f *testing.F) {
	f.Add("resourceVersion=0&limit=1", false)
	f.Add("resourceVersion=10&resourceVersionMatch=Exact", false)
	f.Add("resourceVersionMatch=NotOlderThan&sendInitialEvents=true&allowWatchBookmarks=true", true)
	f.Add("limit=-1&continue="+encodeContinue(3, "default/a\x00"), false)
	f.Add("labelSelector=a+in+(b,c),!d&fieldSelector=metadata.name!=x", false)
	f.Add("fieldSelector=spec.bogus=1", true)
	f.Add("timeoutSeconds=99999999999999999999&resourceVersion=-1", true)
	f.Add("continue=e30&resourceVersion=5", false)
	srv := New(Options{})
	pods := srv.reg.lookup("", "v1", "pods")
	f.Fuzz(func(t *testing.T, rawQuery string, watch bool) {
		query, err := url.ParseQuery(rawQuery)
		if err != nil {
			return // the HTTP server would not get this far
		}
		q := &request{s: srv, res: pods, query: query}
		q.ri.verb = "list"
		if watch {
			q.ri.verb = "watch"
		}
		o, err := q.listOptions()
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error is not a Status: %T %v", err, err)
			}
			// 500: a watch's resourceVersion that is not a number, as the
			// storage layer's plain error reaches the client on kube
			internal := ae.Code == http.StatusInternalServerError && watch && strings.HasPrefix(ae.Message, "resourceVersion: Invalid value")
			if ae.Code != http.StatusBadRequest && ae.Code != http.StatusUnprocessableEntity && !internal {
				t.Fatalf("code %d (%s)", ae.Code, ae.Message)
			}
			if _, err := json.Marshal(apierr.ToStatus(ae)); err != nil {
				t.Fatalf("Status does not encode: %v", err)
			}
			return
		}
		if o.rv != query.Get("resourceVersion") || o.rvMatch != query.Get("resourceVersionMatch") {
			t.Fatalf("options disagree with the query: %+v", o)
		}
		if o.rv != "" {
			if _, ok := parseRV(o.rv); !ok {
				t.Fatalf("accepted resourceVersion %q", o.rv)
			}
		}
		if o.limit < 0 {
			t.Fatalf("negative limit %d", o.limit)
		}
		if (o.contRaw != "") != (o.cont != nil) {
			t.Fatalf("continue %q decoded to %+v", o.contRaw, o.cont)
		}
		if o.sendInitialEvents != nil && (!o.watch || o.rvMatch != "NotOlderThan") {
			t.Fatalf("sendInitialEvents accepted without its preconditions: %+v", o)
		}
	})
}
