//go:build linux

package workspace

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// dirent is one linux_dirent64 record, padded to 8 bytes as the kernel
// pads it.
func dirent(name string, typ byte) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	rec := make([]byte, n)
	binary.NativeEndian.PutUint64(rec, 1)
	binary.NativeEndian.PutUint16(rec[16:], uint16(n))
	rec[18] = typ
	copy(rec[19:], name)
	return rec
}

// TestListingReadsTypes: the type of each record is the entry's; a file
// system that does not say has the entry examined through the root, and
// one gone meanwhile is left out; the dot entries and a cut record end
// nothing they should not.
func TestListingReadsTypes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a.md"), []byte("# A\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub", "folder"), 0o755))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()

	var buf []byte
	for _, r := range [][]byte{
		dirent(".", unix.DT_DIR), dirent("..", unix.DT_DIR),
		dirent("a.md", unix.DT_UNKNOWN), dirent("folder", unix.DT_UNKNOWN), dirent("gone.md", unix.DT_UNKNOWN),
		dirent("b.md", unix.DT_REG), dirent("l.md", unix.DT_LNK), dirent("p", unix.DT_FIFO),
	} {
		buf = append(buf, r...)
	}
	cut := dirent("cut.md", unix.DT_REG)
	buf = append(buf, cut[:len(cut)-3]...)

	got, err := appendEntries(nil, root, "sub", buf)
	require.NoError(t, err)
	types := map[string]fs.FileMode{}
	for _, e := range got {
		types[e.Name()] = e.Type()
	}
	assert.Equal(t, map[string]fs.FileMode{
		"a.md": 0, "folder": fs.ModeDir, "b.md": 0, "l.md": fs.ModeSymlink, "p": fs.ModeNamedPipe,
	}, types)
	info, err := got[0].Info()
	require.NoError(t, err)
	assert.EqualValues(t, 4, info.Size(), "the entry's information is read through the root")
}
