package benchsuite

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// onAllCores runs fn on each of files on GOMAXPROCS goroutines.
func onAllCores(files []string, fn func(name string) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				if err := fn(files[i]); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}
