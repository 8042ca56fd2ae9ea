package fieldmanager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"sigs.k8s.io/yaml"
)

// ParseApplyBody decodes an application/apply-patch+yaml body (YAML or
// JSON) into an object, with int64/float64 numbers. Errors are the real
// server's 400s, e.g.
//
//	error decoding YAML: error converting YAML to JSON: yaml: line 2: found character that cannot start any token
//	error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}
//
// An empty body (or `null`) gives an empty object, which Apply then
// rejects as "invalid object type: /, Kind=".
func ParseApplyBody(b []byte) (map[string]any, error) {
	// The real server unmarshals with sigs.k8s.io/yaml into a
	// map[string]interface{}: do the same to get its exact errors.
	// validateAndTranscodePatch first: YAML (anything not starting with
	// '{') becomes JSON, and a failure there is "error encoding patch".
	if t := bytes.TrimLeftFunc(b, unicode.IsSpace); !bytes.HasPrefix(t, []byte("{")) {
		j, err := yaml.YAMLToJSON(b)
		if err != nil {
			return nil, apierr.BadRequest(fmt.Sprintf("error encoding patch: %v", err))
		}
		b = j
	}
	var probe map[string]any
	if err := yaml.Unmarshal(b, &probe); err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("error decoding YAML: error converting YAML to JSON: %v", err))
	}
	v, err := jsonx.Decode(j)
	if err != nil {
		return nil, apierr.BadRequest(fmt.Sprintf("error decoding YAML: error unmarshaling JSON: while decoding JSON: %v", err))
	}
	switch t := v.(type) {
	case map[string]any:
		return t, nil
	case nil:
		return map[string]any{}, nil
	}
	return nil, apierr.BadRequest("error decoding YAML: error unmarshaling JSON: while decoding JSON: " +
		"json: cannot unmarshal value into Go value of type map[string]interface {}")
}

// encodeHTMLEscaped is json.NewEncoder(w).Encode(v): sorted map keys, HTML
// characters escaped, a trailing newline.
func encodeHTMLEscaped(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
