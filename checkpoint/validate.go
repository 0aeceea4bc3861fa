package checkpoint

import (
	"fmt"
	"strings"

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
	if err := CheckText("summary", e.Summary, true); err != nil {
		return Entry{}, err
	}
	out.Summary = taskdoc.FoldLine(e.Summary)
	if out.Summary == "" {
		return Entry{}, invalid("a checkpoint needs a summary: one line saying what happened")
	}
	if err := CheckText("detail", e.Detail, true); err != nil {
		return Entry{}, err
	}
	out.Detail = strings.ReplaceAll(strings.ReplaceAll(e.Detail, "\r\n", "\n"), "\r", "\n")
	if out.Agent, err = oneLine("agent", e.Agent); err != nil {
		return Entry{}, err
	}
	if out.Key, err = oneLine("key", e.Key); err != nil {
		return Entry{}, err
	}
	for i, f := range e.FilesChanged {
		name, err := oneLine(fmt.Sprintf("file %d", i+1), f)
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

// oneLine checks a one-line value and returns it trimmed.
func oneLine(what, s string) (string, error) {
	if err := CheckText(what, s, false); err != nil {
		return "", err
	}
	return strings.TrimSpace(s), nil
}

// CheckText is the rule of every text a worker checkpoint, a pivot or a
// clarification stores: the rule of document text (taskdoc.CheckText:
// INVALID_UTF8, CONTROL_CHARACTER but tab and line breaks), and no line
// breaks unless lines is true (INVALID_ARGUMENTS). The errors name the
// text as what.
func CheckText(what, s string, lines bool) error {
	if err := taskdoc.CheckText(what, s); err != nil {
		return err
	}
	if i := strings.IndexAny(s, "\r\n"); i >= 0 && !lines {
		return invalid(fmt.Sprintf("the %s must be one line; it has a line break at byte %d", what, i))
	}
	return nil
}

func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}
