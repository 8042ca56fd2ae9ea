package builtin

import "encoding/json"

func marshalNumber(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
