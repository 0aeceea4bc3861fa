package gitsync

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Attributes are the .gitattributes lines that send taskmd's Markdown to
// the merge driver: task documents, the coordinator list, journals and
// worker checkpoints.
var Attributes = []string{
	"docs/**/*.md merge=taskmd",
	"coordinator/*.md merge=taskmd",
	"checkpoints/**/*.md merge=taskmd",
}

// DriverKey is the git config key of the merge driver's command.
const DriverKey = "merge.taskmd.driver"

// DriverArgs are the merge driver's arguments after the taskmd binary,
// with git's placeholders: ancestor, current (the result goes there),
// other, the path in the repository and the conflict marker size.
const DriverArgs = "merge-driver %O %A %B %P %L"

// Setup is what SetUp set and added.
type Setup struct {
	// Driver is the command set as merge.taskmd.driver.
	Driver           string `json:"driver"`
	AttributesAdded  bool   `json:"attributes_added"`
	IgnoreStateAdded bool   `json:"ignore_state_added"`
}

// SetUp configures the repository holding ws for taskmd: the merge driver
// in its git config, with command (the taskmd binary, "taskmd" when it is
// on the PATH) running DriverArgs; the Attributes lines in the
// workspace's .gitattributes; and the state folder in its .gitignore
// (workspace.Workspace.IgnoreState). Running it again changes nothing. A
// command that is empty or more than one line is INVALID_ARGUMENTS, and
// ws not in a git repository GIT_ERROR, both before anything is written.
func SetUp(ctx context.Context, ws *workspace.Workspace, command string) (Setup, error) {
	if strings.TrimSpace(command) == "" || strings.ContainsAny(command, "\r\n") {
		return Setup{}, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("the merge driver's command %q must be one line naming the taskmd binary", command)}
	}
	if _, _, err := git.TopLevel(ctx, ws.Root()); err != nil {
		return Setup{}, err
	}
	res := Setup{Driver: command + " " + DriverArgs}
	if _, err := git.Run(ctx, ws.Root(), "config", "merge.taskmd.name", "taskmd: merge task documents task by task"); err != nil {
		return Setup{}, err
	}
	if _, err := git.Run(ctx, ws.Root(), "config", DriverKey, res.Driver); err != nil {
		return Setup{}, err
	}
	var err error
	if res.AttributesAdded, err = ws.EnsureLines(ctx, ".gitattributes", Attributes...); err != nil {
		return Setup{}, err
	}
	if res.IgnoreStateAdded, err = ws.IgnoreState(ctx); err != nil {
		return Setup{}, err
	}
	return res, nil
}
