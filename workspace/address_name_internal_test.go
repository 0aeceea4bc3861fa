package workspace

import (
	"testing"

	"github.com/taskmd/taskmd/taskdoc"
)

// FuzzAddressNamesPassTheNameCheck pins that an address is checked once:
// every address taskdoc.ParseAddress accepts names a file that the
// workspace's own check of a name (checkName, the guard of its API for
// callers that pass raw names) accepts too. So the task systems, which
// parse an address once, never see a second refusal with another code for
// the same input.
func FuzzAddressNamesPassTheNameCheck(f *testing.F) {
	for _, s := range []string{
		"/api/auth.md#implement-jwt-signing", "api/auth.md", "/coordinator/tasks.md#a",
		"/archived/2026-01-01.md", "/.taskmd/locks/x.md", "/a/../b.md", "/a//b.md", "/a\\b.md",
		"/" + string(make([]byte, 300)) + ".md", "/é/ü.md#x", "/CON.md", "/a/.git/x.md",
		"/docs/docs/x.md", "/.taskmd.md", "/a b/c.md#d",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := taskdoc.ParseAddress(s)
		if err != nil {
			return
		}
		if err := checkName(a.File()); err != nil {
			t.Fatalf("ParseAddress(%q) accepts it, but the workspace refuses its file %q: %v", s, a.File(), err)
		}
	})
}
