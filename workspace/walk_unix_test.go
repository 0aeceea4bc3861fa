//go:build unix

package workspace

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// A *.md name that is not a regular file is reported, not skipped, and
// Walk never opens it: opening a named pipe would wait for a writer.
func TestWalkReportsNonRegularFiles(t *testing.T) {
	tests := []struct {
		name string
		make func(path string) (cleanup func(), err error)
	}{
		{"docs/fifo.md", func(p string) (func(), error) { return func() {}, syscall.Mkfifo(p, 0o644) }},
		{"docs/socket.md", func(p string) (func(), error) {
			l, err := net.Listen("unix", p)
			if err != nil {
				return nil, err
			}
			return func() { l.Close() }, nil
		}},
		{"docs/device.md", func(p string) (func(), error) {
			return func() {}, syscall.Mknod(p, syscall.S_IFCHR|0o644, 0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := newWorkspace(t)
			writeFile(t, root, "docs/a.md", []byte("# A\n"))
			cleanup, err := tt.make(filepath.Join(root, filepath.FromSlash(tt.name)))
			if err != nil {
				t.Skipf("cannot make %s here: %v", tt.name, err)
			}
			defer cleanup()

			done := make(chan []visit, 1)
			go func() {
				var got []visit
				err := ws.Walk(context.Background(), "docs", func(name string, doc *taskdoc.Document, err error) error {
					got = append(got, visit{name: name, code: taskdoc.CodeOf(err)})
					if name == tt.name {
						assert.Nil(t, doc)
						assert.ErrorContains(t, err, "not a regular file")
					}
					return nil
				})
				assert.NoError(t, err)
				done <- got
			}()
			select {
			case got := <-done:
				assert.Equal(t, []visit{{name: "docs/a.md"}, {name: tt.name, code: taskdoc.CodeIO}}, got)
			case <-time.After(5 * time.Second):
				t.Fatal("Walk waits on the file")
			}
			_, err = os.Lstat(filepath.Join(root, filepath.FromSlash(tt.name)))
			require.NoError(t, err, "the file is left alone")
		})
	}
}
