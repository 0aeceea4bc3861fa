// Package check finds what is wrong with a workspace, the way a person
// breaks one by hand or a crash leaves one, and repairs what it can
// without losing anything.
//
// Run returns Problems, each with a Code, a Severity, the File and the
// Line and Column that show it, a Message and a Hint:
//
//   - in every document (docs/**/*.md and coordinator/active.md), what
//     package editor's Diagnostics reports there, the rule an editor
//     shows as you type: front matter that does not decode, unknown
//     statuses, duplicate slugs, a metadata list after the description,
//     Depends-On entries that name nothing, dependency cycles across
//     documents, claims whose holder is offline, references and workflows
//     that do not exist;
//   - temporary files that crashed writes left (STRAY_TEMP_FILE);
//   - when the root is in a git work tree: .taskmd/ not ignored by git or
//     committed (STATE_NOT_IGNORED), the merge driver not set up in git's
//     config or .gitattributes (MERGE_DRIVER_NOT_SET), or set up with a
//     command that is not found or not executable
//     (MERGE_DRIVER_NOT_RUNNABLE).
//
// Fix repairs the Fixable ones: it sweeps the temporary files, adds the
// .gitignore line and sets up the merge driver (gitsync.SetUp, what the
// taskmd command's git-setup runs). It never edits a document: what is
// wrong there is for a person to decide.
//
//	problems, err := check.Run(ctx, ws)
//	for _, p := range problems {
//		fmt.Println(p) // docs/a.md:12:1: DUPLICATE_TASK: ... (hint: ...)
//	}
//
// Run only reads, and is safe to call while agents work; Fix writes
// through the workspace's locks, as every other writer does.
package check
