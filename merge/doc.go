// Package merge is the task-aware three-way merge of taskmd documents:
// task by task and field by field, so that two branches that changed
// different tasks of one document, or different fields of one task, meet
// without a conflict and the result still parses.
//
// # Semantics
//
// Tasks merges a document with a Tasks section. The text before the first
// task and after the section merges line by line (as git merge-file
// does). Then, per task, matched by slug (a task renamed on one
// side, its text otherwise the same, is still matched):
//
//   - changed on one side only: that side's bytes, exactly;
//   - added on one side: kept, where that side put it; added on both at
//     the same place: ours first, then theirs;
//   - removed on one side and unchanged on the other: removed;
//   - removed on one side and changed on the other, or added on both with
//     different text (the same title): a conflict around the whole task,
//     never a silent duplicate;
//   - changed on both: field by field. Status goes to the side further on
//     (pending < planning < in_progress, paused, blocked < failed <
//     completed, skipped), so a completion wins over a task still in
//     progress; Completed, Error and Request follow the status that won;
//     Note keeps both ("ours; theirs"); any other field conflicts only when
//     both set it differently. The title and the body (line by line)
//     conflict only where both changed the same lines differently. The
//     merged fields are written in ours' form by taskdoc's own edits.
//
// Conflicts are standard markers ("<<<<<<< ours", "=======", ">>>>>>>
// theirs"), with a blank line where Markdown would otherwise read
// "=======" as the underline of a heading, so that the result always parses
// and every task of either side is in it; Result.Conflicts lists them with
// their task, field and line. The merge reads its result back and, should
// it ever not hold every task, merges line by line instead. Should the
// clean merge of both sides' lines leave a task's metadata list below its
// description, where it is not read (taskdoc's MISPLACED_METADATA), though
// neither side has it there, that task is written as a conflict around
// the whole task instead of a clean merge that drops its metadata.
//
// A task journal (package journal) merges entry by entry: both sides'
// new entries are kept, theirs numbered after ours'. File picks the merge
// by path: journals, other Markdown (documents, the coordinator list,
// worker checkpoints) by Tasks, anything else line by line. None of them fails: a version that
// does not parse as a task document merges line by line, and
// Result.Fallback says why.
//
// # As a git merge driver
//
// The taskmd command (cmd/taskmd) runs File as git's merge driver:
//
//	taskmd git-setup
//
// sets merge.taskmd.driver to "taskmd merge-driver %O %A %B %P %L" in the
// repository's config and adds to .gitattributes:
//
//	docs/**/*.md merge=taskmd
//	coordinator/*.md merge=taskmd
//	checkpoints/**/*.md merge=taskmd
package merge
