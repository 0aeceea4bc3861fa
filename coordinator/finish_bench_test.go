package coordinator_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// BenchmarkFinishList completes the last task of a three-task list, which
// writes the list and archives it, in a workspace that already holds 10,
// 1,000 or 10,000 archives (and their index entries, as the library leaves
// them). Finishing a list must not cost more as archives pile up.
func BenchmarkFinishList(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("archives=%d", n), func(b *testing.B) {
			list, _, root := openList(b, nil)
			for i := range n {
				addArchive(b, root, fixedNow.Add(-time.Duration(i+1)*time.Minute),
					strings.Replace(lastTaskInProgress, "note b", fmt.Sprintf("note b of list %d", i), 1))
			}
			// One list finished before the timer: whatever the first
			// archive of a workspace does once is not what is measured.
			finishOnce(b, list, root, "warm-up")
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				filetest.Write(b, root, activeFile, lastTaskInProgress)
				b.StartTimer()
				// A note of its own, so that no list is another's twin.
				finishOnce(b, list, root, fmt.Sprintf("last note %d", i))
			}
		})
	}
}

// finishOnce completes the list's last task and removes the archive it made
// with the timer stopped, so that the next archive's name is free again.
func finishOnce(b *testing.B, list *coordinator.List, root, note string) {
	if _, ok := readFile(b, root, activeFile); !ok {
		filetest.Write(b, root, activeFile, lastTaskInProgress)
	}
	done, err := list.Complete(bg, note, coordinator.CompleteOptions{})
	require.NoError(b, err)
	require.NotEmpty(b, done.ArchivedTo)
	b.StopTimer()
	require.NoError(b, os.Remove(filepath.Join(root, filepath.FromSlash(done.ArchivedTo))))
	b.StartTimer()
}

// addArchive writes an archive of text made at when, with the index entry
// the library writes for it (see the package documentation).
func addArchive(b *testing.B, root string, when time.Time, text string) {
	base := archiveDir + "/active-" + when.UTC().Format("2006-01-02-150405")
	filetest.Write(b, root, base+".md", text)
	sum := sha256.Sum256([]byte(text))
	filetest.Write(b, root, ".taskmd/archives/"+hex.EncodeToString(sum[:]), base+"\n")
}
