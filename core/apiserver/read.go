package apiserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/selector"
	"github.com/kubesandbox/kubesandbox/core/store"
)

func (q *request) get() error {
	if q.ri.subresource == "scale" {
		return q.getScale()
	}
	if err := q.waitForRV(q.query.Get("resourceVersion")); err != nil {
		return err
	}
	var obj object
	var err error
	if q.servesStored() {
		var done bool
		if done, obj, err = q.getStored(); done {
			return err
		}
	} else if obj, err = q.current(); err != nil {
		return err
	}
	return q.respond(http.StatusOK, obj)
}

// waitForRV implements "not older than" for a future resourceVersion: wait
// a little for the store to catch up, then 504 as kube-apiserver does.
func (q *request) waitForRV(rv string) error {
	if rv == "" || rv == "0" {
		return nil
	}
	n, ok := parseRV(rv)
	if !ok {
		// the storage's plain error reaches the client as a 500 without a reason
		return apierr.Unknown(rvError(rv))
	}
	if store.Revision(n) <= q.s.store.Rev() {
		return nil
	}
	ctx, cancel := context.WithTimeout(q.r.Context(), 3*time.Second)
	defer cancel()
	if q.s.store.WaitForRev(ctx, store.Revision(n)) == nil {
		return nil
	}
	e := apierr.Timeout(fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", n, q.s.store.Rev()), 1)
	e.Details.Causes = []apierr.Cause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}}
	return e
}

// listOptions are the parsed list/watch parameters.
type listOptions struct {
	labels            selector.Labels
	fields            selector.Fields
	rv                string
	rvMatch           string
	limit             int
	cont              *continueToken
	contRaw           string
	watch             bool
	timeout           int
	bookmarks         bool
	sendInitialEvents *bool
}

func (q *request) listOptions() (listOptions, error) {
	var o listOptions
	var err error
	if o.labels, err = selector.ParseLabels(q.query.Get("labelSelector")); err != nil {
		return o, apierr.BadRequest(err.Error())
	}
	if o.fields, err = selector.ParseFields(q.query.Get("fieldSelector")); err != nil {
		return o, apierr.BadRequest(err.Error())
	}
	if err := o.fields.Check(func(f string) bool { return fieldSupported(q.res, f) }); err != nil {
		return o, apierr.BadRequest(err.Error())
	}
	o.rv = q.query.Get("resourceVersion")
	o.rvMatch = q.query.Get("resourceVersionMatch")
	if l := q.query.Get("limit"); l != "" {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			return o, apierr.BadRequest(err.Error())
		}
		if n > 0 {
			o.limit = int(n)
		}
	}
	o.contRaw = q.query.Get("continue")
	o.watch = q.ri.verb == "watch"
	if t := q.query.Get("timeoutSeconds"); t != "" {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return o, apierr.BadRequest(err.Error())
		}
		o.timeout = int(n)
	}
	o.bookmarks = isTrue(q.query.Get("allowWatchBookmarks"))
	if v, ok := q.query["sendInitialEvents"]; ok && len(v) > 0 {
		b := isTrue(v[0])
		o.sendInitialEvents = &b
	}
	errs := validateListOptions(o)
	if len(errs) > 0 {
		return o, apierr.Invalid(apierr.GK{Group: "meta.k8s.io", Kind: "ListOptions"}, "", errs)
	}
	if o.contRaw != "" {
		tok, err := decodeContinue(o.contRaw)
		if err != nil {
			return o, apierr.BadRequestf("invalid continue token: %v", err)
		}
		if o.rv != "" && o.rv != "0" {
			return o, apierr.BadRequest("specifying resource version is not allowed when using continue")
		}
		o.cont = tok
	}
	if o.rv != "" {
		if _, ok := parseRV(o.rv); !ok {
			if o.watch {
				return o, apierr.Unknown(rvError(o.rv))
			}
			return o, apierr.BadRequestf("invalid resource version: %s", rvError(o.rv))
		}
	}
	return o, nil
}

// fieldSupported: metadata.name, metadata.namespace (namespaced only) and
// the resource's selectable fields.
func fieldSupported(res *resource.Resource, f string) bool {
	if f == "metadata.name" || (f == "metadata.namespace" && res.Namespaced) {
		return true
	}
	return hasString(res.SelectableFields, f)
}

// fieldValue reads a selectable field as a string.
func fieldValue(obj object, f string) (string, bool) {
	v, ok := nested(obj, strings.Split(f, ".")...)
	if !ok {
		return "", true
	}
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case nil:
		return "", true
	}
	return fmt.Sprint(v), true
}

// matcher returns the selector predicate over stored objects.
func (o listOptions) matcher(res *resource.Resource) func(object) bool {
	if o.labels.Empty() && o.fields.Empty() {
		return nil
	}
	return func(obj object) bool {
		if !o.labels.Matches(labelsOf(obj)) {
			return false
		}
		return o.fields.Matches(func(f string) (string, bool) { return fieldValue(obj, f) })
	}
}

// continueToken is the real server's token: base64 of
// {"v":"meta.k8s.io/v1","rv":N,"start":"<key after the prefix>\u0000"}.
// rv -1 (handed out by the real server when a snapshot was compacted) means
// "continue at the latest revision".
type continueToken struct {
	V     string `json:"v"`
	RV    int64  `json:"rv"`
	Start string `json:"start"`
}

// decodeContinue is apiserver's storage.DecodeContinue, with its error
// texts; the start key must be path.Clean (no "..", ".", "//").
func decodeContinue(s string) (*continueToken, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("continue key is not valid: %v", err)
	}
	var t continueToken
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("continue key is not valid: %v", err)
	}
	if t.V != "meta.k8s.io/v1" {
		return nil, fmt.Errorf("continue key is not valid: server does not recognize this encoded version %v", t.V)
	}
	if t.RV == 0 {
		return nil, fmt.Errorf("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if t.Start == "" {
		return nil, fmt.Errorf("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")
	}
	key := t.Start
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if path.Clean(key) != key {
		return nil, fmt.Errorf("continue key is not valid: %v", t.Start)
	}
	t.Start = key[1:]
	return &t, nil
}

func encodeContinue(rv store.Revision, start string) string {
	b, _ := json.Marshal(continueToken{V: "meta.k8s.io/v1", RV: int64(rv), Start: start})
	return base64.RawURLEncoding.EncodeToString(b)
}

func (q *request) list() error {
	o, err := q.listOptions()
	if err != nil {
		return err
	}
	prefix := storagePrefix(q.res, q.ri.namespace)
	var rev store.Revision
	from := ""
	switch {
	case o.cont != nil:
		if o.cont.RV > 0 { // < 0: latest
			rev = store.Revision(o.cont.RV)
		}
		from = prefix + o.cont.Start
	case o.rvMatch == "Exact", o.rvMatch == "" && o.limit > 0 && o.rv != "" && o.rv != "0": // the second: legacy exact
		n, _ := parseRV(o.rv)
		rev = store.Revision(n)
	default:
		if err := q.waitForRV(o.rv); err != nil {
			return err
		}
	}
	match := o.matcher(q.res)
	var filter func(store.KV) bool
	if match != nil {
		filter = func(kv store.KV) bool {
			obj, err := q.decodeStored(kv)
			return err == nil && match(obj)
		}
	}
	kvs, readRev, remaining, err := q.s.store.List(prefix, from, rev, filter, o.limit)
	if err == store.ErrCompacted {
		if o.cont != nil {
			return apierr.Expired("The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.")
		}
		return apierr.Expired("The resourceVersion for the provided list is too old.") // etcd3 storage serves exact lists
	}
	if err == store.ErrFutureRevision {
		e := apierr.Timeout(fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", rev, q.s.store.Rev()), 1)
		e.Details.Causes = []apierr.Cause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}}
		return e
	}
	if err != nil {
		return err
	}
	lm := pageMeta(q, kvs, readRev, remaining, match == nil, prefix)
	if q.canWriteRawList() {
		return q.writeRawList(kvs, lm)
	}
	if q.protoStored() {
		if done, err := q.writeProtoList(kvs, lm); done {
			return err
		}
	}
	items := make([]any, 0, len(kvs))
	for _, kv := range kvs {
		obj, err := q.decodeStored(kv)
		if err != nil {
			return err
		}
		items = append(items, obj)
	}
	return q.respondList(items, lm)
}

// pageMeta is the ListMeta of a (page of a) list.
func pageMeta(q *request, kvs []store.KV, readRev store.Revision, remaining int, unfiltered bool, prefix string) map[string]any {
	lm := map[string]any{"resourceVersion": strconv.FormatInt(int64(readRev), 10)}
	if remaining > 0 && len(kvs) > 0 {
		lm["continue"] = encodeContinue(readRev, strings.TrimPrefix(kvs[len(kvs)-1].Key, prefix)+"\x00")
		if unfiltered {
			lm["remainingItemCount"] = int64(remaining)
		}
	} else if q.res.CRD {
		lm["continue"] = ""
	}
	return lm
}

// respondList writes a list. Built-in lists, like typed lists, carry no
// apiVersion/kind on their items.
func (q *request) respondList(items []any, lm map[string]any) error {
	if !q.res.CRD {
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				delete(m, "apiVersion")
				delete(m, "kind")
			}
		}
	}
	return q.respond(http.StatusOK, object{
		"apiVersion": q.res.GroupVersion(), "kind": q.res.ListKind, "metadata": lm, "items": items,
	})
}

// current is the request's object as stored now, decoded; its NotFound
// (or other store error) as the Status a GET answers.
func (q *request) current() (object, error) {
	kv, _, err := q.s.store.Get(q.key(), 0)
	if err != nil {
		return nil, storeErr(err, q.gr(), q.ri.name)
	}
	return q.decodeStored(kv)
}

// validateListOptions is apimachinery's ValidateListOptions (the WatchList
// feature on): a list and a watch allow different combinations.
func validateListOptions(o listOptions) field.ErrorList {
	var errs field.ErrorList
	rvm := field.NewPath("resourceVersionMatch")
	if o.watch {
		if o.sendInitialEvents != nil && o.rvMatch != "NotOlderThan" {
			errs = append(errs, field.Forbidden(rvm, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if o.rvMatch != "" {
			if o.sendInitialEvents == nil {
				errs = append(errs, field.Forbidden(rvm, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
			}
			if o.rvMatch != "NotOlderThan" {
				errs = append(errs, field.NotSupported(rvm, o.rvMatch, []string{"NotOlderThan"}))
			}
			if o.contRaw != "" {
				errs = append(errs, field.Forbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
			}
		}
		return errs
	}
	if o.rvMatch != "" {
		if o.rv == "" {
			errs = append(errs, field.Forbidden(rvm, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if o.contRaw != "" {
			errs = append(errs, field.Forbidden(rvm, "resourceVersionMatch is forbidden when continue is provided"))
		}
		if o.rvMatch != "Exact" && o.rvMatch != "NotOlderThan" {
			errs = append(errs, field.NotSupported(rvm, o.rvMatch, []string{"Exact", "NotOlderThan", ""}))
		}
		if o.rvMatch == "Exact" && o.rv == "0" {
			errs = append(errs, field.Forbidden(rvm, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""))
		}
	}
	if o.sendInitialEvents != nil {
		errs = append(errs, field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for list"))
	}
	return errs
}
