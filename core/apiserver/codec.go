package apiserver

import (
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
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/resource"
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
	media string // mediaJSON or mediaYAML
	table bool   // as=Table;g=meta.k8s.io;v=v1
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
// JSON; one that allows nothing we serve is 406.
func negotiate(r *http.Request) (output, error) {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return output{media: mediaJSON}, nil
	}
	protobufOnly := false
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
			protobufOnly = true
		}
	}
	_ = protobufOnly
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
		if crd || res.Schema == nil {
			return nil, apierr.UnsupportedMediaType(ct, []string{mediaJSON, mediaYAML})
		}
		u, err := protobuf.DecodeEnvelope(body)
		if err != nil {
			return nil, unrecognized(err)
		}
		obj, err := u.Decode(res.Schema)
		if err != nil { // the real transformDecodeError wording once the envelope gave a GVK
			k, v := u.Kind, u.APIVersion[strings.LastIndexByte(u.APIVersion, '/')+1:]
			if k == "" {
				k = kind
			}
			if v == "" {
				v = res.Version
			}
			return nil, apierr.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", k, v, kind, err))
		}
		return obj, nil
	default:
		types := []string{mediaJSON, mediaYAML}
		if !crd {
			types = append(types, mediaProtobuf)
		}
		return nil, apierr.UnsupportedMediaType(ct, types)
	}
	// One parse; the find-kind probe runs only when its error text is
	// needed: the body does not decode, or an apiVersion/kind member (which
	// encoding/json matches case-insensitively) holds a non-string — the
	// only cases in which the probe fails.
	obj, err := jsonx.DecodeObject(data)
	if err == nil && kindMembersAreStrings(obj) {
		return obj, nil
	}
	if perr := probeKind(data); perr != nil {
		return nil, unrecognized(fmt.Errorf("couldn't get version/kind; json parse error: %v", perr))
	}
	if err == nil { // cannot happen (see above); keep the object
		return obj, nil
	}
	return nil, unrecognized(fmt.Errorf("couldn't get version/kind; json parse error: %v", err))
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

// writeJSON writes v with status code in the negotiated form.
func writeObject(w http.ResponseWriter, code int, out output, v any) {
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

// writeErrorProtobuf writes a Status in the Kubernetes protobuf envelope,
// as the real server does when the client accepts only protobuf.
func writeErrorProtobuf(w http.ResponseWriter, err error) {
	st := apierr.ToStatus(err)
	var status []byte
	status = pbBytes(status, 1, pbBytes(pbBytes(pbBytes(nil, 1, nil), 2, nil), 3, nil))
	status = pbBytes(status, 2, []byte(st.Status))
	status = pbBytes(status, 3, []byte(st.Message))
	status = pbBytes(status, 4, []byte(st.Reason))
	status = pbVarint(status, 6, uint64(st.Code))
	var unknown []byte
	unknown = pbBytes(unknown, 1, pbBytes(pbBytes(nil, 1, []byte("v1")), 2, []byte("Status")))
	unknown = pbBytes(unknown, 2, status)
	unknown = pbBytes(unknown, 3, nil)
	unknown = pbBytes(unknown, 4, nil)
	retryAfter(w, st)
	w.Header().Set("Content-Type", mediaProtobuf)
	w.WriteHeader(st.Code)
	w.Write(append([]byte("k8s\x00"), unknown...))
}

func pbVarint(b []byte, field int, v uint64) []byte {
	b = appendUvarint(b, uint64(field<<3))
	return appendUvarint(b, v)
}

func pbBytes(b []byte, field int, v []byte) []byte {
	b = appendUvarint(b, uint64(field<<3|2))
	b = appendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
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
