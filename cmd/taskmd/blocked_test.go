package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// start of a task whose dependency is not done is TASK_BLOCKED (exit 4)
// naming it, and changes nothing; start --force starts it and records the
// override in the task.
func TestStartBlockedByDependency(t *testing.T) {
	plan := "# Release\n\n## Tasks\n\n### First\n\n- Status: pending\n\n### Second\n\n- Status: pending\n- Depends-On: #first\n"
	root := writeWorkspace(t, map[string]string{"docs/release.md": plan})
	before := files(t, root)
	r := taskmd(t, root, "", "start", "/release.md#second")
	assert.Equal(t, exitConflict, r.exit, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "taskmd: TASK_BLOCKED: "), r.stderr)
	assert.Contains(t, r.stderr, "/release.md#first (pending)")
	assert.Equal(t, before, files(t, root))

	r = taskmd(t, root, "", "start", "/release.md#second", "--force")
	require.Equal(t, 0, r.exit, r.stderr)
	assert.Contains(t, files(t, root)["docs/release.md"],
		"- Status: in_progress\n- Depends-On: #first\n- Forced: taken up before its dependencies were done: /release.md#first (pending)\n")
}
