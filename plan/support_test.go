package plan_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/plan"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// openWith returns plans on a Workspace of their own on root, on clock c
// and with opts.
func openWith(t testing.TB, root string, c *clock, opts ...plan.Option) *plan.Plans {
	t.Helper()
	ws, err := workspace.Open(root)
	require.NoError(t, err)
	t.Cleanup(func() { ws.Close() })
	return plan.New(ws, append([]plan.Option{plan.WithClock(c.Now)}, opts...)...)
}

// claimsOf decodes the claims file of the document file doc
// ("docs/auth.md") under root; no file is no claims.
func claimsOf(t testing.TB, root, doc string) claims.File {
	t.Helper()
	name := claims.FileOf(doc)
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if os.IsNotExist(err) {
		data, err = nil, nil
	}
	require.NoError(t, err)
	f, err := claims.Decode(doc, name, data)
	require.NoError(t, err)
	return f
}

// taskOf parses the document file doc under root and returns its task slug.
func taskOf(t testing.TB, root, doc, slug string) *taskdoc.Task {
	t.Helper()
	d, err := taskdoc.Parse([]byte(filetest.Read(t, root, doc)))
	require.NoError(t, err)
	tk, err := d.Task(slug)
	require.NoError(t, err)
	return tk
}

// field is the value of key in task slug of doc under root, "" when the
// task has no such field.
func field(t testing.TB, root, doc, slug, key string) string {
	t.Helper()
	v, _ := taskOf(t, root, doc, slug).Field(key)
	return v
}

// requireCode fails unless err is a *taskdoc.Error with code.
func requireCode(t testing.TB, err error, code taskdoc.Code, msgAndArgs ...any) {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	require.Equal(t, code, taskdoc.CodeOf(err), append([]any{"error: %v"}, err)...)
	var te *taskdoc.Error
	require.ErrorAs(t, err, &te, "a typed error")
}

// longAgo is the modification time frozen files are given, so that any
// rewrite of a file (even with the same bytes) shows in its time.
var longAgo = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// frozen is every file under root (lock files aside) with its content,
// all of them dated longAgo.
type frozen map[string]string

// freeze dates every file under root longAgo and returns them.
func freeze(t testing.TB, root string) frozen {
	t.Helper()
	files := filetest.Snapshot(t, root)
	for name := range files {
		require.NoError(t, os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), longAgo, longAgo))
	}
	return frozen(files)
}

// requireUntouched fails unless every file under root is as freeze left
// it: no file added or removed, the same bytes, and none rewritten (its
// modification time is still longAgo).
func requireUntouched(t testing.TB, root string, before frozen, what string) {
	t.Helper()
	require.Equal(t, map[string]string(before), filetest.Snapshot(t, root), "%s: the files changed", what)
	for name := range before {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name)))
		require.NoError(t, err)
		assert.True(t, fi.ModTime().Equal(longAgo), "%s: %s was rewritten (same bytes)", what, name)
	}
}
