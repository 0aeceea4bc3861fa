package journal

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// normalise checks e and returns it in the form Add writes and List reads
// back (see Add).
func normalise(e Entry) (Entry, error) {
	typ, err := ParseType(string(e.Type))
	if err != nil {
		return Entry{}, err
	}
	out := Entry{Type: typ}
	if err := mdtext.CheckText("summary", e.Summary, true); err != nil {
		return Entry{}, err
	}
	out.Summary = plaintext.FoldLine(e.Summary)
	if out.Summary == "" {
		return Entry{}, invalid("a checkpoint needs a summary: one line saying what happened")
	}
	if err := mdtext.CheckText("detail", e.Detail, true); err != nil {
		return Entry{}, err
	}
	out.Detail = strings.ReplaceAll(strings.ReplaceAll(e.Detail, "\r\n", "\n"), "\r", "\n")
	if out.Agent, err = mdtext.OneLine("agent", e.Agent); err != nil {
		return Entry{}, err
	}
	if out.Key, err = mdtext.OneLine("key", e.Key); err != nil {
		return Entry{}, err
	}
	for i, f := range e.FilesChanged {
		name, err := mdtext.OneLine(fmt.Sprintf("file %d", i+1), f)
		if err != nil {
			return Entry{}, err
		}
		if name == "" {
			return Entry{}, invalid(fmt.Sprintf("file %d of the changed files is empty", i+1))
		}
		out.FilesChanged = append(out.FilesChanged, name)
	}
	return out, nil
}

func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}
