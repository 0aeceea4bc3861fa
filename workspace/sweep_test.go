package workspace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// tempName returns a fresh temporary name beside name, with a random
// suffix, as earlier versions named the temporary files of Create.
func tempName(name string) (string, error) {
	var b [tempHexLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	dir, base := path.Split(name)
	return dir + tempPrefix + tempTarget(base) + "-" + hex.EncodeToString(b[:]), nil
}

// crashTemp leaves what a writer of target killed before its rename leaves:
// a temporary file beside target, last changed at mtime. It returns the
// temporary file's root-relative name.
func crashTemp(t testing.TB, root, target string, mtime time.Time) string {
	t.Helper()
	tmp, err := tempName(target)
	require.NoError(t, err)
	writeFile(t, root, tmp, []byte("# half writ"))
	p := filepath.Join(root, filepath.FromSlash(tmp))
	require.NoError(t, os.Chtimes(p, mtime, mtime))
	return tmp
}

// strays seeds dir with temporary files of names nobody writes again: two
// from a crash long ago, one of them in the format of earlier versions, and
// one from a write that may still be running.
func strays(t testing.TB, root, dir string, now time.Time) (old []string, fresh string) {
	t.Helper()
	old = append(old, crashTemp(t, root, dir+"/gone.md", now.Add(-time.Hour)))
	legacy := dir + "/.gone-too.md.tmp-0123456789abcdef"
	writeFile(t, root, legacy, []byte("# half"))
	long := now.Add(-24 * time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(root, filepath.FromSlash(legacy)), long, long))
	old = append(old, legacy)
	return old, crashTemp(t, root, dir+"/busy.md", now)
}

func TestWritesSweepTheirFolder(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		folders []string // seeded with strays
		op      func(t *testing.T, ws *Workspace)
	}{
		{
			name:    "MoveAside archives a list",
			folders: []string{"coordinator", "archived/coordinator"},
			op: func(t *testing.T, ws *Workspace) {
				err := ws.Lock(ctx, []string{"coordinator/active.md"}, func(tx *Tx) error {
					data, _, err := tx.Read("coordinator/active.md")
					require.NoError(t, err)
					_, err = tx.MoveAside("coordinator/active.md", data, "archived/coordinator/active-2026-01-02-030405")
					return err
				})
				require.NoError(t, err)
			},
		},
		{
			name:    "MoveAside archives a document",
			folders: []string{"docs", "archived/docs"},
			op: func(t *testing.T, ws *Workspace) {
				err := ws.Lock(ctx, []string{"docs/a.md"}, func(tx *Tx) error {
					data, _, err := tx.Read("docs/a.md")
					require.NoError(t, err)
					_, err = tx.MoveAside("docs/a.md", data, "archived/docs/a")
					return err
				})
				require.NoError(t, err)
			},
		},
		{
			name:    "Update",
			folders: []string{"archived/docs"},
			op: func(t *testing.T, ws *Workspace) {
				_, err := ws.Update(ctx, "archived/docs/new.md", func([]byte, bool) ([]byte, error) { return []byte("# New\n"), nil })
				require.NoError(t, err)
			},
		},
		{
			name:    "Create",
			folders: []string{"archived/coordinator"},
			op: func(t *testing.T, ws *Workspace) {
				require.NoError(t, ws.Lock(ctx, nil, func(tx *Tx) error {
					return tx.Create("archived/coordinator/active-2026-01-02-030405.md", []byte("# Done\n"))
				}))
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := newWorkspace(t)
			writeFile(t, root, "coordinator/active.md", []byte("# Active\n"))
			writeFile(t, root, "docs/a.md", []byte("# A\n"))
			now := time.Now()
			var old, fresh []string
			for _, dir := range tt.folders {
				o, f := strays(t, root, dir, now)
				old, fresh = append(old, o...), append(fresh, f)
			}
			// Another folder is left for its own writes.
			elsewhere, _ := strays(t, root, "archived/other", now)

			tt.op(t, ws)
			for _, name := range old {
				assert.NoFileExists(t, filepath.Join(root, filepath.FromSlash(name)), "a crash's leftover is swept")
			}
			for _, name := range append(fresh, elsewhere...) {
				assert.FileExists(t, filepath.Join(root, filepath.FromSlash(name)))
			}
		})
	}
}

func TestSweep(t *testing.T) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	_, err := ws.Update(ctx, "top.md", func([]byte, bool) ([]byte, error) { return []byte("# Top\n"), nil })
	require.NoError(t, err, "makes the lock directory")
	now := time.Now()
	var old, kept []string
	for _, dir := range []string{"archived/coordinator", "archived/docs", "archived/docs/api"} {
		o, f := strays(t, root, dir, now)
		old, kept = append(old, o...), append(kept, f)
	}
	outside, _ := strays(t, root, "docs", now)
	kept = append(kept, outside...)
	// Old files that are not temporary files, and a folder named like one.
	for _, name := range []string{"archived/docs/.notes", "archived/docs/a.md", "archived/docs/.tmp-x.md"} {
		writeFile(t, root, name, []byte("# keep\n"))
		require.NoError(t, os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), now.Add(-time.Hour), now.Add(-time.Hour)))
		kept = append(kept, name)
	}
	dirTmp, err := tempName("archived/docs/folder")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.FromSlash(dirTmp)), 0o755))
	kept = append(kept, dirTmp)
	// The lock directory is library state, never swept.
	lockTmp := crashTemp(t, root, lockDir+"/x", now.Add(-time.Hour))
	kept = append(kept, lockTmp)

	listed, err := ws.Leftovers(ctx, "archived")
	require.NoError(t, err)
	assert.ElementsMatch(t, old, listed, "Leftovers lists what Sweep removes")
	for _, name := range old {
		assert.FileExists(t, filepath.Join(root, filepath.FromSlash(name)), "Leftovers removes nothing")
	}
	removed, err := ws.Sweep(ctx, "archived")
	require.NoError(t, err)
	assert.Equal(t, len(old), removed)
	listed, err = ws.Leftovers(ctx, ".")
	require.NoError(t, err)
	assert.ElementsMatch(t, outside, listed)
	for _, name := range old {
		assert.NoFileExists(t, filepath.Join(root, filepath.FromSlash(name)))
	}
	for _, name := range kept {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		assert.NoError(t, err, "%s is kept", name)
	}

	removed, err = ws.Sweep(ctx, ".")
	require.NoError(t, err)
	assert.Equal(t, 2, removed, "the old ones in docs")
	assert.FileExists(t, filepath.Join(root, filepath.FromSlash(lockTmp)))

	removed, err = ws.Sweep(ctx, "missing")
	assert.NoError(t, err)
	assert.Zero(t, removed)
	_, err = ws.Sweep(ctx, "../x")
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
	_, err = ws.Sweep(ctx, lockDir)
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = ws.Sweep(cancelled, "archived")
	assert.ErrorIs(t, err, context.Canceled)
}

// A write sweeps a few files, once in a while: its cost stays bounded
// however many leftovers a folder holds, and they still go in the end.
func TestSweepIsBounded(t *testing.T) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	clock := time.Now()
	ws.now = func() time.Time { return clock }
	const dir = "archived/docs"
	for i := range 40 {
		crashTemp(t, root, dir+"/gone-"+strconv.Itoa(i)+".md", clock.Add(-time.Hour))
	}
	write := func() {
		t.Helper()
		_, err := ws.Update(ctx, dir+"/a.md", func(cur []byte, _ bool) ([]byte, error) { return append(cur, 'x'), nil })
		require.NoError(t, err)
	}
	write()
	assert.Len(t, tempFiles(t, root), 40-sweepMax, "at most sweepMax per write")
	write()
	assert.Len(t, tempFiles(t, root), 40-sweepMax, "at most one sweep per folder per sweepEvery")
	clock = clock.Add(sweepEvery)
	write()
	assert.Len(t, tempFiles(t, root), 40-2*sweepMax)
	clock = clock.Add(sweepEvery)
	write()
	assert.Empty(t, tempFiles(t, root))
}

// Archives are written once and never again. However long a process keeps
// crashing while it archives, the leftovers in the archive folder stay few.
func TestSweepKeepsLeftoversFew(t *testing.T) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	clock := time.Now()
	ws.now = func() time.Time { return clock }
	const dir, step, rounds = "archived/coordinator", 5 * time.Second, 300
	limit := int((sweepGrace+sweepEvery)/step) + 1
	most := 0
	for i := range rounds {
		crashTemp(t, root, path.Join(dir, "crashed-"+strconv.Itoa(i)+".md"), clock)
		clock = clock.Add(step)
		require.NoError(t, ws.Lock(ctx, nil, func(tx *Tx) error {
			return tx.Create(path.Join(dir, "active-"+strconv.Itoa(i)+".md"), []byte("# Done\n"))
		}))
		n := len(tempFiles(t, root))
		require.LessOrEqual(t, n, limit, "round %d", i)
		most = max(most, n)
	}
	t.Logf("at most %d leftovers over %d crashes", most, rounds)
}
