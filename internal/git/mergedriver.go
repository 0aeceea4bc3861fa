package git

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
