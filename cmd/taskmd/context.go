package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/taskmd/taskmd/taskcontext"
)

// writeContext writes what a start loaded beside the task: the workflow
// prompt's name, the documents referenced (indented by depth) and what is
// missing. The texts themselves are in the --json output.
func writeContext(w io.Writer, wf *taskcontext.Workflow, refs []taskcontext.LoadedDocument, missing []string) {
	if wf != nil {
		fmt.Fprintf(w, "\nworkflow: %s\n", wf.Name)
	}
	if len(refs) > 0 {
		fmt.Fprintln(w, "\nreferences:")
		writeReferences(w, refs)
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "\nmissing: %s\n", strings.Join(missing, ", "))
	}
}

func writeReferences(w io.Writer, refs []taskcontext.LoadedDocument) {
	for _, r := range refs {
		fmt.Fprintf(w, "%s%s  %s\n", strings.Repeat("  ", r.Depth), r.Path, r.Title)
		writeReferences(w, r.Children)
	}
}
