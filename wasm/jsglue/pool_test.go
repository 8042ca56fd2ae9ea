package jsglue

import (
	"sync"
	"testing"
)

// TestGoServe: every job runs, however many are in flight at once (each
// blocks until all have started, so none waits for an idle goroutine), and
// at most maxIdle goroutines stay waiting afterwards.
func TestGoServe(t *testing.T) {
	for _, n := range []int{1, 3, 50} {
		t.Run("", func(t *testing.T) {
			var started, done sync.WaitGroup
			started.Add(n)
			done.Add(n)
			release := make(chan struct{})
			for i := 0; i < n; i++ {
				goServe(func() {
					started.Done()
					<-release
					done.Done()
				})
			}
			started.Wait()
			close(release)
			done.Wait()
			if got := idle.Load(); got > maxIdle {
				t.Errorf("%d idle goroutines, want at most %d", got, maxIdle)
			}
		})
	}
	t.Run("an idle goroutine takes the next job", func(t *testing.T) {
		for i := 0; i < 100; i++ {
			ran := make(chan struct{})
			goServe(func() { close(ran) })
			<-ran
		}
	})
}
