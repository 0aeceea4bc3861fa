package gitsync_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
	"github.com/taskmd/taskmd/taskdoc"
)

// A plan git does not track, new and not committed (staged or not) or
// ignored, is refused with INVALID_ARGUMENTS naming it before anything is
// written or fetched; once committed, the same call is made.
func TestPlanNotInGitIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name          string
		ignore, stage bool
		opts          []gitsync.Option
	}{
		{name: "new"},
		{name: "ignored", ignore: true},
		{name: "staged", stage: true},
		{name: "new, plan refs", opts: []gitsync.Option{gitsync.WithPlanRefs()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{doc: planOf(1), ".gitignore": ".taskmd/\n"}
			if tc.ignore {
				files[".gitignore"] += "docs/new.md\n"
			}
			remote := newRemote(t, files)
			a := newMachine(t, remote, "a", tc.opts...)
			filetest.Write(t, a.dir, "docs/new.md", planOf(2))
			if tc.stage {
				run(t, a.dir, "add", "docs/new.md")
			}
			head, status := run(t, a.dir, "rev-parse", "HEAD"), run(t, a.dir, "status", "--porcelain", "--ignored")
			remoteHead := run(t, remote, "rev-parse", "main")

			_, err := a.sync.Claim(ctx, "/new.md#task-1", a.agent)
			require.Error(t, err)
			assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "%v", err)
			assert.ErrorContains(t, err, "docs/new.md is not committed to git")
			_, err = a.sync.ClaimNext(ctx, "/new.md", a.agent)
			assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "%v", err)
			assert.Equal(t, planOf(2), filetest.Read(t, a.dir, "docs/new.md"))
			assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"))
			assert.Equal(t, status, run(t, a.dir, "status", "--porcelain", "--ignored"))
			assert.Equal(t, remoteHead, run(t, remote, "rev-parse", "main"))

			// A plan of the clone that git tracks is not held up.
			res, err := a.sync.Claim(ctx, "/plan.md#task-1", a.agent)
			require.NoError(t, err)
			assert.True(t, res.Pushed)

			run(t, a.dir, "add", "-f", "docs/new.md")
			run(t, a.dir, "commit", "-q", "-m", "a new plan")
			res, err = a.sync.Claim(ctx, "/new.md#task-1", a.agent)
			require.NoError(t, err)
			assert.True(t, res.Pushed, "%+v", res.Report)
			assert.Equal(t, a.agent, assigneeIn(t, remoteFile(t, remote, "docs/new.md"), "task-1"))
		})
	}
}

// A plan that a person stops tracking (git rm --cached, committed) while
// the clone's Sync has changed it before is refused like a new one, and
// nothing is written.
func TestPlanNoLongerInGitIsRefused(t *testing.T) {
	remote := newRemote(t, map[string]string{doc: planOf(2), ".gitignore": ".taskmd/\n"})
	a := newMachine(t, remote, "a")
	a.claimPushed(t, "/plan.md#task-1")

	run(t, a.dir, "rm", "-q", "--cached", doc)
	run(t, a.dir, "commit", "-q", "-m", "the plan is no longer shared")
	plan := filetest.Read(t, a.dir, doc)
	head, status := run(t, a.dir, "rev-parse", "HEAD"), run(t, a.dir, "status", "--porcelain", "--ignored")
	remoteHead := run(t, remote, "rev-parse", "main")

	_, err := a.sync.Claim(ctx, "/plan.md#task-2", a.agent)
	assert.Equal(t, taskdoc.CodeInvalidArguments, taskdoc.CodeOf(err), "%v", err)
	assert.ErrorContains(t, err, "docs/plan.md is not committed to git")
	assert.Equal(t, plan, filetest.Read(t, a.dir, doc))
	assert.Equal(t, head, run(t, a.dir, "rev-parse", "HEAD"))
	assert.Equal(t, status, run(t, a.dir, "status", "--porcelain", "--ignored"))
	assert.Equal(t, remoteHead, run(t, remote, "rev-parse", "main"))
}
