package claims_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/workspace"
)

// TestRaise: a floor above the last token makes the next grant take the
// one after it; a floor below changes nothing; All reads every claims
// file back with its document, and leaves out one that does not decode.
func TestRaise(t *testing.T) {
	ctx := context.Background()
	ws, err := workspace.Open(t.TempDir())
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, claims.Raise(ctx, ws, "docs/a.md", 7))
	require.NoError(t, claims.Raise(ctx, ws, "docs/a.md", 3))
	require.NoError(t, claims.Raise(ctx, ws, "docs/b.md", 0))
	require.NoError(t, os.WriteFile(filepath.Join(ws.Root(), claims.FileOf("docs/bad.md")), []byte("{"), 0o644))

	all, err := claims.All(ctx, ws)
	require.NoError(t, err)
	require.Len(t, all, 1, "b.md's floor 0 wrote nothing, bad.md's file does not decode")
	assert.Equal(t, "docs/a.md", all[0].Document)
	assert.Equal(t, int64(7), all[0].LastToken)
	f := all[0]
	assert.Equal(t, int64(8), f.Grant("x", "ag", "", t0).Token)
}
