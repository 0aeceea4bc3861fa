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
	_, err = w.Update(ctx, ".gitignore", func(current []byte, exists bool) ([]byte, error) {
		if ignoresState(current) {
			return nil, nil
		}
		added = true
		nl := "\n"
		if bytes.Contains(current, []byte("\r\n")) {
			nl = "\r\n"
		}
		next := bytes.Clone(current)
		if len(next) > 0 && next[len(next)-1] != '\n' {
			next = append(next, nl...)
		}
		return append(next, ignoreLine+nl...), nil
	})
	if err != nil {
		return false, err
	}
	return added, nil
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
