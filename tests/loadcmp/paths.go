package main

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

const (
	jsonType  = "application/json"
	protoType = "application/vnd.kubernetes.protobuf"
)

// path is one request shape: req gives the i-th request of a run.
type path struct {
	name string
	n    int
	req  func(s *server, i int) (method, url, body, ctype, accept string, want int)
}

// createSeq numbers the timed creates across rounds, so names never repeat.
var createSeq atomic.Int64

// configMap is a ConfigMap of about 1 KiB: eight data keys of 100 bytes
// and two labels (the workload of core/apiserver's benchmarks).
func configMap(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"labels":{"app":"bench","tier":"load"}},"data":{`, name)
	for k := 0; k < 8; k++ {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"key-%d":%q`, k, strings.Repeat(string(rune('a'+k)), 100))
	}
	b.WriteString("}}")
	return b.String()
}

func (s *server) nsPath(suffix string) string { return "/api/v1/namespaces/" + s.ns + "-" + suffix }

// setup makes three namespaces: -700 and -2000 hold that many ConfigMaps
// (filled here, not timed), -w takes the timed creates.
func (s *server) setup() error {
	s.ns = fmt.Sprintf("loadcmp-%d", time.Now().Unix()%1e6)
	for _, n := range []string{"700", "2000", "w"} {
		body := fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, s.ns+"-"+n)
		if _, err := s.do("POST", "/api/v1/namespaces", body, jsonType, "", 201); err != nil {
			return err
		}
	}
	for _, n := range []int{700, 2000} {
		url := s.nsPath(fmt.Sprint(n)) + "/configmaps"
		if _, err := parallel(n, 4, func(i int) (int64, error) {
			return s.do("POST", url, configMap(fmt.Sprintf("cm-%05d", i)), jsonType, "", 201)
		}); err != nil {
			return err
		}
	}
	return nil
}

func paths(nCreate, nGet, nList700, nList2000 int) []path {
	get := func(accept string) func(*server, int) (string, string, string, string, string, int) {
		return func(s *server, i int) (string, string, string, string, string, int) {
			return "GET", fmt.Sprintf("%s/configmaps/cm-%05d", s.nsPath("2000"), i%2000), "", "", accept, 200
		}
	}
	list := func(size, accept string) func(*server, int) (string, string, string, string, string, int) {
		return func(s *server, i int) (string, string, string, string, string, int) {
			return "GET", s.nsPath(size) + "/configmaps", "", "", accept, 200
		}
	}
	return []path{
		{"create", nCreate, func(s *server, i int) (string, string, string, string, string, int) {
			return "POST", s.nsPath("w") + "/configmaps", configMap(fmt.Sprintf("cm-%07d", createSeq.Add(1))), jsonType, "", 201
		}},
		{"get json", nGet, get(jsonType)},
		{"get protobuf", nGet, get(protoType)},
		{"list 700 json", nList700, list("700", jsonType)},
		{"list 700 protobuf", nList700, list("700", protoType)},
		{"list 2000 json", nList2000, list("2000", jsonType)},
		{"list 2000 protobuf", nList2000, list("2000", protoType)},
	}
}
