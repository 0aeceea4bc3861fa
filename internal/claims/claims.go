package claims

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// Dir is the folder of the claims files.
const Dir = ".taskmd/claims"

// FileOf is the root-relative name of the claims file of the document
// whose canonical name (workspace.Workspace.Canonical) is doc.
func FileOf(doc string) string {
	sum := sha256.Sum256([]byte(doc))
	return Dir + "/" + hex.EncodeToString(sum[:16]) + ".json"
}

// Name is the claims file of the document file doc ("docs/api/auth.md")
// of ws, keyed by its canonical name (workspace.Workspace.Canonical), so
// that every spelling of the document shares its claims.
func Name(ws *workspace.Workspace, doc string) (string, error) {
	canonical, err := ws.Canonical(doc)
	if err != nil {
		return "", err
	}
	return FileOf(canonical), nil
}

// Read reads the claims of document doc from its claims file name, under
// tx (which locks name when the caller writes it); data is the file's
// bytes, nil when there is none yet.
func Read(tx *workspace.Tx, doc, name string) (f File, data []byte, err error) {
	data, err = tx.ReadIfExists(name)
	if err != nil {
		return File{}, nil, err
	}
	f, err = Decode(doc, name, data)
	return f, data, err
}

// Record is the claim state of one task.
type Record struct {
	Agent        string    `json:"agent,omitempty"` // the holder; "" once the claim ended
	Token        int64     `json:"token"`           // the fencing token of its latest claim
	Claimed      time.Time `json:"claimed"`         // when that claim was made (UTC)
	TookOverFrom string    `json:"took_over_from,omitempty"`
	// Ended is the agent whose claim (Token) ended with its task done
	// (End); "" while the claim is held.
	Ended string `json:"ended,omitempty"`
	// Released is the agent whose claim (Token) was given up or taken away
	// (Release: a release, a pause, a revoke, a person's override, or a
	// claim its task no longer shows, see Follow).
	Released string `json:"released,omitempty"`
}

// File is the claim state of the tasks of one document.
type File struct {
	Document  string            `json:"document"`
	LastToken int64             `json:"last_token"`
	Tasks     map[string]Record `json:"tasks"`
	changed   bool              // by Grant, End, Release, Follow or Rename since Read
}

// Changed reports whether f changed since it was read (Grant, End,
// Release, Follow, Rename).
func (f File) Changed() bool { return f.changed }

// Decode reads the claims file of document doc, named name; no data (no
// file yet) is no claims. A file that does not decode is PARSE_ERROR
// naming it: the claims of that document are unknown, and no claim or
// fenced write is made until a person repairs or removes it (removing it
// voids every token of the document: every agent claims again, and tokens
// start again at 1). LastToken is never below a task's token,
// so that a hand-edited file cannot make a token go back.
func Decode(doc, name string, data []byte) (File, error) {
	f := File{Document: doc, Tasks: map[string]Record{}}
	if len(data) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, &taskdoc.Error{Code: taskdoc.CodeParse, Path: name,
			Msg: fmt.Sprintf("the claims file %s of %s does not read: %v (removing it voids every token of the document: the agents holding its tasks claim again)", name, doc, err)}
	}
	if f.Tasks == nil {
		f.Tasks = map[string]Record{}
	}
	f.LastToken = max(f.LastToken, 0) // tokens start at 1: 0 is "no claim"
	for _, r := range f.Tasks {
		f.LastToken = max(f.LastToken, r.Token)
	}
	f.Document = doc
	return f, nil
}

// Encode is the file's content.
func (f File) Encode() []byte {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		panic(err) // strings, integers and times always marshal
	}
	return append(data, '\n')
}

// Holder is the agent holding task slug, whose Assignee field reads
// assignee: the record's agent when the Assignee names it too, "" when no
// agent holds the task. A claim is held only while both say so, so one
// write decides and the other follows: a new claim is written here first
// and counts once the Assignee shows it (a crash between the two leaves no
// claim, and the claimant never had an answer), and a claim that ends
// leaves the Assignee first and this file second (a crash between the two
// leaves no claim either). Follow brings the record into line.
func (f File) Holder(slug, assignee string) string {
	if r := f.Tasks[slug]; r.Agent != "" && r.Agent == assignee {
		return r.Agent
	}
	return ""
}

// Record returns the record of slug (the zero Record for none).
func (f File) Record(slug string) Record { return f.Tasks[slug] }

// Grant records a new claim of slug by agent at time at, taking over from
// the previous holder (took, "" for none), and returns it: its token is
// one more than any token of the document.
func (f *File) Grant(slug, agent, took string, at time.Time) Record {
	f.LastToken++
	r := Record{Agent: agent, Token: f.LastToken, Claimed: at.UTC(), TookOverFrom: took}
	f.Tasks[slug] = r
	f.changed = true
	return r
}

// End ends the claim of slug because its task reached a final status,
// keeping its token: the holder's writes presenting it are still let
// through (its retries), until another claim of the task is made. It
// reports whether a claim was held (and so ended).
func (f *File) End(slug string) (ended bool) {
	r := f.Tasks[slug]
	if r.Agent == "" {
		return false
	}
	r.Ended, r.Agent, r.TookOverFrom, r.Released = r.Agent, "", "", ""
	f.Tasks[slug] = r
	f.changed = true
	return true
}

// Release ends the claim of slug because its holder gave it up or it was
// taken away (a pause, a revoke, a person's override): its token lets no
// write through any more. It reports whether a claim was recorded.
func (f *File) Release(slug string) (released bool) {
	r := f.Tasks[slug]
	if r.Agent == "" {
		return false
	}
	r.Released, r.Agent, r.TookOverFrom, r.Ended = r.Agent, "", "", ""
	f.Tasks[slug] = r
	f.changed = true
	return true
}

// Follow brings the record of slug into line with its task as written,
// whose Assignee reads assignee and whose status is status, and reports
// whether it changed f:
//
//   - a claim the task does not show (a claim whose plan write did not
//     happen, one whose end did not reach this file — a crash between
//     the two writes — or an Assignee a person removed) holds nothing, and
//     is released: its token lets nothing through, and a retried release
//     or pause of it is recognised (ReleasedBy);
//   - a claim shown on a task that is completed or skipped ends (End), as
//     the completion that did not reach this file would have ended it.
//
// A task that no longer exists has no Assignee: its claim is released.
func (f *File) Follow(slug, assignee string, status taskdoc.Status) bool {
	r, ok := f.Tasks[slug]
	switch {
	case !ok:
		return false
	case r.Agent == "":
		return false
	case r.Agent != assignee:
		return f.Release(slug)
	case status.Final():
		return f.End(slug)
	}
	return false
}

// Rename moves the record of task from to task to, when a rename keeps
// the task (and so its holder's claim): it reports whether it did.
func (f *File) Rename(from, to string) bool {
	r, ok := f.Tasks[from]
	if !ok || from == to {
		return false
	}
	delete(f.Tasks, from)
	f.Tasks[to] = r
	f.changed = true
	return true
}

// ReleasedBy reports whether agent's claim token of slug is the task's
// latest claim and was released (Release): a retried release or pause.
func (f File) ReleasedBy(slug, agent string, token int64) bool {
	r := f.Tasks[slug]
	return token != 0 && r.Agent == "" && r.Token == token && r.Released == agent
}

// Write is a write a caller asks to make on a task, as the fence sees it.
type Write struct {
	Path, Slug string // the task's document address ("/api/auth.md") and slug, for errors
	// Agent is the writer, an agent; "" for a caller that is not one (a
	// person, a script, a session that did not register).
	Agent string
	// Token is the fencing token of Agent's claim on the task; 0 for none.
	Token int64
	// Assignee is the task's Assignee field; Status its status, To the
	// status the write moves it to ("" when it moves none).
	Assignee   string
	Status, To taskdoc.Status
}

// Check is the fence, the one rule of who may write on a task:
//
//   - An agent writes through its claim: presenting a token, only when it
//     is the task's latest claim and that claim is the agent's, held (see
//     Holder), or ended with the task done (End) for a write on a done
//     task or one that makes it done (its retries: once a person reopens
//     the task, the ended claim starts nothing), never once released
//     (Release).
//   - An agent without a claim (token 0) writes only on a task no agent
//     holds and no Assignee names (but the agent that did it, for a done
//     task), and never starts work that way: a move to planning, in
//     progress or paused, or any write on a task in one of those, needs a
//     claim.
//   - A caller that is not an agent writes only on a task no agent holds.
//     A person may write over a claim only by saying so (an override, which
//     the caller records in the task and which ends the claim); Check does
//     not let it through.
//
// Anything else is STALE_CLAIM saying who holds the task and what to do,
// and the caller writes nothing.
func (f File) Check(w Write) error {
	r, assignee := f.Tasks[w.Slug], w.Assignee
	holder := f.Holder(w.Slug, assignee)
	switch {
	case w.Agent == "" && holder == "":
		return nil
	case w.Agent != "" && w.Token == 0 && holder == "" && (assignee == "" || r.Agent == "" && r.Ended == assignee) && !working(w):
		return nil
	case w.Agent != "" && w.Token != 0 && r.Token == w.Token && holder == w.Agent:
		return nil
	case w.Agent != "" && w.Token != 0 && r.Token == w.Token && r.Agent == "" && r.Ended == w.Agent && (w.Status.Final() || w.To.Final()):
		return nil // the holder's retry of the move that ended its claim
	}
	stale := func(why string) error {
		return &taskdoc.Error{Code: CodeStaleClaim, Path: w.Path, Slug: w.Slug,
			Msg: fmt.Sprintf("task %q in %s: %s; nothing was written", w.Slug, w.Path, why)}
	}
	switch {
	case w.Agent == "":
		return stale(fmt.Sprintf("agent %s holds it (claim %d): only that agent writes on it; a caller that is not an agent may write on a task no agent holds (a person may override the claim, which is recorded in the task)", holder, r.Token))
	case w.Token == 0 && holder == w.Agent:
		return stale(fmt.Sprintf("agent %s holds it with claim %d: present that claim's token", w.Agent, r.Token))
	case w.Token == 0 && holder == "" && assignee != "" && !(r.Agent == "" && r.Ended == assignee):
		return stale(fmt.Sprintf("its Assignee names agent %s, which holds no recorded claim: claim it first (a claim takes it over once that agent is offline)", assignee))
	case w.Token == 0 && holder == "":
		return stale(fmt.Sprintf("it is %s and agent %s holds no claim on it: claim it first, work on a task is done under a claim", statusOf(w), w.Agent))
	case w.Token == 0:
		return stale(fmt.Sprintf("agent %s holds it (claim %d): claim it first (a claim takes it over once that agent is offline)", holder, r.Token))
	case r.Token == w.Token && r.Released == w.Agent:
		return stale(fmt.Sprintf("claim %d of agent %s was let go (released, paused, revoked or overridden): claim it again", w.Token, w.Agent))
	case holder == "":
		return stale(fmt.Sprintf("claim %d of agent %s is not the task's claim: no agent holds it now; claim it again", w.Token, w.Agent))
	case holder == w.Agent:
		return stale(fmt.Sprintf("claim %d of agent %s was replaced by its claim %d: present the newer claim", w.Token, w.Agent, r.Token))
	default:
		return stale(fmt.Sprintf("claim %d of agent %s is not the task's claim: agent %s holds it (claim %d)", w.Token, w.Agent, holder, r.Token))
	}
}

// working reports whether w starts or touches work in progress: a move to
// planning, in progress or paused, or a write on a task in one of those.
func working(w Write) bool { return isWork(w.Status) || isWork(w.To) }

// isWork reports whether s is a status of work under way: planning, in
// progress or paused.
func isWork(s taskdoc.Status) bool {
	return s == taskdoc.StatusPlanning || s == taskdoc.StatusInProgress || s == taskdoc.StatusPaused
}

// statusOf names the status w finds or makes, for an error.
func statusOf(w Write) string {
	if isWork(w.To) {
		return "to be " + string(w.To)
	}
	return string(w.Status)
}
