package apiserver

import (
	"bytes"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/internal/respbuf"
	"io"
	"net/http"
	"sigs.k8s.io/yaml"
	"slices"
	"sort"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// A kind's own subresources (resource.Subresource: a Pod's binding, log,
// exec ...): the server finds the object and hands the request over; the
// kind decides the answer. Example:
//
//	POST /api/v1/namespaces/default/pods/web/binding → 404 if web is not
//	stored, 405 for a verb the subresource does not list, else its Serve.

func ownSubresource(res *resource.Resource, name string) *resource.Subresource {
	if name == "" {
		return nil
	}
	for i := range res.Subresources {
		if res.Subresources[i].Name == name {
			return &res.Subresources[i]
		}
	}
	return nil
}

func (q *request) serveSubresource(sub *resource.Subresource) error {
	gr := apierr.GR{Group: q.res.Group, Resource: q.res.Resource + "/" + sub.Name}
	if !slices.Contains(sub.Verbs, q.ri.verb) {
		return apierr.MethodNotSupported(gr, q.ri.verb)
	}
	obj, err := q.current()
	if err != nil {
		return err
	}
	body, err := readBody(q.r)
	if err != nil {
		return err
	}
	if body, err = subresourceBody(q.r, body, sub); err != nil {
		return err
	}
	dry, err := q.dryRun()
	if err != nil {
		return err
	}
	sr := &resource.SubRequest{Verb: q.ri.verb, Sub: sub.Name, Now: q.s.timestamp(), Obj: obj, Body: body, Query: q.query, Header: q.r.Header,
		Update: func(change func(resource.Object) error) (resource.Object, error) {
			out, _, err := q.s.writeExisting(q.res, q.ri.namespace, q.ri.name, dry, nil, func(old object) (object, writeOp, error) {
				if err := change(old); err != nil {
					return nil, writeUnchanged, err
				}
				return old, writeStorage, nil
			})
			return out, err
		},
		Loopback: q.s.loopback}
	ans, err := sub.Serve(sr)
	if err != nil {
		return err
	}
	code := ans.Code
	if code == 0 {
		code = http.StatusOK
	}
	if ans.Obj == nil {
		q.w.Header().Set("Content-Type", "text/plain")
		q.w.WriteHeader(code)
		_, _ = q.w.Write(ans.Text)
		return nil
	}
	out := output{media: mediaJSON}
	if q.out.media == mediaProtobuf {
		out = q.out
	}
	writeObject(q.w, code, out, ans.Obj)
	return nil
}

// subresourceDiscovery lists res's own subresources as APIResources.
func subresourceDiscovery(res *resource.Resource) []any {
	subs := append([]resource.Subresource(nil), res.Subresources...)
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name < subs[j].Name })
	var out []any
	for _, sub := range subs {
		e := map[string]any{"name": res.Resource + "/" + sub.Name, "singularName": "", "namespaced": res.Namespaced,
			"kind": sub.Kind, "verbs": jsonx.Anys(sub.Verbs)}
		if sub.Group != "" || sub.Version != "" {
			e["group"], e["version"] = sub.Group, sub.Version
		}
		out = append(out, e)
	}
	return out
}

// loopbackUA is the User-Agent of the server's requests to itself (its
// registries' loopback clients): managedFields name "kube-apiserver".
const loopbackUA = "kube-apiserver/v1.37.2 (linux/amd64) kubernetes/kubesandbox"

// loopback serves one request in-process, as a registry's loopback client
// sends it (resource.SubRequest.Loopback).
func (s *Server) loopback(method, path string, body resource.Object) (resource.Object, error) {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := jsonx.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://kubesandbox.local"+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", loopbackUA)
	req.Header.Set("Accept", mediaJSON)
	if body != nil {
		req.Header.Set("Content-Type", mediaJSON)
	}
	rec := respbuf.New()
	s.ServeHTTP(rec, req)
	if c := rec.Code(); c < 200 || c > 299 {
		return nil, apierr.FromStatus(c, rec.Body.Bytes())
	}
	out, err := jsonx.DecodeObject(rec.Body.Bytes())
	if err != nil {
		return nil, err
	}
	return out, nil
}

// subresourceBody turns a protobuf or YAML body into the JSON Serve reads,
// with the subresource's definition (typed clients send protobuf: a
// TokenRequest from kubectl create token, an Eviction from kubectl drain).
func subresourceBody(r *http.Request, body []byte, sub *resource.Subresource) ([]byte, error) {
	if len(body) == 0 || sub.Def == "" {
		return body, nil
	}
	unrecognized := func(err error) error {
		return apierr.BadRequestf("the object provided is unrecognized (must be of type %s): %v (%s)", sub.Kind, err, summarize(body))
	}
	switch ct := contentType(r); ct {
	case mediaProtobuf:
		obj, err := decodeProtobufBody(body, sub.Kind, "", builtin.Definition(sub.Def))
		if err != nil {
			return nil, err
		}
		return jsonx.Marshal(obj)
	case mediaYAML:
		j, err := yaml.YAMLToJSON(body)
		if err != nil {
			return nil, unrecognized(err)
		}
		return j, nil
	}
	return body, nil
}
