package taskdoc

import (
	"strings"
)

// Dependency is one entry of a task's Depends-On field: a task of the same
// document ("#slug", Document "") or of another one ("/api/auth.md#slug").
type Dependency struct {
	Document string `json:"document,omitempty"` // "" for the task's own document, else "/api/auth.md"
	Slug     string `json:"slug"`
}

// String returns the dependency as it is written.
func (d Dependency) String() string { return d.Document + "#" + d.Slug }

// Dependencies reads the task's Depends-On field (KeyDependsOn): task
// addresses separated by commas or spaces. An entry that is not a task
// address is INVALID_ADDRESS naming it; a task without the field has
// none.
func (t *Task) Dependencies() ([]Dependency, error) {
	v, ok := t.Field(KeyDependsOn)
	if !ok {
		return nil, nil
	}
	var deps []Dependency
	for _, e := range DependsOnEntries(v) {
		if !e.Valid {
			return nil, &Error{Code: CodeInvalidAddress, Slug: t.Slug,
				Msg: "the " + KeyDependsOn + " entry " + quote(e.Text) + " of task " + quote(t.Slug) +
					" is not a task address (#slug, or /doc.md#slug for another document)"}
		}
		deps = append(deps, e.Dependency)
	}
	return deps, nil
}

// ValidDependencies is t's Depends-On read as Dependencies reads it, but
// passing over the entries that are no task address instead of failing:
// for the questions "does this task wait for that one?", where one
// malformed entry written by hand must not hide the others.
func (t *Task) ValidDependencies() []Dependency {
	v, _ := t.Field(KeyDependsOn)
	var deps []Dependency
	for _, e := range DependsOnEntries(v) {
		if e.Valid {
			deps = append(deps, e.Dependency)
		}
	}
	return deps
}

// DependsOnEntry is one entry of a Depends-On value, where it is written:
// Text is value[Start:End]. Valid reports whether it is a task address,
// read into Dependency.
type DependsOnEntry struct {
	Text       string     `json:"text"`
	Start      int        `json:"-"`
	End        int        `json:"-"`
	Valid      bool       `json:"valid"`
	Dependency Dependency `json:"dependency"`
}

// DependsOnEntries splits a Depends-On value at commas and blanks and reads
// each entry, as Dependencies does.
func DependsOnEntries(value string) []DependsOnEntry {
	var out []DependsOnEntry
	sep := func(c byte) bool { return c == ',' || c == ' ' || c == '\t' }
	for i := 0; i < len(value); {
		for i < len(value) && sep(value[i]) {
			i++
		}
		start := i
		for i < len(value) && !sep(value[i]) {
			i++
		}
		if i > start {
			d, ok := parseDependency(value[start:i])
			out = append(out, DependsOnEntry{Text: value[start:i], Start: start, End: i, Valid: ok, Dependency: d})
		}
	}
	return out
}

// parseDependency reads one Depends-On entry: "#slug" or "/doc.md#slug".
func parseDependency(item string) (Dependency, bool) {
	if slug, ok := strings.CutPrefix(item, "#"); ok && slug != "" && !strings.Contains(slug, "#") {
		return Dependency{Slug: slug}, true
	}
	a, err := ParseAddress(item)
	if err != nil || a.Slug == "" {
		return Dependency{}, false
	}
	return Dependency{Document: a.Path, Slug: a.Slug}, true
}
