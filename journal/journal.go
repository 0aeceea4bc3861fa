package journal

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taskmd/taskmd/internal/claims"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// folderTasks is the folder of task journals, one folder per plan document
// (named as the document's path) and one file per task. Worker checkpoints
// live beside it, in checkpoints/workers (package checkpoint), so that no
// document name can make a journal clash with them.
const folderTasks = "checkpoints/tasks"

// Type is the kind of a journal entry, from the agent protocol's checkpoint_add.
// Types label entries for people and for List's filter; none of them
// changes the task in its plan document.
type Type string

// The entry types.
const (
	TypePlan     Type = "plan"     // the approach the agent will take
	TypeProgress Type = "progress" // a step done
	TypeDecision Type = "decision" // a choice made, and why
	TypeError    Type = "error"    // something failed
	TypeRecovery Type = "recovery" // work resumed after a failure or a lost context
	TypeComplete Type = "complete" // the work is done
)

// Types are the entry types, in the order the agent protocol lists them.
var Types = []Type{TypePlan, TypeProgress, TypeDecision, TypeError, TypeRecovery, TypeComplete}

// ParseType reads a type the way a caller may write it: case and
// surrounding space do not matter (" Progress " is TypeProgress). Any other
// value, the empty string included, is INVALID_ARGUMENTS.
func ParseType(s string) (Type, error) {
	t := Type(strings.ToLower(strings.TrimSpace(s)))
	if slices.Contains(Types, t) {
		return t, nil
	}
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return "", &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
		Msg: fmt.Sprintf("unknown checkpoint type %q: use one of %s", s, strings.Join(names, ", "))}
}

// Entry is one checkpoint of a task's journal.
type Entry struct {
	Sequence     int       `json:"sequence"`                // 1, 2, 3, ... per task; assigned by Add
	Time         time.Time `json:"time"`                    // UTC, whole seconds; assigned by Add from the clock
	Agent        string    `json:"agent,omitempty"`         // who wrote it; optional, one line
	Type         Type      `json:"type"`                    // required
	Summary      string    `json:"summary"`                 // required; one line (Add joins line breaks)
	Detail       string    `json:"detail,omitempty"`        // optional free text, any number of lines (JSON a caller serialised, a log excerpt)
	FilesChanged []string  `json:"files_changed,omitempty"` // optional; one line each
	Key          string    `json:"key,omitempty"`           // optional retry key: Add with a key the journal holds writes nothing
}

// Query selects the entries List returns.
type Query struct {
	Limit         int    // at most this many (the newest); 0 is all
	Types         []Type // only these types (read with ParseType); none is all
	SinceSequence int    // only entries with a Sequence greater than this
}

// Journal gives access to the task journals of one workspace. It keeps no
// state of its own, so any number of Journal values, goroutines and
// processes may use one workspace at once.
type Journal struct {
	ws  *workspace.Workspace
	cfg taskflow.Config
}

// An Option configures a Journal: WithClock. The zero Option is
// ignored.
type Option struct{ o taskflow.Option }

func config(opts []Option) taskflow.Config {
	return taskflow.Configure(opts, func(o Option) taskflow.Option { return o.o })
}

// WithClock sets the clock that dates entries (in UTC, to the second). The
// default is time.Now; a nil clock is ignored.
func WithClock(now func() time.Time) Option { return Option{taskflow.WithClock(now)} }

// New returns the task journals of ws.
func New(ws *workspace.Workspace, opts ...Option) *Journal {
	return &Journal{ws: ws, cfg: config(opts)}
}

// Add appends e to the journal of task ("/api/auth.md#implement-jwt-signing")
// and returns it as written, with its Sequence (one more than the highest
// in the journal) and Time (the clock's, in UTC, to the second); the
// Sequence and Time of e are ignored. The task must exist in its document,
// which is read without its lock and never written.
//
// Add normalises e before anything is read: the type is read with
// ParseType; the summary's line breaks and runs of spaces become one space
// and it is trimmed; the agent, key and file names are trimmed; line
// endings in the detail (CRLF, CR) become LF. An empty summary or file
// name, an agent, key or file name of more than one line, and an unknown
// type are INVALID_ARGUMENTS; invalid UTF-8 is INVALID_UTF8 and a control
// character other than tab and line breaks CONTROL_CHARACTER.
//
// Retries: when e.Key is set and the journal holds an entry with that key,
// Add writes nothing and returns that entry, so a call repeated after its
// answer was lost adds the entry once. The repeated call must carry the
// same entry: one whose type, agent, summary, detail or files differ from
// the recorded entry's is CONFLICT, as the key then names two entries.
//
// A journal that does not read (see the package doc) is PARSE_ERROR, and
// Add writes nothing until a person repairs it.
func (j *Journal) Add(ctx context.Context, task string, e Entry) (Entry, error) {
	return j.add(ctx, task, e, nil)
}

// AddClaimed is Add for an agent that works on the task under a claim
// (package plan): agent, the claimant, records e (e.Agent is set to it) and
// presents token, the fencing token of its claim on the task, or 0 when it
// holds none. Under the lock of the claims of the task's document, the entry
// is added only if token is the task's current claim held by agent, or if it
// is 0 and no agent holds the task; otherwise it is STALE_CLAIM and nothing
// is written (the claim was taken over, released or replaced, or another
// agent holds the task, or the task is under way: see claims.File.Check).
// A keyed retry (e.Key) is answered as Add answers it. An empty agent is
// INVALID_ARGUMENTS.
func (j *Journal) AddClaimed(ctx context.Context, task string, e Entry, agent string, token int64) (Entry, error) {
	switch {
	case strings.TrimSpace(agent) == "":
		return Entry{}, invalid("a claimed checkpoint needs the agent that holds the claim")
	case strings.TrimSpace(agent) != agent:
		return Entry{}, invalid(fmt.Sprintf("the agent id %q has surrounding space", agent))
	case token < 0:
		return Entry{}, invalid(fmt.Sprintf("claim token %d is negative: tokens start at 1", token))
	}
	e.Agent = agent
	return j.add(ctx, task, e, &claimFence{agent: agent, token: token})
}

// claimFence is the claim a claimant's write presents.
type claimFence struct {
	agent string
	token int64
}

func (j *Journal) add(ctx context.Context, task string, e Entry, f *claimFence) (Entry, error) {
	var pass func() error // set by addFenced: the task and the fence, for a new entry
	t, err := parseTask(task)
	if err != nil {
		return Entry{}, err
	}
	e, err = normalise(e)
	if err != nil {
		return Entry{}, t.at(err)
	}
	var added Entry
	apply := func(current []byte) ([]byte, error) {
		entries, err := parseJournal(current, t.file)
		if err != nil {
			return nil, err
		}
		if e.Key != "" {
			for _, old := range entries {
				if old.Key != e.Key {
					continue
				}
				if !sameContent(old, e) {
					return nil, &taskdoc.Error{Code: taskdoc.CodeConflict,
						Msg: fmt.Sprintf("key %q already names entry %d of %s, which holds another entry: repeat a call with the entry it sent, or use a new key for a new entry", e.Key, old.Sequence, t.address)}
				}
				added = old
				return nil, nil
			}
		}
		// A retry is answered above even once the task left its plan; a
		// new entry needs the task, and the fence's leave.
		if err := pass(); err != nil {
			return nil, err
		}
		e.Sequence = 1
		if len(entries) > 0 {
			if last := entries[len(entries)-1].Sequence; last == math.MaxInt {
				return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
					Msg: fmt.Sprintf("%s ends with entry %d, which no entry can follow", t.file, last)}
			} else {
				e.Sequence = last + 1
			}
		}
		e.Time = j.cfg.Now().UTC().Truncate(time.Second)
		if y := e.Time.Year(); y < 0 || y > 9999 {
			return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
				Msg: fmt.Sprintf("the clock reads %v, which a journal cannot record (years 0 to 9999)", e.Time)}
		}
		if len(current) == 0 { // no journal yet, or one a person emptied
			current = []byte(journalTitle(t.address) + "\n")
		}
		added = e
		return appendEntry(current, e), nil
	}
	if f == nil {
		f = &claimFence{} // a caller that is not an agent
	}
	if err = j.addFenced(ctx, t, f, apply, &pass); err != nil {
		return Entry{}, t.at(err)
	}
	return added, nil
}

// addFenced runs apply on the journal under the locks of the journal and
// of the claims of its document, with pass set to what a new entry needs:
// the task in its plan, and the fence (claims.File.Check) letting f
// through. Both are read under the claims file's lock, and a claim and
// its Assignee change together under that lock and the plan's, so a claim
// made by another agent before this write is always seen; the plan is
// parsed from the workspace's cache when it is unchanged.
func (j *Journal) addFenced(ctx context.Context, t target, f *claimFence, apply func([]byte) ([]byte, error), pass *func() error) error {
	claimsFile, err := claims.Name(j.ws, t.plan)
	if err != nil {
		return err
	}
	return j.ws.Lock(ctx, []string{t.file, claimsFile}, func(tx *workspace.Tx) error {
		*pass = func() error {
			task, err := j.planTask(ctx, t)
			if err != nil {
				return err
			}
			state, _, err := claims.Read(tx, t.plan, claimsFile)
			if err != nil {
				return err
			}
			assignee, _ := task.Field(taskdoc.KeyAssignee)
			return state.Check(claims.Write{Path: t.path, Slug: t.slug, Agent: f.agent, Token: f.token,
				Assignee: assignee, Status: task.Status})
		}
		current, err := tx.ReadIfExists(t.file)
		if err != nil {
			return err
		}
		out, err := apply(current)
		if err != nil || out == nil {
			return err
		}
		return tx.Write(t.file, out)
	})
}

// List returns entries of the journal of task, newest first, selected by q.
// A task without a journal has none: List returns an empty slice when the
// task exists in its document, and the error that Add would give
// (TASK_NOT_FOUND, DOCUMENT_NOT_FOUND) when it does not. A journal is read
// whenever it exists, even if its task has since been renamed or removed
// from the plan. A negative Limit or SinceSequence and an unknown type are
// INVALID_ARGUMENTS. With a Limit or a SinceSequence only the newest
// entries, down to the last one returned, are parsed (the rest of the
// file is only scanned for where entries begin), so a damaged older entry
// is reported by a List without them, and by Add.
func (j *Journal) List(ctx context.Context, task string, q Query) ([]Entry, error) {
	t, err := parseTask(task)
	if err != nil {
		return nil, err
	}
	want, err := q.types()
	if err != nil {
		return nil, t.at(err)
	}
	src, err := j.ws.ReadData(ctx, t.file)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		if err := j.taskExists(ctx, t); err != nil {
			return nil, err
		}
		return []Entry{}, nil
	}
	if err != nil {
		return nil, t.at(err)
	}
	var out []Entry
	take := func(e Entry) bool {
		if e.Sequence <= q.SinceSequence {
			return false // sequences increase through the file
		}
		if want == nil || want[e.Type] {
			out = append(out, e)
		}
		return q.Limit == 0 || len(out) < q.Limit
	}
	if q.Limit > 0 || q.SinceSequence > 0 {
		// The newest entries only: those before them are not parsed.
		err = parseNewest(src, t.file, take)
	} else {
		var entries []Entry
		entries, err = parseJournal(src, t.file)
		out = make([]Entry, 0, len(entries))
		for i := len(entries) - 1; i >= 0 && take(entries[i]); i-- {
		}
	}
	if err != nil {
		return nil, t.at(err)
	}
	if out == nil {
		out = []Entry{}
	}
	return out, nil
}

// types checks q and returns its type filter, nil for all types.
func (q Query) types() (map[Type]bool, error) {
	if q.Limit < 0 || q.SinceSequence < 0 {
		return nil, &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("query limit %d and since-sequence %d must not be negative", q.Limit, q.SinceSequence)}
	}
	if len(q.Types) == 0 {
		return nil, nil
	}
	want := make(map[Type]bool, len(q.Types))
	for _, s := range q.Types {
		t, err := ParseType(string(s))
		if err != nil {
			return nil, err
		}
		want[t] = true
	}
	return want, nil
}

// target is a parsed task address and the files it names.
type target struct {
	address string // "/api/auth.md#implement-jwt-signing"
	path    string // "/api/auth.md"
	slug    string // "implement-jwt-signing"
	plan    string // "docs/api/auth.md"
	file    string // "checkpoints/tasks/api/auth.md/implement-jwt-signing.md"
}

// at names the task in err: the address's path unless err is about the
// journal file, whose name it keeps (a PARSE_ERROR's line is in that file).
func (t target) at(err error) error {
	return taskflow.Flow{Path: t.path, File: t.plan}.At(err, t.slug)
}

// parseTask parses the address of a task in a document under docs/.
func parseTask(address string) (target, error) {
	a, err := taskdoc.ParseAddress(address)
	if err != nil {
		path, slug, _ := strings.Cut(address, "#")
		return target{}, taskflow.At(err, path, slug)
	}
	bad := func(why string) (target, error) {
		return target{}, &taskdoc.Error{Code: taskdoc.CodeInvalidAddress, Path: a.Path, Slug: a.Slug,
			Msg: fmt.Sprintf("%q %s", address, why)}
	}
	if a.Folder() != taskdoc.FolderDocs {
		return bad(fmt.Sprintf("is not a task of a document under %s/: journals belong to the tasks of plan documents (like /api/auth.md#implement-jwt-signing), not to /%s/ or /%s/",
			taskdoc.FolderDocs, taskdoc.FolderCoordinator, taskdoc.FolderArchived))
	}
	if a.Slug == "" {
		return bad(fmt.Sprintf("names a document, not a task: give the task's slug, like %s#implement-jwt-signing", a.Path))
	}
	// ParseAddress refuses backslashes, so only '/' is left to refuse here.
	if a.Slug == "." || a.Slug == ".." || strings.Contains(a.Slug, "/") {
		return bad("has a slug that no task has and that cannot name a file")
	}
	doc := strings.TrimPrefix(a.Path, "/") // "api/auth.md": a folder named like the document file cannot clash with another document's journal
	return target{
		address: a.String(),
		path:    a.Path,
		slug:    a.Slug,
		plan:    a.File(),
		file:    folderTasks + "/" + doc + "/" + fileSlug(a.Slug) + ".md",
	}, nil
}

// maxSlugName is the longest slug used as a file name as it is; longer
// ones are hashed into 177 bytes, a length no slug kept as it is has, so
// that two slugs never share a file.
const maxSlugName = 160

// fileSlug is the slug, or for a longer one its first bytes and a hash of
// the whole, so that every slug names a file.
func fileSlug(slug string) string {
	if len(slug) <= maxSlugName {
		return slug
	}
	cut := maxSlugName
	for cut > 0 && !utf8.RuneStart(slug[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(slug))
	return slug[:cut] + "-" + hex.EncodeToString(sum[:8])
}

// taskExists reads the plan document without its lock and finds the task.
func (j *Journal) taskExists(ctx context.Context, t target) error {
	_, err := j.planTask(ctx, t)
	return err
}

// planTask reads the plan document without its lock, finds the task and
// returns its Assignee field ("" for none).
func (j *Journal) planTask(ctx context.Context, t target) (*taskdoc.Task, error) {
	src, err := j.ws.ReadData(ctx, t.plan)
	if taskdoc.CodeOf(err) == taskdoc.CodeDocumentNotFound {
		return nil, &taskdoc.Error{Code: taskdoc.CodeDocumentNotFound, Path: t.path, Slug: t.slug,
			Msg: fmt.Sprintf("document %s not found (no %s), so task %q has no journal", t.path, t.plan, t.slug)}
	}
	if err != nil {
		return nil, t.at(err)
	}
	doc, err := j.ws.Parse(t.plan, src)
	if err != nil {
		return nil, t.at(err)
	}
	task, err := doc.Task(t.slug)
	if err != nil {
		return nil, t.at(err)
	}
	return task, nil
}

// sameContent reports whether a and b record the same checkpoint, apart
// from the sequence and time Add assigns.
func sameContent(a, b Entry) bool {
	return a.Type == b.Type && a.Agent == b.Agent && a.Summary == b.Summary &&
		a.Detail == b.Detail && slices.Equal(a.FilesChanged, b.FilesChanged)
}
