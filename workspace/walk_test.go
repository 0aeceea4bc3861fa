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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

type visit struct {
	name  string
	title string       // of the parsed document
	code  taskdoc.Code // of the error
}

func walkAll(t *testing.T, ws *Workspace, dir string) []visit {
	t.Helper()
	var got []visit
	err := ws.Walk(context.Background(), dir, func(name string, doc *taskdoc.Document, err error) error {
		v := visit{name: name, code: taskdoc.CodeOf(err)}
		if doc != nil {
			require.NoError(t, err)
			v.title = strings.TrimSpace(strings.SplitN(string(doc.Source), "\n", 2)[0])
		} else {
			require.Error(t, err, "%s: neither a document nor an error", name)
		}
		got = append(got, v)
		return nil
	})
	require.NoError(t, err)
	return got
}

func TestWalk(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	writeFile(t, base, "outside/secret.md", []byte("# Secret\n"))
	files := map[string]string{
		"docs/b.md":                       "# B\n",
		"docs/a.md":                       "# A\n",
		"docs/api/auth.md":                "# Auth\n",
		"docs/api/z/deep.md":              "# Deep\n",
		"docs/bad.md":                     "# Bad \xff\n",
		"docs/huge.md":                    "# " + strings.Repeat("x", 200) + "\n",
		"docs/notes.txt":                  "not markdown",
		"docs/.a.md.tmp-0123456789abcdef": "# Half\n",
		"coordinator/active.md":           "# Active\n",
	}
	for name, content := range files {
		writeFile(t, root, name, []byte(content))
	}
	require.NoError(t, os.Symlink("a.md", filepath.Join(root, "docs", "link.md")))
	require.NoError(t, os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "docs", "out")))
	require.NoError(t, os.Symlink("api", filepath.Join(root, "docs", "api-link")))
	ws, err := Open(root, WithMaxFileSize(100))
	require.NoError(t, err)
	defer ws.Close()

	assert.Equal(t, []visit{
		{name: "docs/a.md", title: "# A"},
		{name: "docs/api/auth.md", title: "# Auth"},
		{name: "docs/api/z/deep.md", title: "# Deep"},
		{name: "docs/b.md", title: "# B"},
		{name: "docs/bad.md", code: taskdoc.CodeInvalidUTF8},
		{name: "docs/huge.md", code: taskdoc.CodeFileTooLarge},
		{name: "docs/link.md", code: taskdoc.CodeSymlink},
	}, walkAll(t, ws, "docs"), "lexical order, errors reported, links and temporary files not followed")

	assert.Len(t, walkAll(t, ws, "."), 8, "the whole root")
	assert.Empty(t, walkAll(t, ws, "archived"), "a missing directory has nothing to visit")

	err = ws.Walk(context.Background(), "../outside", func(string, *taskdoc.Document, error) error { return nil })
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
	err = ws.Walk(context.Background(), "docs/out", func(name string, _ *taskdoc.Document, _ error) error {
		t.Errorf("visited %s through a link leading outside", name)
		return nil
	})
	assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
}

func TestWalkStops(t *testing.T) {
	ws, dir := newWorkspace(t)
	for _, n := range []string{"docs/a.md", "docs/b.md", "docs/c.md"} {
		writeFile(t, dir, n, []byte("# x\n"))
	}
	stop := errors.New("stop")
	var seen []string
	err := ws.Walk(context.Background(), "docs", func(name string, _ *taskdoc.Document, _ error) error {
		seen = append(seen, name)
		if name == "docs/b.md" {
			return stop
		}
		return nil
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, []string{"docs/a.md", "docs/b.md"}, seen)

	seen = nil
	err = ws.Walk(context.Background(), "docs", func(name string, _ *taskdoc.Document, _ error) error {
		seen = append(seen, name)
		return fs.SkipAll
	})
	assert.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md"}, seen)

	ctx, cancel := context.WithCancel(context.Background())
	seen = nil
	err = ws.Walk(ctx, "docs", func(name string, _ *taskdoc.Document, _ error) error {
		seen = append(seen, name)
		cancel()
		return nil
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, []string{"docs/a.md"}, seen)
}

// A document that is removed or moved away (archived) after Walk listed its
// folder and before it is read is gone, not broken: it is skipped. One that
// is there but cannot be read is still reported.
func TestWalkSkipsFilesGoneWhileWalking(t *testing.T) {
	d := visit{name: "docs/sub/d.md", title: "# D"}
	tests := []struct {
		name   string
		change func(t *testing.T, root string) // runs while docs/a.md is visited
		want   []visit
	}{
		{
			name: "removed",
			change: func(t *testing.T, root string) {
				require.NoError(t, os.Remove(filepath.Join(root, "docs", "b.md")))
			},
			want: []visit{{name: "docs/a.md", title: "# A"}, {name: "docs/c.md", title: "# C"}, d},
		},
		{
			name: "archived",
			change: func(t *testing.T, root string) {
				require.NoError(t, os.MkdirAll(filepath.Join(root, "archived"), 0o755))
				require.NoError(t, os.Rename(filepath.Join(root, "docs", "b.md"), filepath.Join(root, "archived", "b.md")))
			},
			want: []visit{{name: "docs/a.md", title: "# A"}, {name: "docs/c.md", title: "# C"}, d},
		},
		{
			name: "folder removed",
			change: func(t *testing.T, root string) {
				require.NoError(t, os.RemoveAll(filepath.Join(root, "docs", "sub")))
			},
			want: []visit{{name: "docs/a.md", title: "# A"}, {name: "docs/b.md", title: "# B"}, {name: "docs/c.md", title: "# C"}},
		},
		{
			name: "replaced by a folder",
			change: func(t *testing.T, root string) {
				require.NoError(t, os.Remove(filepath.Join(root, "docs", "b.md")))
				require.NoError(t, os.Mkdir(filepath.Join(root, "docs", "b.md"), 0o755))
			},
			want: []visit{{name: "docs/a.md", title: "# A"}, {name: "docs/b.md", code: taskdoc.CodeIO}, {name: "docs/c.md", title: "# C"}, d},
		},
		{
			name: "unreadable",
			change: func(t *testing.T, root string) {
				if runtime.GOOS == "windows" || os.Geteuid() == 0 {
					t.Skip("permissions do not keep this user from reading")
				}
				require.NoError(t, os.Chmod(filepath.Join(root, "docs", "b.md"), 0))
			},
			want: []visit{{name: "docs/a.md", title: "# A"}, {name: "docs/b.md", code: taskdoc.CodeIO}, {name: "docs/c.md", title: "# C"}, d},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, root := newWorkspace(t)
			for _, n := range []string{"a", "b", "c"} {
				writeFile(t, root, "docs/"+n+".md", []byte("# "+strings.ToUpper(n)+"\n"))
			}
			writeFile(t, root, "docs/sub/d.md", []byte("# D\n"))
			var got []visit
			err := ws.Walk(context.Background(), "docs", func(name string, doc *taskdoc.Document, err error) error {
				if name == "docs/a.md" {
					tt.change(t, root)
				}
				v := visit{name: name, code: taskdoc.CodeOf(err)}
				if doc != nil {
					v.title = strings.TrimSpace(strings.SplitN(string(doc.Source), "\n", 2)[0])
				}
				got = append(got, v)
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
