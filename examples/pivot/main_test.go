package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		childMain(os.Args[1:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The whole story runs with real worker processes, and the workspace ends
// as the story says.
func TestStory(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 60e9)
	defer cancel()
	require.NoError(t, orchestrate(ctx, dir, &out))
	for _, step := range []string{
		"== worker-a acknowledged: checkpoint checkpoints/workers/worker-a/000001.md, new claim on /shop.md#fix-login-bug",
		"== orchestrator answered during the brief poll",
		"== hard pivot: the task is pending again, worker-b stopped",
		"== worker-c got no answer during its brief poll: it saved its checkpoint and exited",
		"== worker-c resumed from its checkpoint and completed the changelog",
	} {
		assert.Contains(t, out.String(), step)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "docs", "shop.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), "### Add rate limiting\n- Status: paused\n- Checkpoint: checkpoints/workers/worker-a/000001.md\n")
	assert.Contains(t, string(doc), "### Fix login bug\n- Status: completed\n- Assignee: worker-a\n")
	assert.Contains(t, string(doc), "### Write docs\n- Status: pending\n\n")
	assert.Contains(t, string(doc), "- Note: changelog for 2.4.0\n")
	_, err = os.Stat(filepath.Join(dir, "checkpoints", "workers", "worker-a", "000002.md"))
	assert.True(t, os.IsNotExist(err), "the answer during the brief poll wrote no checkpoint")
	_, err = os.Stat(filepath.Join(dir, "checkpoints", "workers", "worker-c", "000001.md"))
	assert.NoError(t, err, "the suspended worker's checkpoint")
}
