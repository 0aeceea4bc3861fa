package archive

import "github.com/taskmd/taskmd/internal/hooks"

// SetBeforeRemove installs f to run between making an archive and removing
// its original, and returns a function that restores the previous hook.
func SetBeforeRemove(f func()) (restore func()) {
	old := hooks.BeforeRemoveUnchanged
	hooks.BeforeRemoveUnchanged = f
	return func() { hooks.BeforeRemoveUnchanged = old }
}
