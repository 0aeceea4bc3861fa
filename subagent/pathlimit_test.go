package subagent_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// A document 3,000 folders deep is refused at once, before any folder is
// made: each would be created and flushed to disk.
func TestCreateRefusesAPathTooDeep(t *testing.T) {
	tasks, root := setup(t, nil)
	address := "/" + strings.Repeat("d/", 3000) + "deep.md"
	start := time.Now()
	_, err := tasks.Create(context.Background(), address, taskdoc.NewTask{Title: "Deep"})
	require.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "use a shorter path")
	assert.Less(t, time.Since(start), time.Second)
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was created")

	_, err = tasks.Create(context.Background(), "/"+strings.Repeat("d/", taskdoc.MaxPathDepth)+"deep.md", taskdoc.NewTask{Title: "Deep"})
	require.Equal(t, taskdoc.CodeInvalidAddress, taskdoc.CodeOf(err), "one folder past the limit")
	assert.Contains(t, err.Error(), "folders deep, more than the limit of 32")
}
