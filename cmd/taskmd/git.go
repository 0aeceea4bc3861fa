package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/taskmd/taskmd/gitsync"
	"github.com/taskmd/taskmd/internal/git"
	"github.com/taskmd/taskmd/merge"
	"github.com/taskmd/taskmd/taskdoc"
)

// merged is what merge-driver prints with --json.
type merged struct {
	Path      string           `json:"path"`
	Clean     bool             `json:"clean"`
	Conflicts []merge.Conflict `json:"conflicts"`
}

// cmdMergeDriver is git's merge driver: it merges BASE, CURRENT and OTHER
// task by task, writes the result over CURRENT and exits 0 when the merge
// is clean, 4 (MERGE_CONFLICT) when it left conflict markers. A version
// that does not parse is merged by git merge-file, as git would without
// the driver, and stderr (which git shows) says why; a version it cannot
// read leaves CURRENT as it was, with stderr saying which.
func cmdMergeDriver(e *env, args []string) error {
	fs := e.flags("merge-driver")
	ours := fs.String("label-ours", "", "")
	theirs := fs.String("label-theirs", "", "")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 3 || len(pos) > 5 {
		return usagef("usage: taskmd merge-driver BASE CURRENT OTHER [PATH] [MARKER_SIZE]")
	}
	var opts []merge.Option
	if *ours != "" || *theirs != "" {
		opts = append(opts, merge.WithLabels(*ours, *theirs))
	}
	path := pos[1]
	if len(pos) > 3 && pos[3] != "" {
		path = pos[3]
	}
	markerSize := 7
	if len(pos) > 4 {
		n, err := strconv.Atoi(pos[4])
		if err != nil || n < 1 || n > 1024 {
			return usagef("merge-driver: MARKER_SIZE %q is not a number from 1 to 1024", pos[4])
		}
		markerSize = n
		opts = append(opts, merge.WithMarkerSize(n))
	}
	var sides [3][]byte
	for i, name := range []string{"BASE", "CURRENT", "OTHER"} {
		if sides[i], err = os.ReadFile(pos[i]); err != nil {
			return &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Err: err,
				Msg: fmt.Sprintf("merge-driver: %s: cannot read %s (%v): git leaves the file in conflict; merge it by hand", path, name, err)}
		}
	}
	res := merge.File(filepath.ToSlash(path), sides[0], sides[1], sides[2], opts...)
	if res.Fallback != "" {
		// Not merged task by task: take git's own line merge, so that
		// the driver conflicts where git would and nowhere else.
		why, how := res.Fallback, "merged line by line with git merge-file"
		if git, err := gitMergeFile(pos, *ours, *theirs, markerSize); err == nil {
			res = git
		} else {
			how = fmt.Sprintf("git merge-file failed (%v): merged line by line", err)
		}
		fmt.Fprintf(e.stderr, "taskmd merge-driver: %s: %s; %s\n", path, why, how)
	}
	if err := replace(pos[1], res.Bytes); err != nil {
		return &taskdoc.Error{Code: taskdoc.CodeIO, Path: path, Err: err,
			Msg: fmt.Sprintf("merge-driver: %s: cannot write the result over %s (%v): git leaves the file in conflict", path, pos[1], err)}
	}
	out := merged{Path: path, Clean: res.Clean(), Conflicts: res.Conflicts}
	if out.Conflicts == nil {
		out.Conflicts = []merge.Conflict{}
	}
	if err := e.print(out, func(io.Writer) {}); err != nil {
		return err
	}
	if !res.Clean() {
		return &taskdoc.Error{Code: merge.CodeMergeConflict, Path: path, Msg: conflictSummary(res.Conflicts)}
	}
	return nil
}

// gitMergeFile merges pos (BASE, CURRENT, OTHER) as git does without a
// driver, with git merge-file, labelled as merge.File labels its markers;
// the Result's Fallback is kept by the caller. Each "<<<<<<<" line is a
// conflict outside the tasks.
func gitMergeFile(pos []string, ours, theirs string, size int) (merge.Result, error) {
	if ours == "" && theirs == "" {
		ours, theirs = "ours", "theirs"
	}
	cmd := exec.Command("git", "merge-file", "-p", "--marker-size="+strconv.Itoa(size),
		"-L", ours, "-L", "base", "-L", theirs, pos[1], pos[0], pos[2])
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	// Exit 1 to 127: that many conflicts; above, git's own failure.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 128) {
		return merge.Result{}, fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	res := merge.Result{Bytes: out}
	marker := []byte(strings.Repeat("<", size))
	for i, line := range bytes.SplitAfter(out, []byte("\n")) {
		if bytes.HasPrefix(line, marker) && (len(line) == size || line[size] == ' ' || line[size] == '\n' || line[size] == '\r') {
			res.Conflicts = append(res.Conflicts, merge.Conflict{Field: "text", Line: i + 1})
		}
	}
	return res, nil
}

// conflictSummary is "2 conflicts: task x (status, line 12), ..." for the
// error message.
func conflictSummary(cs []merge.Conflict) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		where := "outside the tasks"
		if c.Task != "" {
			where = "task " + c.Task
		}
		parts = append(parts, fmt.Sprintf("%s (%s, line %d)", where, c.Field, c.Line))
	}
	noun := "conflicts"
	if len(cs) == 1 {
		noun = "conflict"
	}
	return fmt.Sprintf("%d %s left with markers: %s", len(cs), noun, strings.Join(parts, "; "))
}

// replace writes data over the file name through a temporary file and a
// rename, so that git never reads half a result; the file keeps its mode.
func replace(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".taskmd-merge-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename: nothing there
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// cmdGitSetup configures the repository of the workspace for taskmd: the
// merge driver in its git config, the .gitattributes lines that use it,
// and .taskmd/ in .gitignore (gitsync.SetUp). Running it again changes
// nothing. The driver runs this binary by its absolute path (links
// resolved), so that merges work whatever PATH git runs with; --command
// names another.
func cmdGitSetup(e *env, args []string) error {
	fs := e.flags("git-setup")
	command := fs.String("command", "", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	driver, err := driverCommand(*command)
	if err != nil {
		return err
	}
	ws, err := e.workspace()
	if err != nil {
		return err
	}
	res, err := gitsync.SetUp(e.ctx, ws, driver)
	if err != nil {
		return err
	}
	return e.print(res, func(w io.Writer) { printSetup(w, res) })
}

// printSetup writes what gitsync.SetUp set and added.
func printSetup(w io.Writer, res gitsync.Setup) {
	fmt.Fprintf(w, "%s = %s\n", git.DriverKey, res.Driver)
	if res.AttributesAdded {
		fmt.Fprintln(w, ".gitattributes: added", strings.Join(git.Attributes, ", "))
	}
	if res.IgnoreStateAdded {
		fmt.Fprintln(w, ".gitignore: added .taskmd/")
	}
}

// driverCommand is the command git runs as the merge driver, as git-setup
// and check --fix set it up: --command when given, else this binary by its
// absolute path (links resolved), so that merges work whatever PATH git
// runs with.
func driverCommand(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	self, err := selfPath()
	if err != nil {
		return "", err
	}
	return shellQuote(self), nil
}

// selfPath is the absolute path of the running binary, symbolic links
// resolved.
func selfPath() (string, error) {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeIO, Err: err,
			Msg: "cannot find the path of this binary (" + err.Error() + "): name it with --command PATH"}
	}
	return self, nil
}

// shellQuote quotes s for sh, which git runs a merge driver with, when it
// holds anything but letters, digits and -_./+,:@%.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
