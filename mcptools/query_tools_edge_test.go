package mcptools

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// task_remove and task_set_status on the coordinator list's address
// without a slug are INVALID_ADDRESS: TASK_NOT_FOUND is what task_remove
// answers for a removal that already happened, so an agent would read
// the mistake as success.
func TestCoordinatorAddressWithoutSlugIsInvalidAddress(t *testing.T) {
	root := newRoot(t, queryFiles())
	call := inProcess(t, root, time.Now)
	for _, task := range []string{"/coordinator/active.md", "/coordinator/active.md#"} {
		for _, tool := range []string{"task_remove", "task_set_status"} {
			args := map[string]any{"task": task}
			if tool == "task_set_status" {
				args["status"] = "blocked"
			}
			out, failed := call(tool, args)
			require.True(t, failed, "%s %s", tool, task)
			msg, _ := out["error"].(string)
			assert.True(t, strings.HasPrefix(msg, "INVALID_ADDRESS: "), "%s %s: %s", tool, task, msg)
		}
	}
}
