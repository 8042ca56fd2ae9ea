package apiserver

import (
	"bufio"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWatchSharedEncodingIsPerWatcherEncoding: the same writes, watched in
// every form a client can ask for, give byte for byte the lines each
// watcher got when it encoded its own copy of every event (uids aside:
// the two servers make their own). Several watchers of one form share one
// encoding, so each form is watched twice.
func TestWatchSharedEncodingIsPerWatcherEncoding(t *testing.T) {
	clock := func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }
	forms := []struct {
		name, query, accept string
		want                []string // event types, in order
	}{
		{"all", "", "", []string{"ADDED", "ADDED", "MODIFIED", "MODIFIED", "MODIFIED", "DELETED", "DELETED"}},
		// a joins, b joins (label change: ADDED), a leaves (label change: DELETED), b deleted
		{"label selector", "&labelSelector=app%3Dweb", "", []string{"ADDED", "MODIFIED", "ADDED", "DELETED", "DELETED"}},
		{"field selector", "&fieldSelector=metadata.name%3Db", "", []string{"ADDED", "MODIFIED", "DELETED"}},
		{"table", "", "application/json;as=Table;g=meta.k8s.io;v=v1", nil},
		{"table with objects", "&includeObject=Object", "application/json;as=Table;g=meta.k8s.io;v=v1", nil},
		{"table of a selector", "&labelSelector=app%3Dweb", "application/json;as=Table;g=meta.k8s.io;v=v1beta1", nil},
		{"partial v1", "", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", nil},
		{"partial v1beta1 of a selector", "&labelSelector=app%3Dweb", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1", nil},
	}
	uid := regexp.MustCompile(`"uid":"[^"]*"`)
	run := func(perWatcher bool) map[string][2][]string {
		c := newTestClient(t, Options{Now: clock})
		c.srv.perWatcherEncoding = perWatcher
		rv0 := strconv.FormatInt(int64(c.srv.Store().Rev()), 10)
		c.mustDo(201, "POST", cmPath, configMap("a", map[string]string{"app": "web"}, map[string]string{"k": "1"}))
		c.mustDo(201, "POST", cmPath, configMap("b", map[string]string{"app": "db"}, map[string]string{"k": "1"}))
		c.mustDo(200, "PUT", cmPath+"/a", configMap("a", map[string]string{"app": "web"}, map[string]string{"k": "2"}))
		c.mustDo(200, "PUT", cmPath+"/b", configMap("b", map[string]string{"app": "web"}, map[string]string{"k": "2"}))
		c.mustDo(200, "PUT", cmPath+"/a", configMap("a", map[string]string{"app": "db"}, map[string]string{"k": "3"}))
		c.mustDo(200, "DELETE", cmPath+"/b", nil)
		c.mustDo(200, "DELETE", cmPath+"/a", nil)
		// the watches start after the writes and replay them from the
		// history, all at once, then end with their timeout
		type result struct {
			form string
			i    int
			got  []string
		}
		results := make(chan result)
		for _, f := range forms {
			for i := 0; i < 2; i++ {
				go func() {
					req, _ := http.NewRequest("GET", c.url+cmPath+"?watch=1&timeoutSeconds=1&resourceVersion="+rv0+f.query, nil)
					if f.accept != "" {
						req.Header.Set("Accept", f.accept)
					}
					var lines []string
					if resp, err := http.DefaultClient.Do(req); err == nil {
						sc := bufio.NewScanner(resp.Body)
						for sc.Scan() {
							lines = append(lines, uid.ReplaceAllString(sc.Text(), `"uid":"…"`))
						}
						resp.Body.Close()
					}
					results <- result{f.name, i, lines}
				}()
			}
		}
		out := map[string][2][]string{}
		for range 2 * len(forms) {
			r := <-results
			v := out[r.form]
			v[r.i] = r.got
			out[r.form] = v
		}
		return out
	}
	shared, own := run(false), run(true)
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			for i := 0; i < 2; i++ {
				s, o := shared[f.name][i], own[f.name][i]
				if len(o) == 0 {
					t.Fatalf("watcher %d: no events", i)
				}
				if strings.Join(s, "\n") != strings.Join(o, "\n") {
					t.Errorf("watcher %d, shared encoding:\n%s\nper-watcher encoding:\n%s", i, strings.Join(s, "\n"), strings.Join(o, "\n"))
				}
			}
			if f.want == nil {
				return
			}
			var types []string
			for _, l := range shared[f.name][0] {
				types = append(types, regexp.MustCompile(`"type":"([A-Z]+)"`).FindStringSubmatch(l)[1])
			}
			if strings.Join(types, " ") != strings.Join(f.want, " ") {
				t.Errorf("events %v, want %v", types, f.want)
			}
		})
	}
}
