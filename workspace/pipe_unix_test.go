//go:build unix

package workspace

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file swapped for a named pipe between the look at it and the open must
// not hang the read (and with it the lock an update holds): the open does
// not wait, and the swap is seen as a change.
func TestReadDoesNotHangOnASwappedInPipe(t *testing.T) {
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "docs/a.md", []byte("# A\n"))
	info, err := ws.root.Lstat("docs/a.md")
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, "docs", "a.md")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "docs", "a.md"), 0o644))

	done := make(chan bool, 1)
	go func() {
		_, same, err := ws.readSame("docs/a.md", info)
		assert.NoError(t, err)
		done <- same
	}()
	select {
	case same := <-done:
		assert.False(t, same, "the pipe is not the file examined")
	case <-time.After(5 * time.Second):
		t.Fatal("the read waits for a writer on the pipe")
	}
}
