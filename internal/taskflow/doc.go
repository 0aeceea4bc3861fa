// Package taskflow is the task flow that the subagent and coordinator
// systems share: the checks and status moves of create, edit, start and
// complete, the status filter of list, the options and the clock, the
// error wrapping that names a caller's address, and the policy for loading
// a started task's context.
//
// Each system supplies only what is its own: subagent its address rule
// (a document under docs/ and a #slug), coordinator its one list, which
// task comes next, and the archive step. Rules written here hold for both,
// so they cannot drift apart.
//
// # Status moves
//
// Every write of a Status goes through the status machine, the moves
// table of this package (CheckMove, MoveTarget), which turns a refused
// move into the INVALID_TRANSITION message an agent can act on.
//
// # Dependencies
//
// A Resolver reads the tasks Depends-On fields name: those of the document
// a call holds from its parse, others without their locks. CheckReady
// refuses to take up a task whose dependencies are not done (TASK_BLOCKED)
// or records a person's override; CheckLinks refuses a dependency on a task
// of another document that does not exist, or a cycle across documents;
// CheckRename refuses to rename a task that tasks of other documents
// depend on (Dependents finds them, as for Remove).
//
// # Start context
//
// A started task's context (its workflow prompt, the list's Main-Workflow,
// the documents it references) is other files. It is loaded outside the
// document's lock, from an unlocked read of the document (Preload), so a
// slow or failing load never holds the lock and never leaves a task
// started: a load that fails fails the call before anything is written.
// Under the lock the system decides again on the current bytes; when the
// task it starts reads the same context inputs (taskcontext.Request.Inputs)
// the preloaded context is used, otherwise it is loaded there, before the
// write, so the context always belongs to the task as written.
//
// # Concurrency
//
// Everything here is stateless or immutable; the systems hold the locks.
package taskflow
