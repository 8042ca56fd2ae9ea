package apiserver

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/schema"
)

const (
	mediaJSON     = "application/json"
	mediaYAML     = "application/yaml"
	mediaProtobuf = "application/vnd.kubernetes.protobuf"
	maxBodyBytes  = 3 * 1024 * 1024
)

var servedMediaTypes = []string{mediaJSON, mediaYAML, mediaProtobuf}

// output is the negotiated response form.
type output struct {
	media string // mediaJSON, mediaYAML or mediaProtobuf
	// proto is the schema of the objects of a protobuf answer (lists and
	// Status are derived from it: protobuf.EncodeResponse)
	proto *schema.Schema
	table bool // as=Table;g=meta.k8s.io;v=v1
	// partial: "PartialObjectMetadata" or "PartialObjectMetadataList"
	// (as=...;g=meta.k8s.io;v=v1): metadata only
	partial string
	// metaVersion is the meta.k8s.io version of a Table or partial answer:
	// v1 or v1beta1
	metaVersion string
	// includeObject for tables: None, Metadata (default), Object
	includeObject string
}

// negotiate reads the Accept header. A list that allows JSON falls back to
// JSON; one that allows nothing we serve is 406. proto is the schema of
// the endpoint's objects when they can be answered as protobuf (built-in
// kinds, and any Scale), nil for JSON only (custom resources): then
// protobuf is skipped as kube-apiserver skips it. PartialObjectMetadata
// is served as protobuf for every resource; Table never is.
func negotiate(r *http.Request, proto *schema.Schema) (output, error) {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return output{media: mediaJSON}, nil
	}
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "*/*", "application/*", mediaJSON, "application/json-patch+json", mediaYAML:
			metaV := params["v"]
			metaOK := params["g"] == "meta.k8s.io" && (metaV == "v1" || metaV == "v1beta1")
			switch params["as"] {
			case "Table":
				if metaOK {
					return output{media: mediaJSON, table: true, metaVersion: metaV, includeObject: r.URL.Query().Get("includeObject")}, nil
				}
				continue
			case "PartialObjectMetadata", "PartialObjectMetadataList":
				if !metaOK {
					continue
				}
				media := mediaJSON
				if mt == mediaYAML {
					media = mediaYAML
				}
				return output{media: media, partial: params["as"], metaVersion: metaV}, nil
			}
			if params["as"] != "" {
				continue
			}
			if mt == mediaYAML {
				return output{media: mediaYAML}, nil
			}
			return output{media: mediaJSON}, nil
		case mediaProtobuf:
			switch as := params["as"]; as {
			case "":
				if proto != nil {
					return output{media: mediaProtobuf, proto: proto}, nil
				}
			case "PartialObjectMetadata", "PartialObjectMetadataList":
				if v := params["v"]; params["g"] == "meta.k8s.io" && (v == "v1" || v == "v1beta1") {
					return output{media: mediaProtobuf, partial: as, metaVersion: v}, nil
				}
			}
		}
	}
	return output{}, apierr.NotAcceptable(servedMediaTypes)
}

// readBody reads a request body up to the limit.
func readBody(r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return nil, apierr.BadRequest(err.Error())
	}
	if len(b) > maxBodyBytes {
		return nil, apierr.RequestEntityTooLarge("limit is 3145728")
	}
	return b, nil
}

// contentType returns the request's media type ("" if none).
func contentType(r *http.Request) string {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct
	}
	return mt
}

// decodeObject turns a create/update body into an object. kind is the
// expected kind, for the error message. Errors read as the real decoder's
// passed through transformDecodeError:
//
//	YAML that does not parse  the object provided is unrecognized (must be of type ConfigMap): yaml: ... (<summary>)
//	JSON without apiVersion/kind strings
//	                          the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { ... } (5b5d)
func decodeObject(r *http.Request, body []byte, res *resource.Resource) (object, error) {
	kind, crd := res.Kind, res.CRD
	unrecognized := func(err error) error {
		return apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", kind, err, summarize(body)))
	}
	data := body
	switch ct := contentType(r); ct {
	case "", mediaJSON:
	case mediaYAML:
		j, err := yaml.YAMLToJSON(body)
		if err != nil {
			return nil, unrecognized(err)
		}
		data = j
	case mediaProtobuf:
		if crd || res.SchemaOf() == nil {
			return nil, apierr.UnsupportedMediaType(ct, []string{mediaJSON, mediaYAML})
		}
		return decodeProtobufBody(body, kind, res.Version, res.SchemaOf())
	default: // the custom resource handler lists protobuf too
		return nil, apierr.UnsupportedMediaType(ct, []string{mediaJSON, mediaYAML, mediaProtobuf})
	}
	// One parse; the find-kind probe runs only when its error text is
	// needed: the body does not decode, or an apiVersion/kind member (which
	// encoding/json matches case-insensitively) holds a non-string — the
	// only cases in which the probe fails.
	obj, err := jsonx.DecodeObject(data)
	if err == nil && kindMembersAreStrings(obj) {
		if k, _ := obj["kind"].(string); k == "" && crd {
			return nil, unrecognized(missingKind(body))
		}
		return obj, nil
	}
	if perr := probeKind(data); perr != nil {
		return nil, unrecognized(fmt.Errorf("couldn't get version/kind; json parse error: %v", perr))
	}
	if crd && bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		// the unstructured decoder reads null as an empty object
		return nil, unrecognized(missingKind(body))
	}
	if err == nil { // cannot happen (see above); keep the object
		return obj, nil
	}
	return nil, unrecognized(fmt.Errorf("couldn't get version/kind; json parse error: %v", err))
}

// missingKind is the unstructured decoder's error for a custom resource
// body without a kind (runtime.NewMissingKindErr), quoting the body as sent.
func missingKind(body []byte) error {
	return fmt.Errorf("Object 'Kind' is missing in '%s'", body)
}

// decodeProtobufBody decodes a protobuf body of kind (whose schema is s,
// served at version) with the real server's error texts:
//
//	the object provided is unrecognized (must be of type Scale): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (7b7d)
//	Scale in version "v1" cannot be handled as a Scale: unexpected EOF
func decodeProtobufBody(body []byte, kind, version string, s *schema.Schema) (object, error) {
	u, err := protobuf.DecodeEnvelope(body)
	if err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", kind, err, summarize(body)))
	}
	obj, err := u.Decode(s)
	if err != nil { // the real transformDecodeError wording once the envelope gave a GVK
		k, v := u.Kind, u.APIVersion[strings.LastIndexByte(u.APIVersion, '/')+1:]
		if k == "" {
			k = kind
		}
		if v == "" {
			v = version
		}
		return nil, apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", k, v, kind, err))
	}
	return obj, nil
}

// checkMetadataType fails, as the real decoders do, when metadata is
// present but neither an object nor null (otherwise it would later be
// replaced by an empty object and the request judged on that):
//
//	ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.metadata of type v1.ObjectMeta
//	Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal array into Go value of type v1.ObjectMeta
//
// (built-ins decode into their Go type; custom resources decode metadata
// on its own, in apiextensions' GetObjectMeta).
func checkMetadataType(res *resource.Resource, obj object) error {
	md, found := obj["metadata"]
	if !found || md == nil {
		return nil
	}
	var what string
	switch md.(type) {
	case map[string]any:
		return nil
	case []any:
		what = "array"
	case string:
		what = "string"
	case bool:
		what = "bool"
	default:
		what = "number"
	}
	kind, version := res.Kind, res.Version
	if k, ok := obj["kind"].(string); ok && k != "" {
		kind = k
	}
	if av, ok := obj["apiVersion"].(string); ok && av != "" {
		version = av[strings.LastIndexByte(av, '/')+1:]
	}
	target := "Go struct field " + res.Kind + ".metadata"
	if res.CRD {
		target = "Go value"
	}
	return apierr.BadRequestf("%s in version %q cannot be handled as a %s: json: cannot unmarshal %s into %s of type v1.ObjectMeta", kind, version, res.Kind, what, target)
}

// probeKind is apimachinery's SimpleMetaFactory.Interpret: the same
// anonymous struct, so that encoding/json's message names the same type.
func probeKind(data []byte) error {
	findKind := struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}{}
	return json.Unmarshal(data, &findKind)
}

// kindMembersAreStrings: every top-level member whose name equals
// "apiVersion" or "kind" ignoring case is a string or null.
func kindMembersAreStrings(obj map[string]any) bool {
	for k, v := range obj {
		if len(k) != 4 && len(k) != 10 {
			continue
		}
		if !strings.EqualFold(k, "kind") && !strings.EqualFold(k, "apiVersion") {
			continue
		}
		switch v.(type) {
		case string, nil:
		default:
			return false
		}
	}
	return true
}

// summarize shortens a body for error messages as the real server's
// summarizeData does: JSON objects as text, anything else in hex.
func summarize(b []byte) string {
	const max = 30
	switch {
	case len(b) == 0:
		return "<empty>"
	case b[0] == '{':
		if len(b) > max {
			return string(b[:max]) + " ..."
		}
		return string(b)
	default:
		if len(b) > max {
			return hex.EncodeToString(b[:max]) + " ..."
		}
		return hex.EncodeToString(b)
	}
}

// writeObject writes v with status code in the negotiated form.
func writeObject(w http.ResponseWriter, code int, out output, v any) {
	if out.media == mediaProtobuf {
		b, err := encodeProtobuf(v, out.proto)
		if err != nil {
			writeError(w, apierr.Internal(err))
			return
		}
		w.Header().Set("Content-Type", mediaProtobuf)
		w.WriteHeader(code)
		w.Write(b)
		return
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		writeError(w, err)
		return
	}
	ct := mediaJSON
	if out.media == mediaYAML {
		if y, err := yaml.JSONToYAML(b); err == nil {
			b, ct = y, mediaYAML
		}
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(code)
	w.Write(b)
}

// writeError writes err as a Status: the only place where errors reach the
// wire.
func writeError(w http.ResponseWriter, err error) {
	st := apierr.ToStatus(err)
	b, _ := jsonx.Marshal(st)
	retryAfter(w, st)
	w.Header().Set("Content-Type", mediaJSON)
	w.WriteHeader(st.Code)
	w.Write(b)
}

// writeErrorAs writes err as a Status in the negotiated form: protobuf
// or YAML when the answer would have been, else JSON.
func writeErrorAs(w http.ResponseWriter, out output, err error) {
	errorWarnings(w, err)
	switch out.media {
	case mediaProtobuf:
		writeErrorProtobuf(w, err)
	case mediaYAML: // ErrorNegotiated: the Status in the answer's media type
		st := apierr.ToStatus(err)
		writeObject(w, st.Code, output{media: mediaYAML}, st)
	default:
		writeError(w, err)
	}
}

// writeErrorProtobuf writes a Status in the Kubernetes protobuf envelope,
// as the real server does when the client accepts only protobuf.
func writeErrorProtobuf(w http.ResponseWriter, err error) {
	st := apierr.ToStatus(err)
	b, perr := encodeProtobuf(st, nil)
	if perr != nil { // cannot happen: a Status always encodes
		writeError(w, err)
		return
	}
	retryAfter(w, st)
	w.Header().Set("Content-Type", mediaProtobuf)
	w.WriteHeader(st.Code)
	w.Write(b)
}

// encodeProtobuf encodes an answer (an object, list or Status) as a
// protobuf body; s is the schema of its objects.
func encodeProtobuf(v any, s *schema.Schema) ([]byte, error) {
	m, ok := v.(map[string]any)
	if !ok { // a Go value (apierr.Status): through its JSON
		b, err := jsonx.Marshal(v)
		if err != nil {
			return nil, err
		}
		if m, err = jsonx.DecodeObject(b); err != nil {
			return nil, err
		}
	}
	return protobuf.EncodeResponse(m, s)
}

// protoSchema is the schema of the objects an endpoint answers when they
// can be protobuf: a built-in kind's own schema (main resource, status),
// autoscaling/v1 Scale for any scale subresource, a kind's own
// subresource's declared body; nil for JSON only.
func protoSchema(res *resource.Resource, sub string) *schema.Schema {
	var s *schema.Schema
	switch {
	case sub == "scale":
		s = builtin.Definition("io.k8s.api.autoscaling.v1.Scale")
	case sub == "" || sub == "status":
		if !res.CRD {
			s = res.SchemaOf()
		}
	default:
		if own := ownSubresource(res, sub); own != nil && own.Def != "" {
			s = builtin.Definition(own.Def)
		}
	}
	if !protobuf.Encodable(s) {
		return nil
	}
	return s
}

// acceptsOnlyProtobuf reports an Accept header naming protobuf and nothing
// we serve.
func acceptsOnlyProtobuf(r *http.Request) bool {
	a := r.Header.Get("Accept")
	return strings.Contains(a, mediaProtobuf) && !strings.Contains(a, "json") && !strings.Contains(a, "yaml") && !strings.Contains(a, "*/*")
}

// retryAfter sets the Retry-After header of a Status that asks the client
// to wait (ErrorNegotiated: a 429 of a disruption budget, a 504 Timeout).
func retryAfter(w http.ResponseWriter, st apierr.Status) {
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(st.Details.RetryAfterSeconds)))
	}
}
