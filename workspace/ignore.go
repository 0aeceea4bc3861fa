package workspace

import (
	"bytes"
	"context"
)

// StateDir is the folder of the library's state that is not content: lock
// files, agents, claims. It is never committed (see IgnoreState).
const StateDir = ".taskmd"

// ignoreLine is the line IgnoreState appends.
const ignoreLine = StateDir + "/"

// IgnoreState makes git ignore StateDir: it appends the line ".taskmd/" to
// <root>/.gitignore, creating the file if it is missing, unless a line
// there ignores it already (".taskmd", ".taskmd/", "/.taskmd/", ".taskmd/*"
// or ".taskmd/**", with or without the leading "/", and not undone by a
// later "!" line). The rest of the file keeps its bytes; the new line ends
// as the file's lines do ("\r\n" when it has any), after a line ending
// added to a last line without one. added reports whether it wrote; a
// retry writes nothing.
func (w *Workspace) IgnoreState(ctx context.Context) (added bool, err error) {
	return w.ensureLines(ctx, ".gitignore", []string{ignoreLine}, func(current []byte, _ string) bool {
		return ignoresState(current)
	})
}

// EnsureLines appends to the file name each of lines that it does not
// have yet as a line of its own (compared without the line ending and
// trailing blanks), creating the file if it is missing: the way to add a
// rule to a .gitignore or .gitattributes once. The file's other bytes stay
// as they were; new lines end as the file's lines do ("\r\n" when it has
// any), after a line ending added to a last line without one. added
// reports whether it wrote; a retry writes nothing.
func (w *Workspace) EnsureLines(ctx context.Context, name string, lines ...string) (added bool, err error) {
	return w.ensureLines(ctx, name, lines, hasLine)
}

// ensureLines is EnsureLines with present deciding whether current has a
// line already.
func (w *Workspace) ensureLines(ctx context.Context, name string, lines []string, present func(current []byte, line string) bool) (added bool, err error) {
	_, err = w.Update(ctx, name, func(current []byte, exists bool) ([]byte, error) {
		nl := "\n"
		if bytes.Contains(current, []byte("\r\n")) {
			nl = "\r\n"
		}
		next, wrote := current, false
		for _, line := range lines {
			if present(next, line) {
				continue
			}
			if !wrote {
				next, wrote = bytes.Clone(current), true
			}
			if len(next) > 0 && next[len(next)-1] != '\n' {
				next = append(next, nl...)
			}
			next = append(next, line+nl...)
		}
		added = wrote
		if !wrote {
			return nil, nil
		}
		return next, nil
	})
	if err != nil {
		return false, err
	}
	return added, nil
}

// hasLine reports whether file has line as a line of its own, ignoring
// line endings and trailing blanks.
func hasLine(file []byte, line string) bool {
	want := bytes.TrimRight([]byte(line), " \t")
	for l := range bytes.Lines(file) {
		if bytes.Equal(bytes.TrimRight(bytes.TrimRight(l, "\r\n"), " \t"), want) {
			return true
		}
	}
	return false
}

// ignoresState reports whether a .gitignore ignores StateDir: the last of
// its lines that names it is not a negation.
func ignoresState(gitignore []byte) bool {
	ignored := false
	for line := range bytes.Lines(gitignore) {
		line = bytes.TrimRight(line, "\r\n")
		line = bytes.TrimRight(line, " \t") // git drops trailing blanks
		negated := bytes.HasPrefix(line, []byte("!"))
		if negated {
			line = line[1:]
		}
		line = bytes.TrimPrefix(line, []byte("/"))
		switch string(line) {
		case StateDir, StateDir + "/", StateDir + "/*", StateDir + "/**":
			ignored = !negated
		}
	}
	return ignored
}
