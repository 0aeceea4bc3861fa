package mdtext

import (
	"fmt"
	"strings"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/taskdoc"
)

// OneLine checks a one-line value and returns it trimmed.
func OneLine(what, s string) (string, error) {
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
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: fmt.Sprintf("the %s must be one line; it has a line break at byte %d", what, i)}
	}
	return nil
}

// FoldedLine checks s (CheckText, line breaks allowed) and folds it onto
// one line (plaintext.FoldLine): the rule of a checkpoint's pivot reason,
// and so of the reason a pivot request records.
func FoldedLine(what, s string) (string, error) {
	if err := CheckText(what, s, true); err != nil {
		return "", err
	}
	return plaintext.FoldLine(s), nil
}
