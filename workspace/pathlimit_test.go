package workspace

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/taskmd/taskmd/taskdoc"
)

// Names past taskdoc.PathLimit are refused before anything is created;
// the deepest name allowed is written.
func TestNamesPastThePathLimits(t *testing.T) {
	ctx := context.Background()
	ws, root := newWorkspace(t)
	write := func(name string) error {
		_, err := ws.Update(ctx, name, func([]byte, bool) ([]byte, error) { return []byte("# Deep\n"), nil })
		return err
	}
	for _, name := range []string{
		strings.Repeat("d/", taskdoc.MaxPathDepth+1) + "a.md",
		strings.Repeat("d/", 3000) + "a.md",
		"docs/" + strings.Repeat("x", taskdoc.MaxPathElement+1),
		strings.Repeat(strings.Repeat("y", 200)+"/", 6) + "a.md",
	} {
		err := write(name)
		require.Error(t, err)
		assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err))
		assert.Less(t, len(err.Error()), 400)
		entries, err := os.ReadDir(root)
		require.NoError(t, err)
		assert.Empty(t, entries, "nothing was created for %.40s", name)
	}
	require.NoError(t, write(strings.Repeat("d/", taskdoc.MaxPathDepth)+"a.md"))
}
