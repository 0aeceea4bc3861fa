// Package plan is the agent protocol on the Markdown workspace:
// several agents working one plan register (package agent), find the next
// tasks, claim one with a lease, load its context under a token budget,
// record their approach and journal entries (the protocol's checkpoints),
// report its status, and release it.
//
// A plan (the protocol's "workflow") is a document under docs/ whose Tasks
// section holds the tasks: its id is the document's address ("/api/auth.md"),
// a task's id its address ("/api/auth.md#implement-jwt-signing"). This is not
// the Workflow field of the task systems, which names a workflow prompt
// (workflows/<name>.md) a worker follows.
//
// # Lifecycle
//
//	plans := plan.New(ws)
//	agents := plans.Agents()
//	a, _ := agents.Register(ctx, agent.Registration{Name: "worker-1", Runtime: "claude_code"})
//	next, _ := plans.NextTasks(ctx, "/api/auth.md")
//	res, _ := plans.Claim(ctx, next[0].ID, a.ID)         // res.Success, or res.AlreadyClaimedBy
//	me := plan.Claimant{Agent: a.ID, Token: res.Claim.Token}
//	tc, _ := plans.LoadContext(ctx, next[0].ID, plan.ContextOptions{})
//	plans.SetApproach(ctx, next[0].ID, me, "RS256, keys from the vault")
//	plans.UpdateStatus(ctx, next[0].ID, me, plan.StatusUpdate{Status: taskdoc.StatusInProgress})
//	plans.AddEntry(ctx, next[0].ID, me, journal.Entry{Type: journal.TypeProgress, Summary: "signer done"})
//	agents.Heartbeat(ctx, a.ID, agent.HeartbeatInfo{CurrentTask: next[0].ID, Status: "busy"})
//	plans.UpdateStatus(ctx, next[0].ID, me, plan.StatusUpdate{Status: taskdoc.StatusCompleted, Note: "JWT signing in place"})
//	agents.Unregister(ctx, a.ID)
//
// After a lost context: List(ctx, taskdoc.StatusInProgress), Progress of the
// plan, then LoadContext with Include.AllCheckpoints.
//
// # Claims and leases
//
// A claim lasts as long as its agent's heartbeats: once the agent is offline
// (no heartbeat for the agent timeout, 60 seconds by default) the task is
// offered again by NextTasks and another agent's Claim takes it over, which is
// recorded. Each claim has a fencing token that grows with every new claim of
// the task and survives restarts. Every write a claimant makes (UpdateStatus,
// SetApproach, AddEntry, Release) presents its Claimant (agent and token)
// and is checked in the same critical section as the write: a claimant whose
// claim was taken over, released or replaced gets STALE_CLAIM and nothing is
// written, so an agent that paused for longer than its lease cannot undo its
// successor's work.
//
// Who may write on a task is one rule, kept in one place (the claims
// package's fence) and applied to every caller — Go, MCP, CLI — by plan
// and by the task systems (subagent) alike:
//
//   - a registered agent writes through its claim, presenting its token;
//   - an agent without a claim writes only on a task no agent holds, and
//     never starts work that way: planning, in progress and paused need a
//     claim;
//   - a caller that is not an agent (the zero Claimant: a person, a
//     script, an MCP session that did not register) writes only on a task
//     no agent holds;
//   - a person writes over a claim only by saying so (Claimant.Override,
//     plan.Person; subagent.WithOverride; the CLI's --force): the claim
//     ends and the task's Override field records who took it from whom.
//
// Anything else is STALE_CLAIM naming the holder, and nothing is written.
// Pause, Release and Revoke let the claim go: its token lets no write
// through afterwards, so a worker that was pivoted away cannot take its
// task back out of the resume queue. CheckPause and CheckClaim answer what
// Pause and Claim would, by the same rules, and write nothing: a caller
// that must write something else first asks them before.
//
// # Where the state lives
//
// The holder is the task's Assignee field and the approach its Plan field, in
// the plan, for people to read (a claim is held while both the Assignee and
// the claims file say so: a claim writes the claims file first, every
// other call the plan first, so a crash between two writes never leaves a
// claim the two disagree on, and the next call on the task settles the
// record); status, Error, Note and Completed as the task
// systems write them. The claim's token lives in .taskmd/claims (one JSON file
// per plan, written only under the plan's lock, in the same critical section
// as the write it guards); agents and heartbeats in .taskmd/agents, so a
// heartbeat never rewrites a plan; journal entries in the task's journal under
// checkpoints/ (package journal), so recording one never rewrites the plan
// either. Delete .taskmd/claims and every token is void: an agent claims its
// task again (with a new token) before it writes, and another agent gets the
// task once the agent its Assignee field names is offline.
//
// # Next tasks and dependencies
//
// A task's Depends-On field lists task addresses ("#slug" in the same plan,
// "/other.md#slug" in another). NextTasks offers the pending tasks no online
// agent holds whose every dependency is completed or skipped, in document
// order, and the stranded tasks (in progress or planning, whose holder went
// offline or released them). A create or edit that closes a cycle, within a
// plan or across plans, is DEPENDENCY_CYCLE naming it, and one that names a
// task that does not exist (in its plan or another) TASK_NOT_FOUND (SetPlan,
// and the task systems' Create and Edit). Dependencies are enforced: Claim
// of a pending task, and a move to planning, in_progress or completed,
// while a dependency is not completed or skipped is TASK_BLOCKED naming
// each one and its status, and writes nothing. A person overrides it with
// StatusUpdate.Force (taskmd start --force), which the task records in its
// Forced field; the MCP tools never force.
//
// # Retries and failures
//
// A failed call writes nothing. Claim by the holder, Release of a released
// claim, UpdateStatus to the status the task has, completing with the same
// outcome, SetApproach with the same approach, Create of an existing plan with the
// same name and SetPlan of tasks the plan holds as the call would write them
// are answered without writing, so every call may be retried; AddEntry
// takes a Key for the same purpose.
//
// # Concurrency and cost
//
// Writes on one plan (claims, status updates, plans) take the plan's lock and
// the lock of its claims file, and are serialised across goroutines and
// processes; journal entries take the journal's lock and the claims file's. Reads
// (NextTasks, Progress, List, LoadContext) take no lock. See the package's
// benchmarks for figures.
//
// The words (plan, approach, agent, journal entry, note) are defined once in docs/vocabulary.md.
package plan
