package benchsuite

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

// bareParse is a goldmark parse of src, without front matter, outline or
// tasks: the parse any reader of Markdown pays, with one parser made once
// (making one costs as much as parsing a small document; a goldmark
// parser serves concurrent parses).
func bareParse(src []byte) {
	bareParser.Parse(text.NewReader(src))
}

var bareParser = goldmark.New().Parser()

// durableWrite writes data to name the way the workspace does at the
// least: a temporary file, fsync, rename, fsync of the folder.
func durableWrite(name string, data []byte) error {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, ".floor-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

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
