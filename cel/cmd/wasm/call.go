package main

import (
	"fmt"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// call is cel.Dispatch with a panic turned into the call's error.
func call(e cel.Engine, method string, req []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cel: %s panicked: %v", method, r)
		}
	}()
	return cel.Dispatch(e, method, req)
}
