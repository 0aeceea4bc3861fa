package merge

import "github.com/taskmd/taskmd/taskdoc"

// CodeMergeConflict: a merge left conflicts that a person must resolve
// (Result.Clean is false); the taskmd merge driver exits 4 with it, and
// git records a conflict.
const CodeMergeConflict taskdoc.Code = "MERGE_CONFLICT"
