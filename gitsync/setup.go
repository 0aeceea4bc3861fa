package gitsync

import (
	"context"
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Setup is what SetUp set and added.
type Setup struct {
	// Driver is the command set as merge.taskmd.driver.
	Driver           string `json:"driver"`
	AttributesAdded  bool   `json:"attributes_added"`
	IgnoreStateAdded bool   `json:"ignore_state_added"`
}

// SetUp configures the repository holding ws for taskmd: the merge driver
// in its git config, with command (the taskmd binary, "taskmd" when it is
// on the PATH) running "merge-driver %O %A %B %P %L"; the lines in the
// workspace's .gitattributes that send task documents, the coordinator
// list, journals and worker checkpoints to it; and the state folder in its .gitignore
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
	res := Setup{Driver: command + " " + git.DriverArgs}
	if _, err := git.Run(ctx, ws.Root(), "config", "merge.taskmd.name", "taskmd: merge task documents task by task"); err != nil {
		return Setup{}, err
	}
	if _, err := git.Run(ctx, ws.Root(), "config", git.DriverKey, res.Driver); err != nil {
		return Setup{}, err
	}
	var err error
	if res.AttributesAdded, err = ws.EnsureLines(ctx, ".gitattributes", git.Attributes...); err != nil {
		return Setup{}, err
	}
	if res.IgnoreStateAdded, err = ws.IgnoreState(ctx); err != nil {
		return Setup{}, err
	}
	return res, nil
}
