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
	// Ended is the agent whose claim (Token) ended by a release or a final
	// status; "" while the claim is held.
	Ended string `json:"ended,omitempty"`
}

// File is the claim state of the tasks of one document.
type File struct {
	Document  string            `json:"document"`
	LastToken int64             `json:"last_token"`
	Tasks     map[string]Record `json:"tasks"`
}

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
			Msg: fmt.Sprintf("the claims file %s of %s does not read: %v (removing it voids every token of the document: holders claim again)", name, doc, err)}
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
// agent holds the task. Both are written in one critical section, so they
// disagree only after a crash between the two writes, a hand edit, a
// rename of the task or a re-created document; the task is then not held,
// and a new claim (with a new token) settles it.
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
	r.Ended, r.Agent, r.TookOverFrom = r.Agent, "", ""
	f.Tasks[slug] = r
	return true
}

// Release ends the claim of slug because its holder gave it up: its token
// lets no write through any more.
func (f *File) Release(slug string) {
	r := f.Tasks[slug]
	r.Agent, r.TookOverFrom, r.Ended = "", "", ""
	f.Tasks[slug] = r
}

// Check is the fence: may agent, presenting token, write on task slug of
// document path (the address errors name), whose Assignee field reads
// assignee? A write presenting a token may go ahead when it is the task's
// latest claim and that claim is agent's: held (see Holder), or ended by
// agent (End, not Release) and not claimed since. A write presenting no
// token (0) may go ahead only when no agent holds the task and the agent
// its Assignee shows, if any, is the one whose claim ended with the task
// done (a task shown but not recorded is settled by a claim, which asks
// whether the agent shown is online). Anything else is STALE_CLAIM saying
// who holds the task now, and the caller writes nothing.
func (f File) Check(path, slug, assignee, agent string, token int64) error {
	r := f.Tasks[slug]
	holder := f.Holder(slug, assignee)
	switch {
	case token == 0 && holder == "" && (assignee == "" || r.Agent == "" && r.Ended == assignee):
		return nil
	case token != 0 && r.Token == token && (holder == agent || r.Agent == "" && r.Ended == agent):
		return nil
	}
	stale := func(why string) error {
		return &taskdoc.Error{Code: taskdoc.CodeStaleClaim, Path: path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s: %s; nothing was written", slug, path, why)}
	}
	switch {
	case token == 0 && holder == agent:
		return stale(fmt.Sprintf("agent %s holds it with claim %d: present that claim's token", agent, r.Token))
	case token == 0 && holder == "":
		return stale(fmt.Sprintf("its Assignee names agent %s, which holds no recorded claim: claim it first (a claim takes it over once that agent is offline)", assignee))
	case token == 0:
		return stale(fmt.Sprintf("agent %s holds it (claim %d): claim it first (a claim takes it over once that agent is offline)", holder, r.Token))
	case holder == "":
		return stale(fmt.Sprintf("claim %d of agent %s is not the task's claim: no agent holds it now; claim it again", token, agent))
	case holder == agent:
		return stale(fmt.Sprintf("claim %d of agent %s was replaced by its claim %d: present the newer claim", token, agent, r.Token))
	default:
		return stale(fmt.Sprintf("claim %d of agent %s is not the task's claim: agent %s holds it (claim %d)", token, agent, holder, r.Token))
	}
}
