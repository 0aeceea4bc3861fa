package archive

// SetBeforeRemove installs f to run between making an archive and removing
// its original, and returns a function that restores the previous hook.
func SetBeforeRemove(f func()) (restore func()) {
	old := beforeRemove
	beforeRemove = f
	return func() { beforeRemove = old }
}
