// Package gitsync shares the claims and statuses of a plan between
// machines through a git remote. Each machine works in its own clone;
// claiming a task, or moving it through its statuses, fetches the remote,
// merges what other machines pushed (task documents with the task-aware
// merge of package merge), makes the change with package plan, commits
// the one document it changed and pushes. When the push is rejected
// because another machine pushed first, the change is taken back, the
// remote merged again and the change made again on the merged plan, so
// that of two machines claiming one task exactly one holds it: the other
// is told who does. A rejected push is not a failure: the change is made
// again, after a random pause measured in the time an attempt takes,
// until the call's context ends (WithMaxAttempts sets a limit). A machine
// that loses the race again says so on the remote
// (refs/taskmd/waiting/<branch>) and tries again the sooner the longer it
// has lost; a machine about to push while another waits lets it go first
// (about an attempt's time, at most eight times a batch), so that every
// machine gets its share of a busy remote. While other machines push (a
// fetch brought their commits, or one rejected this clone's push, within
// the last ten attempts' time), every batch pauses before its first push
// as after a rejected one, the machine that pushed last too: machines take
// turns, push larger batches, and make fewer changes for nothing. A
// machine alone on its remote never pauses.
//
// ClaimNext claims the next task a plan offers, chosen on the merged plan
// when the change is made (and again when a rejected push makes it
// again): machines claiming from one plan each get a task, where listing
// the tasks and claiming one is refused when another machine took it
// since the list was read.
//
// Calls that reach one Sync while it is sharing a change wait and are
// shared together (group commit): one fetch and merge, each change made
// and committed in turn with its own message, one push for them all. Each
// call is told its own result, and a rejected push makes each change again
// on the merged plan, so that a retried change is still made once; the
// calls that arrived meanwhile join the batch then. A machine running many
// agents through one Sync so pushes a few changes at a time instead of
// racing itself for the remote. taskmd's git commands start no automatic
// maintenance of their own (a process more after each commit, fetch and
// merge); a Sync runs "git maintenance run --auto" every 100 commits and
// fetches.
//
// A clone that cannot reach its remote (git could not connect to it or
// read from it) keeps working: the change is
// committed locally and the result says it is queued (Report.Queued);
// Push (or the next call that reaches the remote) sends the queue later.
// A queued claim is not confirmed until it is sent: when another machine
// changed the task first (claimed it online, say), its change wins, the
// queued change of that task is given up and Report.Released names the
// task and its holder; the other queued changes are confirmed.
//
// The library's state under .taskmd/ (agents, claim tokens, journals'
// locks) belongs to one clone and is never committed: New makes git
// ignore it. Across machines the plan is the shared record of who holds
// what (a task's Assignee field names its holder), and each machine's
// leases say how long: see Leases.
//
// # Plan refs
//
// One branch is one compare-and-swap for every plan. With WithPlanRefs,
// each plan's changes are pushed to a ref of its own,
// refs/taskmd/plans/<branch>/<key> (the plan's path with every byte but
// letters, digits, "_" and "-" as %XX), so that machines changing
// different plans never reject each other's pushes. A batch merges the
// refs of the plans its calls write or read, of the plans their tasks
// depend on (as last merged when theirs does not merge), and of those its
// clone's unpushed commits change (other plans stay as last merged: a
// change of a plan is decided on its own ref), and pushes HEAD to each of
// them, all or none, with its leases. Machines that keep losing say so per
// plan (refs/taskmd/waiting/<branch>@<key>), and a batch paces only for
// the machines holding claims in its plans. The branch follows: after a
// push, when the branch last moved about a second ago (its commit's date,
// to the second; a date ahead of the clone's clock counts from when the
// clone first saw it), one machine in turn merges every plan ref and the
// branch and pushes the result to it, once, whatever the answer; Push does
// so until it lands. So the last changes pushed within a second of the
// branch's last move reach it with a later push, or at Push (call it when
// the work is done). A person's edit pushed to the branch reaches the
// plans' refs that way; where it sets a field of a task that a machine's
// change on a plan ref set differently, nothing is merged, the branch
// stops following and Push is MERGE_CONFLICT, for a person to merge the
// plan ref into the branch and settle, while the machines go on on the
// refs. A plan's ref is made in one atomic push with the branch, and a
// clone without the option whose remote has plan refs for its branch
// refuses its changes (INVALID_ARGUMENTS) before it writes anything, so
// that no claim pushed to the branch slips past a plan ref. A remote that
// does not take atomic pushes cannot carry plan refs. Only a ref named as
// a plan's is merged. A plan ref carries a whole commit, which the branch
// follows: pushing to the plan refs is pushing to the branch.
//
// # Leases
//
// A clone is one machine, with an id made once and kept in
// .taskmd/gitsync/machine. Each machine shares the claims its agents hold
// on the remote's ref refs/taskmd/leases/<machine>, which only it writes:
// a commit whose message is a small JSON file (one over 1 MiB is ignored
// unread),
//
//	{"machine":"m-0123456789ab","written":"2026-11-23T09:00:00Z",
//	 "tokens":{"docs/plan.md":7},
//	 "leases":[{"document":"docs/plan.md","task":"task-3","agent":"ag_1","token":7,
//	            "expires":"2026-11-23T09:01:00Z"}]}
//
// A lease ends when its agent's does on its machine: the agent's last
// heartbeat plus the agent timeout (plan.WithAgentTimeout, taskmd.toml's
// agent_timeout), which is so the lease length. A claim is pushed with
// its machine's leases in one atomic push; Renew pushes them again with
// the ends the latest heartbeats set, one push per machine however many
// agents it has, never contending with claims and never rewriting the
// plan. Call it about every third of the lease.
//
// A clone pushes its lease ref only while it is the commit this clone
// last pushed there (git push --force-with-lease, in the claim's atomic
// push too), or makes it when the remote has none. A copied clone (a disk
// image, a folder copied with its .taskmd/) keeps the machine file: when
// its push finds the ref moved, or the fetch brought one this clone never
// pushed, another clone uses the id, and this one takes a new id by
// itself (the machine file is rewritten) and pushes its leases there.
// The other clone keeps the id; what the old ref still names of this
// clone's leases lapses (of two leases of one claim, the later end
// stands).
//
// A task whose Assignee names an agent this clone does not know is held
// by another machine while that agent's lease runs. Once it has ended
// (and a quarter of the lease more, below), Claim takes the task over
// and NextTasks offers it, naming the agent; an Assignee that no
// machine's lease names (written by hand) holds until a person removes
// it. A claim's token is above every token any machine gave in the plan
// ("tokens": each claim first raises this clone's to the highest it
// fetched), so the taker's token is above the old holder's, and the old
// holder's later writes are STALE_CLAIM: every write is made on the plan
// as the remote has it and pushed only onto it, so a write that the
// takeover preceded sees the takeover, and one that raced it is pushed
// second, rejected and made again on the merged plan. An agent that
// restarts on its clone (the same id) gets its own claims back: Claim
// answers with the claim it holds, and NextTasks offers those tasks
// first. The same id registered on another clone holds the task only once
// the first clone's lease ended; its claim is shared with its own lease,
// and the older token is STALE_CLAIM.
//
// Leases assume the machines' clocks are at most a quarter of the lease
// apart. A lease is taken over only once the reader's clock is a quarter
// of a lease past its end, so that within that bound the holder's own
// clock has passed the end too (its agent is offline there) before
// another machine takes the task. Fencing does not depend on clocks:
// with clocks further apart a task may be taken over while its holder
// still works on it, but the holder's writes are still refused. A
// machine killed while holding tasks has them taken over at most a lease
// and a quarter after its agents' last heartbeat, by the next claim of
// another machine.
//
// A person's uncommitted edits in the clone are set aside (git stash)
// while a change is made, merged and pushed, and put back afterwards, so
// that only the change is committed and the edits stay uncommitted.
//
// A clone recovers from a crash at any point by itself, on its next call.
// Every call runs under the clone's lock, so a git lock file older than
// the lock, with no git process running in the clone, is a killed
// command's: it is removed. Before it merges or writes, a call records its
// change in .taskmd/gitsync/change (the files and each one's SHA-256,
// written durably, and again with the SHA-256 of what each change wrote
// before it is committed; removed when the call ends): a call that finds
// the record takes the half-made change back (each file of the change and
// of the merge whose content the record names, or the remote's, put back
// as HEAD has it), never setting it aside as a person's edit; a change
// whose commit landed is pushed. Nothing a person wrote is lost: a file
// with any other content was edited while the machine was down and is
// kept as it is, an uncommitted edit set aside and put back as usual (with
// a half-made change under it, which no call commits; so too a change
// killed between its write and its record). The stash of a
// person's edits is recorded before git stash runs, so a crash inside it
// puts the edits back too.
//
// SetUp prepares a repository for taskmd once: package merge's task-aware
// merge as git's merge driver for the task documents (what the taskmd
// command's git-setup does), and the state folder ignored.
//
// A change to a plan git does not track (new and not committed, or
// ignored) is refused with INVALID_ARGUMENTS before anything is written:
// no other machine could see it, and git could not commit it.
//
// Every operation of one clone runs under one workspace lock, across
// goroutines and processes. Git is driven through its command line; a
// git command that fails is GIT_ERROR (worktree.CodeGit), and errors.As
// with a *worktree.GitError gives its arguments, exit code and standard
// error, as for every git failure of the library. A fetch or push that
// fails in the clone itself (objects it cannot write or read, a full
// disk, a corrupt repository) is GIT_ERROR, never offline.
package gitsync
