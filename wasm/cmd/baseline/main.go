//go:build js && wasm

// Command baseline is the smallest Go program that speaks the worker
// protocol: net/http's ServeMux behind wasm/jsglue, answering /version
// with a fixed body. `make bench-browser` serves it from the same
// sandbox.js, sw.js and worker.js as the real core, so that its start-up
// and latency are the baseline the core's are divided by (the issue's
// "cold start ≤ 1.5× a trivial Go wasm in the same setup").
package main

import (
	"errors"
	"net/http"

	"github.com/kubesandbox/kubesandbox/wasm/jsglue"
)

const version = `{"major":"1","minor":"32","gitVersion":"v1.32.0-baseline","platform":"js/wasm"}`

func main() {
	jsglue.MarkMain()
	mux := http.NewServeMux()
	mux.HandleFunc("/version", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(version))
	})
	quit := make(chan struct{})
	release := jsglue.Install(mux, func(op, arg string) (any, error) {
		if op == "shutdown" || op == "open" { // "open": the worker's sandbox (one mux answers every one)
			return nil, nil
		}
		return nil, errors.New("baseline: only open and shutdown are supported")
	}, func() { close(quit) })
	defer release()
	jsglue.Ready("")
	<-quit
}
