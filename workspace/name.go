package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/taskmd/taskmd/taskdoc"
)

// lockDir holds one lock file per locked name. It is library state, so
// callers may not read or write inside it: replacing a lock file would
// silently break mutual exclusion.
const lockDir = StateDir + "/locks"

// Temporary files are named ".tmp-<target>-<random>": a fixed 38 bytes
// whatever the target's name, so that any name legal on the file system
// (up to 255 bytes for one element) can be written; the leading dot hides
// them from most listings and they never end in ".md". <target> is 16 hex
// digits of the SHA-256 of the target's base name in lower case, which
// attributes a temporary file to the names that share its lock (lockNames
// ignores case); <random> is 16 random hex digits.
const (
	tempPrefix = ".tmp-"
	tempHexLen = 16
	tempLen    = len(tempPrefix) + tempHexLen + 1 + tempHexLen
)

// legacyTempMarker separated the target's base name from the random suffix
// in the temporary names of earlier versions (".auth.md.tmp-<16 hex>"),
// which could exceed the file system's limit. Files a crash left with such
// names are still recognised, so they stay hidden and get swept.
const legacyTempMarker = ".tmp-"

// checkName validates a slash-separated, root-relative name before anything
// touches the disk. Everything refused here would either leave the root or
// mean something different on another operating system.
func checkName(name string) error {
	refuse := func(why string) error {
		return &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: name,
			Msg: fmt.Sprintf("path %q is refused: %s", name, why)}
	}
	switch {
	case name == "":
		return refuse("empty path")
	case strings.IndexByte(name, 0) >= 0:
		return refuse("contains a NUL byte")
	case strings.IndexByte(name, '\\') >= 0:
		return refuse("contains a backslash")
	case name[0] == '/':
		return refuse("absolute path")
	}
	if why := taskdoc.PathLimit(name); why != "" {
		shown := name
		if len(shown) > 80 {
			shown = shown[:80] + "..."
		}
		return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Path: name,
			Msg: fmt.Sprintf("path %q is refused: %s", shown, why)}
	}
	for _, elem := range strings.Split(name, "/") {
		switch elem {
		case "":
			return refuse("empty path element")
		case ".", "..":
			return refuse(fmt.Sprintf("%q element", elem))
		}
	}
	if reserved(name) {
		return refuse("reserved for lock files")
	}
	return nil
}

// checkDir validates a directory name for List and Walk, where "." (or "")
// means the root itself.
func checkDir(dir string) (string, error) {
	if dir == "" || dir == "." {
		return ".", nil
	}
	return dir, checkName(dir)
}

// join returns dir/base for a root-relative dir, where dir may be ".".
func join(dir, base string) string {
	if dir == "." {
		return base
	}
	return dir + "/" + base
}

// lockedTempName is the temporary name a writer holding name's lock
// uses: always the same, so that a crash's leftover is the file the next
// write of name finds in its way and removes, without listing the folder.
func lockedTempName(name string) string {
	dir, base := path.Split(name)
	return dir + tempPrefix + tempTarget(base) + "-" + strings.Repeat("0", tempHexLen)
}

// tempTarget is the part of a temporary name that names its target.
func tempTarget(base string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(base)))
	return hex.EncodeToString(sum[:tempHexLen/2])
}

// isTemp reports whether a base name is one of our temporary files: a
// leftover of a crash between creating and renaming it, or a write in
// progress.
func isTemp(base string) bool {
	_, ok := tempOf(base)
	return ok || isLegacyTemp(base)
}

// isTempOf reports whether base is a temporary file of the target base name
// or of a name differing from it only in case (which takes the same lock).
func isTempOf(base, target string) bool {
	if t, ok := tempOf(base); ok {
		return t == tempTarget(target)
	}
	return isLegacyTemp(base) && len(base) == len(target)+1+len(legacyTempMarker)+tempHexLen &&
		strings.HasPrefix(base, "."+target+legacyTempMarker)
}

// tempOf returns the target part of a temporary name in the current format.
func tempOf(base string) (target string, ok bool) {
	if len(base) != tempLen || !strings.HasPrefix(base, tempPrefix) || base[tempLen-tempHexLen-1] != '-' {
		return "", false
	}
	target = base[len(tempPrefix) : tempLen-tempHexLen-1]
	return target, isLowerHex(target) && isLowerHex(base[tempLen-tempHexLen:])
}

// isLegacyTemp reports whether base is a temporary name of an earlier
// version: "." + target + ".tmp-" + 16 hex digits.
func isLegacyTemp(base string) bool {
	i := strings.LastIndex(base, legacyTempMarker)
	if !strings.HasPrefix(base, ".") || i < 1 {
		return false
	}
	suffix := base[i+len(legacyTempMarker):]
	if len(suffix) != tempHexLen {
		return false
	}
	_, err := hex.DecodeString(suffix)
	return err == nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

var lockEscaper = strings.NewReplacer("%", "%25", "/", "%2F")

// lockFileName maps a name to its lock file in one flat directory, so lock
// files never need directories of their own and two names can never share a
// lock file: '%' and '/' are escaped, and a name too long for one path
// element is replaced by its hash behind "%%", which no escaped name contains.
func lockFileName(name string) string {
	escaped := lockEscaper.Replace(name)
	if len(escaped)+len(".lock") > 255 {
		escaped = "%%" + string(VersionOf([]byte(name)))
	}
	return lockDir + "/" + escaped + ".lock"
}

// checkUTF8 refuses invalid UTF-8 in Markdown files, pointing at the first
// bad byte as taskdoc counts lines.
func checkUTF8(name string, data []byte) error {
	if !strings.HasSuffix(name, ".md") {
		return nil
	}
	err := taskdoc.CheckUTF8(data)
	var e *taskdoc.Error
	if errors.As(err, &e) {
		e.Path, e.Msg = name, fmt.Sprintf("%s is not valid UTF-8", name)
	}
	return err
}

// checkSize refuses data over the workspace's size limit.
func (w *Workspace) checkSize(name string, size int64) error {
	if size <= w.opts.maxFileSize {
		return nil
	}
	return &taskdoc.Error{Code: taskdoc.CodeFileTooLarge, Path: name,
		Msg: fmt.Sprintf("%s is %d bytes, over the limit of %d", name, size, w.opts.maxFileSize)}
}

// errPathEscapes is the text of os.Root's unexported error for a name or a
// symbolic link that resolves outside the root.
const errPathEscapes = "path escapes from parent"

// fail turns an error from the file system into a *taskdoc.Error that names
// the path; errors.Is still reaches the cause (fs.ErrNotExist, ...).
func fail(name, op string, err error) error {
	var te *taskdoc.Error
	if errors.As(err, &te) {
		return err
	}
	var pe *os.PathError
	var le *os.LinkError
	var cause error
	switch {
	case errors.As(err, &pe):
		cause = pe.Err
	case errors.As(err, &le):
		cause = le.Err
	}
	switch {
	case cause != nil && cause.Error() == errPathEscapes:
		return &taskdoc.Error{Code: taskdoc.CodeOutsideRoot, Path: name, Err: err,
			Msg: fmt.Sprintf("%s: %s leads outside the workspace root", op, name)}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: name, Err: notExist{err},
			Msg: fmt.Sprintf("%s: %s does not exist", op, name)}
	}
	return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err,
		Msg: fmt.Sprintf("%s %s", op, name)}
}

// notExist makes a "not a directory" failure match fs.ErrNotExist too: for
// the caller, docs/a.md/b.md does not exist whatever a.md is.
type notExist struct{ err error }

func (e notExist) Error() string        { return e.err.Error() }
func (e notExist) Unwrap() error        { return e.err }
func (e notExist) Is(target error) bool { return target == fs.ErrNotExist }

// symlinkRefused is the error for a symbolic link as the final element.
func symlinkRefused(name string) error {
	return &taskdoc.Error{Code: taskdoc.CodeSymlink, Path: name,
		Msg: fmt.Sprintf("%s is a symbolic link; taskmd does not follow links to documents", name)}
}

// ctxErr wraps a cancelled context so that every error carries a code while
// errors.Is(err, context.Canceled) keeps working.
func ctxErr(ctx interface{ Err() error }, name string) error {
	if err := ctx.Err(); err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: name, Err: err,
			Msg: fmt.Sprintf("%s: operation abandoned", name)}
	}
	return nil
}
