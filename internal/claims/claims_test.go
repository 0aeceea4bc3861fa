package claims_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/taskdoc"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// TestCheck walks the fence through a task's claims: granted, taken over,
// ended with the task done, released.
func TestCheck(t *testing.T) {
	f, err := claims.Decode("docs/a.md", claims.FileOf("docs/a.md"), nil)
	require.NoError(t, err)
	w := func(assignee, agent string, token int64) claims.Write {
		return claims.Write{Path: "/a.md", Slug: "x", Assignee: assignee, Agent: agent, Token: token, Status: taskdoc.StatusPending}
	}
	ok := func(assignee, agent string, token int64) {
		t.Helper()
		assert.NoError(t, f.Check(w(assignee, agent, token)))
	}
	stale := func(assignee, agent string, token int64) {
		t.Helper()
		assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(f.Check(w(assignee, agent, token))))
	}
	ok("", "a", 0) // nobody holds it
	stale("a", "b", 0)

	r := f.Grant("x", "a", "", t0)
	assert.Equal(t, int64(1), r.Token)
	ok("a", "a", 1)
	stale("a", "a", 0)
	stale("a", "b", 0)
	stale("a", "b", 1)
	stale("a", "a", 2)
	ok("", "b", 0) // recorded but not shown: holds nothing
	stale("", "a", 1)

	r = f.Grant("x", "b", "a", t0)
	assert.Equal(t, int64(2), r.Token)
	stale("b", "a", 1)
	ok("b", "b", 2)

	f.End("x")
	assert.NoError(t, f.Check(claims.Write{Path: "/a.md", Slug: "x", Assignee: "b", Agent: "b", Token: 2, Status: taskdoc.StatusCompleted}), "the holder's retries after its task was done")
	assert.NoError(t, f.Check(claims.Write{Path: "/a.md", Slug: "x", Assignee: "b", Agent: "b", Token: 2, Status: taskdoc.StatusInProgress, To: taskdoc.StatusCompleted}), "its completion again, on a plan put back (a rejected push)")
	stale("b", "b", 2) // a done task reopened: the ended claim starts nothing
	ok("b", "c", 0)    // no one holds a done task
	stale("b", "a", 1)

	f.Grant("x", "c", "", t0)
	stale("c", "b", 2)
	f.Release("x")
	stale("", "c", 3) // released: the token lets nothing through
	ok("", "c", 0)
	assert.Equal(t, int64(3), f.LastToken)
}

// TestCheckCallersThatAreNotAgents: a caller that is not an agent (a
// person, a script, a session that did not register) writes only on a
// task no agent holds; an agent without a claim never starts work.
func TestCheckCallersThatAreNotAgents(t *testing.T) {
	f, err := claims.Decode("docs/a.md", claims.FileOf("docs/a.md"), nil)
	require.NoError(t, err)
	check := func(assignee, agent string, token int64, status, to taskdoc.Status) error {
		return f.Check(claims.Write{Path: "/a.md", Slug: "x", Assignee: assignee, Agent: agent, Token: token, Status: status, To: to})
	}
	assert.NoError(t, check("", "", 0, taskdoc.StatusPending, taskdoc.StatusCompleted), "no one holds it")
	assert.NoError(t, check("", "", 0, taskdoc.StatusPending, taskdoc.StatusInProgress), "a person starts a free task")
	assert.NoError(t, check("alice", "", 0, taskdoc.StatusPending, ""), "a person's Assignee is no agent's claim")
	f.Grant("x", "a", "", t0)
	err = check("a", "", 0, taskdoc.StatusInProgress, taskdoc.StatusCompleted)
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "agent a holds it (claim 1)")
	assert.NoError(t, check("", "", 0, taskdoc.StatusInProgress, ""), "recorded but not shown: held by no one")

	// An agent without a claim does no work.
	f.Release("x")
	assert.NoError(t, check("", "b", 0, taskdoc.StatusPending, taskdoc.StatusBlocked))
	for _, s := range []taskdoc.Status{taskdoc.StatusPlanning, taskdoc.StatusInProgress, taskdoc.StatusPaused} {
		assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(check("", "b", 0, taskdoc.StatusPending, s)), "to %s", s)
		assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(check("", "b", 0, s, "")), "on %s", s)
		assert.NoError(t, check("", "", 0, s, ""), "a caller that is not an agent, on %s", s)
	}
}

// TestFollow: a record whose task does not show its agent (a crash
// between a claim's two writes, a person's edit) holds nothing and is
// released: its token lets nothing through, and only its holder's
// retried release is recognised; a claim shown on a done task ends.
func TestFollow(t *testing.T) {
	f, err := claims.Decode("docs/a.md", claims.FileOf("docs/a.md"), nil)
	require.NoError(t, err)
	f.Grant("x", "a", "", t0)
	assert.False(t, f.Follow("x", "a", taskdoc.StatusInProgress), "shown: held")
	assert.Equal(t, "a", f.Holder("x", "a"))
	assert.True(t, f.Follow("x", "", taskdoc.StatusInProgress))
	assert.False(t, f.Follow("x", "", taskdoc.StatusInProgress), "released already")
	assert.True(t, f.ReleasedBy("x", "a", 1))
	assert.False(t, f.ReleasedBy("x", "b", 1))
	assert.False(t, f.ReleasedBy("x", "a", 0))
	err = f.Check(claims.Write{Slug: "x", Agent: "a", Token: 1, Status: taskdoc.StatusPending})
	assert.Equal(t, claims.CodeStaleClaim, taskdoc.CodeOf(err))
	assert.Contains(t, err.Error(), "was let go")
}

// TestFollowEndsAClaimOnADoneTask: a completion whose claims write did
// not happen leaves a claim shown on a completed task; Follow ends it,
// keeping the holder's retries.
func TestFollowEndsAClaimOnADoneTask(t *testing.T) {
	f, err := claims.Decode("docs/a.md", claims.FileOf("docs/a.md"), nil)
	require.NoError(t, err)
	f.Grant("x", "a", "", t0)
	assert.True(t, f.Follow("x", "a", taskdoc.StatusCompleted))
	assert.Equal(t, "", f.Holder("x", "a"))
	assert.NoError(t, f.Check(claims.Write{Slug: "x", Assignee: "a", Agent: "a", Token: 1, Status: taskdoc.StatusCompleted}), "the holder's retry")
	assert.NoError(t, f.Check(claims.Write{Slug: "x", Assignee: "a", Status: taskdoc.StatusCompleted, To: taskdoc.StatusPending}), "a person reopens it")
}
