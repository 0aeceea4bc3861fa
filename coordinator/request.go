package coordinator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// requestDir holds one record per request key a Complete carried: library
// state, not content (never committed, safe to delete once no retry of the
// calls it names can come). Records are spread over 256 subfolders named
// by the first byte of their hash (requestDir/ab/ab....json), so the
// folder a write lists and tidies stays small however many records there
// are.
const requestDir = ".taskmd/requests/coordinator"

// request is what a keyed Complete records about itself, so that a retry is
// answered with its result whatever happened to the list since: cleared,
// archived, replaced by a new list. It is written twice under the list's
// lock: "pending" before the list is written and "done" after, so a record
// never claims a completion that did not land (a pending record is
// confirmed by the key in the list or its newest archive).
type request struct {
	Key        string `json:"key"`
	State      string `json:"state"` // "pending" or "done"
	Slug       string `json:"slug"`
	Title      string `json:"title"`
	Note       string `json:"note"`
	Date       string `json:"date"`
	ArchivedTo string `json:"archived_to,omitempty"`
}

// requestName is the record of key, root-relative:
// requestDir/<first hash byte>/<hash>.json.
func requestName(key string) string {
	sum := sha256.Sum256([]byte(key))
	hash := hex.EncodeToString(sum[:16])
	return requestDir + "/" + hash[:2] + "/" + hash + ".json"
}

// readRequest returns the record of key, or nil when there is none or it
// cannot be read (a record is a help for retries, never a reason to fail).
func readRequest(tx *workspace.Tx, key string) *request {
	data, err := tx.ReadData(requestName(key))
	if err != nil {
		return nil
	}
	var r request
	if json.Unmarshal(data, &r) != nil || r.Key != key {
		return nil
	}
	return &r
}

func (r *request) write(tx *workspace.Tx) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return tx.Write(requestName(r.Key), append(data, '\n'))
}

// task is the completed task as the record knows it, for a replay whose
// task is no longer in the list or its newest archive (cleared by hand, or
// archived long ago).
func (r *request) task() taskdoc.Task {
	return taskdoc.Task{Title: r.Title, Slug: r.Slug, Status: taskdoc.StatusCompleted, Fields: []taskdoc.Field{
		{Key: taskdoc.KeyStatus, Value: string(taskdoc.StatusCompleted)},
		{Key: taskdoc.KeyCompleted, Value: r.Date},
		{Key: taskdoc.KeyNote, Value: r.Note},
		{Key: taskdoc.KeyRequest, Value: r.Key},
	}}
}
