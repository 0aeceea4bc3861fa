package taskdoc

// The metadata keys the library reads and writes. Keys match ignoring case
// (Task.Field) and keep the spelling a document already uses; these are the
// spellings written into a task that has no such field yet.
const (
	// KeyStatus holds the task's Status (see Status). A task without it
	// is pending.
	KeyStatus = "Status"
	// KeyWorkflow names the workflow prompt (workflows/<name>.md) that a
	// worker follows for this task.
	KeyWorkflow = "Workflow"
	// KeyMainWorkflow names the orchestration workflow of a coordinator
	// list; the list's first task carries it.
	KeyMainWorkflow = "Main-Workflow"
	// KeyCompleted is the date (YYYY-MM-DD) Complete records.
	KeyCompleted = "Completed"
	// KeyNote is the note Complete records: what was done.
	KeyNote = "Note"
)

// KeyRequest holds the request key of the call that completed a coordinator
// task (coordinator.CompleteOptions.RequestKey), so that a retry of that
// call is answered with its result instead of completing the next task.
const KeyRequest = "Request"

// KeyError holds the error text of a failed task (a status update to
// failed records it).
const KeyError = "Error"

// KeyDependsOn lists the tasks a task waits for: task addresses, "#slug"
// in the same document or "/doc.md#slug" in another, separated by commas.
const KeyDependsOn = "Depends-On"

// KeyAssignee names the agent holding the task's claim (package plan): the
// claim's holder, shown in the plan for people; the claim itself, with its
// fencing token, is kept under .taskmd/claims.
const KeyAssignee = "Assignee"

// KeyApproach holds the approach an agent recorded for the task (package
// plan, the agent protocol's task_set_plan), on one line.
const KeyApproach = "Plan"

// KeyCheckpoint points a paused task at the worker checkpoint that holds
// its progress (a workspace path, "checkpoints/workers/<id>/000003.md"),
// from which a new worker resumes it.
const KeyCheckpoint = "Checkpoint"

// KeyOverride records that a person wrote over an agent's claim of the
// task (package plan, Claimant.Override): who did, whose claim it ended,
// and when. It is kept as a record; nothing reads it back as a rule.
const KeyOverride = "Override"

// KeyForced records that a person took the task up (started, moved or
// completed it) before its dependencies were done, overriding the check
// that refuses it (TASK_BLOCKED), and which dependencies were not done
// then. A task with the field is not checked again.
const KeyForced = "Forced"
