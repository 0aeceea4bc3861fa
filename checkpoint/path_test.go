package checkpoint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/taskmd/taskmd/checkpoint"
)

func TestWorkerFileRoundTrip(t *testing.T) {
	path := checkpoint.WorkerFile("ag_1", 3)
	assert.Equal(t, "checkpoints/workers/ag_1/000003.md", path)
	w, seq, ok := checkpoint.ParseWorkerFile(path)
	assert.True(t, ok)
	assert.Equal(t, "ag_1", w)
	assert.Equal(t, 3, seq)
	for _, bad := range []string{"checkpoints/workers/ag_1/3.md", "checkpoints/workers/AG/000001.md", "checkpoints/tasks/a.md/b.md", "checkpoints/workers/ag_1/x/000001.md", ""} {
		_, _, ok := checkpoint.ParseWorkerFile(bad)
		assert.False(t, ok, bad)
	}
}
