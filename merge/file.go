package merge

import (
	"path"
	"strings"
)

// File merges three versions of the file at path (relative to the
// repository or the workspace, as git's %P gives it), choosing the merge
// by the kind of file: a task journal (checkpoints/tasks/**.md) entry by
// entry, any other Markdown file (documents, the coordinator list, worker
// checkpoints) by Tasks, which takes a file without a Tasks section line
// by line, and anything else line by line.
func File(name string, base, ours, theirs []byte, opts ...Option) Result {
	p := "/" + strings.TrimPrefix(path.Clean(strings.ReplaceAll(name, "\\", "/")), "/")
	switch {
	case !strings.EqualFold(path.Ext(p), ".md"):
		return mergeLines(base, ours, theirs, opts...)
	case strings.Contains(p, "/checkpoints/tasks/"):
		return journalFile(base, ours, theirs, opts...)
	default:
		return Tasks(base, ours, theirs, opts...)
	}
}
