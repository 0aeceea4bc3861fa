package claims

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

// Dir is the folder of the claims files.
const Dir = ".taskmd/claims"

// FileOf is the root-relative name of the claims file of the document file
// doc ("docs/api/auth.md").
func FileOf(doc string) string {
	sum := sha256.Sum256([]byte(doc))
	return Dir + "/" + hex.EncodeToString(sum[:16]) + ".json"
}

// Record is the claim state of one task.
type Record struct {
	Agent        string    `json:"agent,omitempty"` // the holder; "" once released
	Token        int64     `json:"token"`           // the fencing token of its latest claim
	Claimed      time.Time `json:"claimed"`         // when that claim was made (UTC)
	TookOverFrom string    `json:"took_over_from,omitempty"`
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
// releases every claim of the document, and tokens start again at 1, so
// every agent must claim again).
func Decode(doc, name string, data []byte) (File, error) {
	f := File{Document: doc, Tasks: map[string]Record{}}
	if len(data) == 0 {
		return f, nil
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, &taskdoc.Error{Code: taskdoc.CodeParse, Path: name,
			Msg: fmt.Sprintf("the claims file %s of %s does not read: %v (remove it to release every claim of the document)", name, doc, err)}
	}
	if f.Tasks == nil {
		f.Tasks = map[string]Record{}
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

// Holder is the agent holding slug, or "" when no agent does.
func (f File) Holder(slug string) Record {
	return f.Tasks[slug]
}

// Grant records a new claim of slug by agent at time at, taking over from
// the previous holder (took, "" for none), and returns it: its token is
// one more than any token of the document.
func (f *File) Grant(slug, agent, took string, at time.Time) Record {
	f.LastToken++
	r := Record{Agent: agent, Token: f.LastToken, Claimed: at.UTC(), TookOverFrom: took}
	f.Tasks[slug] = r
	return r
}

// Release ends the claim of slug, keeping its token.
func (f *File) Release(slug string) {
	r := f.Tasks[slug]
	r.Agent, r.TookOverFrom = "", ""
	f.Tasks[slug] = r
}

// Check is the fence: a write by agent on task slug of document path
// (the address errors name), presenting token, may go ahead only when
// it is the current claim of the task: the holder is agent and its token
// is token. A write presenting no token (0) may go ahead only when no
// agent holds the task. Anything else is STALE_CLAIM saying who holds the
// task now, and the caller writes nothing.
func (f File) Check(path, slug, agent string, token int64) error {
	r := f.Tasks[slug]
	switch {
	case token == 0 && r.Agent == "":
		return nil
	case token != 0 && r.Agent == agent && r.Token == token:
		return nil
	}
	stale := func(why string) error {
		return &taskdoc.Error{Code: taskdoc.CodeStaleClaim, Path: path, Slug: slug,
			Msg: fmt.Sprintf("task %q in %s: %s; nothing was written", slug, path, why)}
	}
	switch {
	case token == 0 && r.Agent == agent:
		return stale(fmt.Sprintf("agent %s holds it with claim %d: present that claim's token", agent, r.Token))
	case token == 0:
		return stale(fmt.Sprintf("agent %s holds it (claim %d): claim it first (a claim takes it over once that agent is offline)", r.Agent, r.Token))
	case r.Agent == "":
		return stale(fmt.Sprintf("claim %d of agent %s is no longer held: the task was released; claim it again", token, agent))
	case r.Agent == agent:
		return stale(fmt.Sprintf("claim %d of agent %s was replaced by its claim %d: present the newer claim", token, agent, r.Token))
	default:
		return stale(fmt.Sprintf("claim %d of agent %s was taken over by agent %s (claim %d) after its lease ran out", token, agent, r.Agent, r.Token))
	}
}
