package jsglue

import "sync/atomic"

// Requests are served on goroutines kept from earlier requests: a new
// goroutine starts on a 2 KB stack and a request through the core grows
// it several times (each growth copies the stack), on every request. An
// idle server goroutine keeps its grown stack until the GC shrinks it.
//
//	goServe(f) // runs f on an idle server goroutine, or a new one
var (
	jobs    = make(chan func()) // unbuffered: a send succeeds only to a waiting goroutine
	idle    atomic.Int32        // goroutines waiting on jobs
	maxIdle = int32(8)          // more than this many idle goroutines end
)

// goServe runs f on its own goroutine, as `go f()` does; f must not panic
// (bridge.Serve recovers the handler's panics).
func goServe(f func()) {
	select {
	case jobs <- f:
	default:
		go server(f)
	}
}

// server runs f, then waits for more while at most maxIdle others wait.
func server(f func()) {
	for {
		f()
		f = nil // an idle goroutine keeps no request (nor its JS sink) alive
		if idle.Add(1) > maxIdle {
			idle.Add(-1)
			return
		}
		f = <-jobs
		idle.Add(-1)
	}
}
