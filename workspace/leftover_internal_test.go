package workspace

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLockedWriteReplacesItsLeftover: a crash left the temporary file of a
// locked write behind (junk, or a symbolic link planted there); the next
// write of the name removes it in its way, never writing through the link,
// and leaves no temporary file.
// Both ways of writing are checked: the general one and, where there is
// one, the fast one (fastReplace).
func TestLockedWriteReplacesItsLeftover(t *testing.T) {
	for _, general := range []bool{false, true} {
		t.Run(map[bool]string{false: "fast", true: "general"}[general], func(t *testing.T) {
			lockedWriteReplacesItsLeftover(t, general)
		})
	}
}

func lockedWriteReplacesItsLeftover(t *testing.T, general bool) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	victim := filepath.Join(root, "docs", "victim.md")
	require.NoError(t, os.WriteFile(victim, []byte("# Victim\n"), 0o644))
	ws, err := Open(root)
	require.NoError(t, err)
	defer ws.Close()
	if general {
		withoutFastPaths(ws)
	}
	ctx := context.Background()
	leftover := filepath.Join(root, filepath.FromSlash(lockedTempName("docs/a.md")))

	require.NoError(t, os.WriteFile(leftover, []byte("half a write"), 0o644))
	require.NoError(t, ws.rewrite(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil }))
	assert.NoFileExists(t, leftover)

	require.NoError(t, os.Symlink("victim.md", leftover))
	require.NoError(t, ws.rewrite(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A, again\n"), nil }))
	assert.NoFileExists(t, leftover)
	got, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "# Victim\n", string(got), "the link was removed, not written through")
	got, err = os.ReadFile(filepath.Join(root, "docs", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "# A, again\n", string(got))
	entries, err := os.ReadDir(filepath.Join(root, "docs"))
	require.NoError(t, err)
	assert.Len(t, entries, 2, "a.md and victim.md, no temporary file")

	// An empty folder at the temporary name goes too.
	require.NoError(t, os.Mkdir(leftover, 0o755))
	require.NoError(t, ws.rewrite(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A, third\n"), nil }))
	assert.NoFileExists(t, leftover)
	assert.NoDirExists(t, leftover)
	got, err = os.ReadFile(filepath.Join(root, "docs", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "# A, third\n", string(got))
}

// withoutFastPaths makes ws read and write the general way only.
func withoutFastPaths(ws *Workspace) {
	if ws.dir != nil {
		ws.dir.Close()
		ws.dir = nil
	}
}
