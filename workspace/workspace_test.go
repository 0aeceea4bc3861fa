package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestOpenRequiresAnExistingDirectory(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)

	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = Open(file)
	assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err))

	ws, err := Open(dir)
	require.NoError(t, err)
	defer ws.Close()
	assert.True(t, filepath.IsAbs(ws.Root()))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "opening creates nothing")
}

func TestReadWriteRoundTrip(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)

	_, _, err := ws.Read(ctx, "docs/api/auth.md")
	assert.ErrorIs(t, err, taskdoc.ErrDocumentNotFound)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	ok, err := ws.Exists(ctx, "docs/api/auth.md")
	require.NoError(t, err)
	assert.False(t, ok)

	content := []byte("# Auth\n\n## Tasks\n")
	v, err := ws.Update(ctx, "docs/api/auth.md", func(cur []byte, exists bool) ([]byte, error) {
		assert.Nil(t, cur)
		assert.False(t, exists)
		return content, nil
	})
	require.NoError(t, err)
	assert.Equal(t, VersionOf(content), v)
	assert.Len(t, string(v), 32)

	data, v2, err := ws.Read(ctx, "docs/api/auth.md")
	require.NoError(t, err)
	assert.Equal(t, content, data)
	assert.Equal(t, v, v2)
	onDisk, err := os.ReadFile(filepath.Join(dir, "docs", "api", "auth.md"))
	require.NoError(t, err)
	assert.Equal(t, content, onDisk)
	ok, err = ws.Exists(ctx, "docs/api/auth.md")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Empty(t, tempFiles(t, dir))
}

func TestEmptyFileExists(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "docs/empty.md", nil)
	data, v, err := ws.Read(ctx, "docs/empty.md")
	require.NoError(t, err)
	assert.Empty(t, data)
	assert.Equal(t, VersionOf(nil), v)
	assert.NotEqual(t, Version(""), v, "an empty file is not a missing one")
	_, err = ws.Update(ctx, "docs/empty.md", func(cur []byte, exists bool) ([]byte, error) {
		assert.True(t, exists)
		assert.Empty(t, cur)
		return nil, nil
	})
	require.NoError(t, err)
}

func TestUpdateSkipsUnchangedAndNil(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	p := filepath.Join(dir, "docs", "a.md")
	writeFile(t, dir, "docs/a.md", []byte("# A\n"))
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(p, old, old))

	for _, result := range [][]byte{nil, []byte("# A\n")} {
		v, err := ws.Update(ctx, "docs/a.md", func(cur []byte, _ bool) ([]byte, error) { return result, nil })
		require.NoError(t, err)
		assert.Equal(t, VersionOf([]byte("# A\n")), v)
		info, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, old, info.ModTime(), "an unchanged file is not rewritten")
	}

	v, err := ws.Update(ctx, "docs/b.md", func([]byte, bool) ([]byte, error) { return nil, nil })
	require.NoError(t, err)
	assert.Equal(t, Version(""), v)
	assert.NoFileExists(t, filepath.Join(dir, "docs", "b.md"))
}

func TestUpdateErrorFromFnChangesNothing(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "docs/a.md", []byte("# A\n"))
	boom := errors.New("boom")
	_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("x"), boom })
	assert.ErrorIs(t, err, boom)
	data, err := os.ReadFile(filepath.Join(dir, "docs", "a.md"))
	require.NoError(t, err)
	assert.Equal(t, "# A\n", string(data))
}

func TestUpdateKeepsPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "docs/a.md", []byte("# A\n"))
	p := filepath.Join(dir, "docs", "a.md")
	require.NoError(t, os.Chmod(p, 0o600))
	_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# B\n"), nil })
	require.NoError(t, err)
	info, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
}

func TestUpdateIf(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	p := filepath.Join(dir, "docs", "a.md")
	replace := func(s string) func([]byte, bool) ([]byte, error) {
		return func([]byte, bool) ([]byte, error) { return []byte(s), nil }
	}

	v1, err := ws.UpdateIf(ctx, "docs/a.md", "", replace("# One\n"))
	require.NoError(t, err, "empty version: create when missing")
	_, err = ws.UpdateIf(ctx, "docs/a.md", "", replace("# Clobber\n"))
	assert.ErrorIs(t, err, taskdoc.ErrConflict, "empty version: the file must not exist")

	v2, err := ws.UpdateIf(ctx, "docs/a.md", v1, replace("# Two\n"))
	require.NoError(t, err)
	assert.NotEqual(t, v1, v2)

	info, err := os.Stat(p)
	require.NoError(t, err)
	called := false
	_, err = ws.UpdateIf(ctx, "docs/a.md", v1, func([]byte, bool) ([]byte, error) {
		called = true
		return []byte("# Stale\n"), nil
	})
	var e *taskdoc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, taskdoc.CodeConflict, e.Code)
	assert.Equal(t, "docs/a.md", e.Path)
	assert.Equal(t, string(v2), e.Current, "the conflict names the version the file has now")
	assert.False(t, called, "fn must not run on a stale version")
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "# Two\n", string(data), "file unchanged")
	after, err := os.Stat(p)
	require.NoError(t, err)
	assert.True(t, os.SameFile(info, after), "file not even replaced")

	_, err = ws.UpdateIf(ctx, "docs/missing.md", v2, replace("# X\n"))
	assert.ErrorIs(t, err, taskdoc.ErrConflict, "a version for a file that does not exist")
	require.ErrorAs(t, err, &e)
	assert.Empty(t, e.Current, "no version: the file does not exist")
	assert.NoFileExists(t, filepath.Join(dir, "docs", "missing.md"))
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t, WithMaxFileSize(64))
	big := []byte("# " + strings.Repeat("x", 100) + "\n")
	writeFile(t, dir, "docs/big.md", big)
	writeFile(t, dir, "docs/bad.md", []byte("# A\n\xff\n"))
	writeFile(t, dir, "docs/ok.md", []byte("# A\n"))

	tests := []struct {
		desc string
		name string
		data []byte // written by Update; nil: only read
		code taskdoc.Code
	}{
		{"read too large", "docs/big.md", nil, taskdoc.CodeFileTooLarge},
		{"read invalid utf-8", "docs/bad.md", nil, taskdoc.CodeInvalidUTF8},
		{"write too large", "docs/ok.md", big, taskdoc.CodeFileTooLarge},
		{"write invalid utf-8", "docs/ok.md", []byte("# \xc3\x28\n"), taskdoc.CodeInvalidUTF8},
		{"create too large", "docs/new.md", big, taskdoc.CodeFileTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			before, err := os.ReadFile(filepath.Join(dir, tt.name))
			if err != nil {
				before = nil
			}
			if tt.data == nil {
				_, _, err := ws.Read(ctx, tt.name)
				assert.Equal(t, tt.code, taskdoc.CodeOf(err), "%v", err)
			}
			called := false
			_, err = ws.Update(ctx, tt.name, func([]byte, bool) ([]byte, error) {
				called = true
				return tt.data, nil
			})
			assert.Equal(t, tt.code, taskdoc.CodeOf(err), "%v", err)
			assert.Equal(t, tt.data != nil, called, "fn runs only when the current file is readable")
			after, _ := os.ReadFile(filepath.Join(dir, tt.name))
			assert.Equal(t, before, after, "nothing changed")
			assert.Empty(t, tempFiles(t, dir))
		})
	}

	data, _, err := ws.Read(ctx, "docs/ok.md")
	require.NoError(t, err)
	assert.Equal(t, "# A\n", string(data))
	writeFile(t, dir, "notes/blob.bin", []byte{0xff, 0xfe})
	_, _, err = ws.Read(ctx, "notes/blob.bin")
	assert.NoError(t, err, "only *.md files must be UTF-8")
}

func TestReadRefusesDirectories(t *testing.T) {
	ws, dir := newWorkspace(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "docs", "a.md"), 0o755))
	_, _, err := ws.Read(context.Background(), "docs/a.md")
	assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err))
	_, _, err = ws.Read(context.Background(), "docs/x.md/y.md")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestStaleTempFilesAreIgnoredAndCleanedUp(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "docs/a.md", []byte("# A\n"))
	// Fresh leftovers of a.md (a crash just now), in the current format and
	// in that of earlier versions: a.md's lock says nobody is using them.
	stale := []string{"docs/.a.md.tmp-0123456789abcdef", "docs/.a.md.tmp-fedcba9876543210"}
	for _, target := range []string{"docs/a.md", "docs/A.md"} {
		tmp, err := tempName(target)
		require.NoError(t, err)
		stale = append(stale, tmp)
	}
	for _, s := range stale {
		writeFile(t, dir, s, []byte("# half writ"))
	}
	others := []string{"docs/.b.md.tmp-0123456789abcdef"}
	tmp, err := tempName("docs/b.md")
	require.NoError(t, err)
	others = append(others, tmp)
	for _, other := range others {
		writeFile(t, dir, other, []byte("# B"))
	}

	names, err := ws.List(ctx, "docs")
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, names)

	_, err = ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A2\n"), nil })
	require.NoError(t, err)
	for _, s := range stale {
		assert.NoFileExists(t, filepath.Join(dir, s))
	}
	for _, other := range others {
		assert.FileExists(t, filepath.Join(dir, other), "another file's fresh temp may be in use")
	}
}

func TestList(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	names, err := ws.List(ctx, "archived/coordinator")
	require.NoError(t, err)
	assert.Empty(t, names, "a directory not created yet is empty")

	for _, n := range []string{"archived/coordinator/b.md", "archived/coordinator/a.md", "archived/coordinator/sub/c.md", "top.md"} {
		writeFile(t, dir, n, []byte("# x\n"))
	}
	if runtime.GOOS != "windows" {
		require.NoError(t, os.Symlink("a.md", filepath.Join(dir, "archived", "coordinator", "link.md")))
	}
	names, err = ws.List(ctx, "archived/coordinator")
	require.NoError(t, err)
	assert.Equal(t, []string{"archived/coordinator/a.md", "archived/coordinator/b.md"}, names)

	names, err = ws.List(ctx, ".")
	require.NoError(t, err)
	assert.Equal(t, []string{"top.md"}, names)

	_, err = ws.List(ctx, "../x")
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
}

func TestLockTx(t *testing.T) {
	ctx := context.Background()
	ws, dir := newWorkspace(t)
	writeFile(t, dir, "coordinator/active.md", []byte("# Active\n"))
	archived := "archived/coordinator/active-1.md"

	var leaked *Tx
	err := ws.Lock(ctx, []string{"coordinator/active.md", archived, "coordinator/active.md"}, func(tx *Tx) error {
		leaked = tx
		data, v, err := tx.Read("coordinator/active.md")
		require.NoError(t, err)
		assert.Equal(t, VersionOf(data), v)
		require.NoError(t, tx.Create(archived, data))
		err = tx.Create(archived, []byte("# other\n"))
		assert.ErrorIs(t, err, fs.ErrExist)
		assert.ErrorIs(t, err, taskdoc.ErrConflict)
		require.NoError(t, tx.Remove("coordinator/active.md"))
		ok, err := tx.Exists("coordinator/active.md")
		require.NoError(t, err)
		assert.False(t, ok)
		assert.ErrorIs(t, tx.Remove("coordinator/active.md"), fs.ErrNotExist)

		err = tx.Write("docs/unlocked.md", []byte("# x\n"))
		assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err), "writing a name that is not locked")
		require.NoError(t, tx.Write("coordinator/active.md", []byte("# Fresh\n")))
		require.NoError(t, tx.Create("archived/coordinator/active-2.md", []byte("# Two\n")),
			"Create never replaces, so it needs no lock of the transaction")
		return nil
	})
	require.NoError(t, err)

	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(archived)))
	require.NoError(t, err)
	assert.Equal(t, "# Active\n", string(data))
	data, err = os.ReadFile(filepath.Join(dir, "coordinator", "active.md"))
	require.NoError(t, err)
	assert.Equal(t, "# Fresh\n", string(data))
	assert.NoFileExists(t, filepath.Join(dir, "docs", "unlocked.md"))
	assert.FileExists(t, filepath.Join(dir, "archived", "coordinator", "active-2.md"))
	assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(leaked.Write("coordinator/active.md", nil)), "Tx is dead after Lock returns")
	assert.Empty(t, tempFiles(t, dir))

	locks, err := os.ReadDir(filepath.Join(dir, ".taskmd", "locks"))
	require.NoError(t, err)
	var lockNames []string
	for _, l := range locks {
		lockNames = append(lockNames, l.Name())
	}
	assert.Equal(t, []string{"archived%2Fcoordinator%2Factive-1.md.lock", "archived%2Fcoordinator%2Factive-2.md.lock",
		"coordinator%2Factive.md.lock"}, lockNames, "Create takes the lock of its name for its write")
}

func TestLockWaitHonoursContext(t *testing.T) {
	ws, dir := newWorkspace(t)
	second, err := Open(dir)
	require.NoError(t, err)
	defer second.Close()

	t.Run("held in this process", func(t *testing.T) {
		held := make(chan struct{})
		release := make(chan struct{})
		done := make(chan error)
		go func() {
			done <- ws.Lock(context.Background(), []string{"docs/a.md"}, func(*Tx) error {
				close(held)
				<-release
				return nil
			})
		}()
		<-held
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := second.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) {
			t.Error("fn ran without the lock")
			return nil, nil
		})
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		close(release)
		require.NoError(t, <-done)
	})

	t.Run("held by another process", func(t *testing.T) {
		// Another process is simulated by a flock of our own: the file lock
		// is per open file, so it excludes this process just the same.
		other := flock.New(filepath.Join(dir, filepath.FromSlash(lockFileName("docs/a.md"))))
		require.NoError(t, other.Lock())
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) {
			t.Error("fn ran without the lock")
			return nil, nil
		})
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, taskdoc.CodeIO, taskdoc.CodeOf(err))
		require.NoError(t, other.Unlock())

		// The abandoned wait gets the lock and must hand it back.
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = ws.Update(ctx, "docs/a.md", func([]byte, bool) ([]byte, error) { return []byte("# A\n"), nil })
		require.NoError(t, err)
	})

	t.Run("already cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, _, err := ws.Read(ctx, "docs/a.md")
		assert.ErrorIs(t, err, context.Canceled)
		err = ws.Lock(ctx, []string{"docs/a.md"}, func(*Tx) error { return nil })
		assert.ErrorIs(t, err, context.Canceled)
	})

	processLocks.Lock()
	assert.Empty(t, processLocks.m, "no lock entry outlives its holders")
	processLocks.Unlock()
}

func TestLockIsReleasedWhenFnPanics(t *testing.T) {
	ws, _ := newWorkspace(t)
	names := []string{"docs/b.md", "docs/a.md"}
	assert.PanicsWithValue(t, "boom", func() {
		_ = ws.Lock(context.Background(), names, func(*Tx) error { panic("boom") })
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	assert.NoError(t, ws.Lock(ctx, names, func(*Tx) error { return nil }))
}

// A nil Option is ignored.
func TestOpenIgnoresNilOption(t *testing.T) {
	ws, err := Open(t.TempDir(), nil)
	require.NoError(t, err)
	require.NoError(t, ws.Close())
}
