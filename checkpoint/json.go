package checkpoint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/taskmd/taskmd/taskdoc"
)

// workerJSON is the checkpoint-resume protocol's checkpoint file, with the fields it lacks in
// its context and metadata objects (see the package doc).
type workerJSON struct {
	AgentID                string          `json:"agentId,omitempty"`
	Timestamp              string          `json:"timestamp,omitempty"`
	Phase                  string          `json:"phase,omitempty"`
	ClarificationRequestID string          `json:"clarificationRequestId,omitempty"`
	WorkState              workStateJSON   `json:"workState"`
	Context                contextJSON     `json:"context"`
	ResumeInstructions     json.RawMessage `json:"resumeInstructions,omitempty"`
	Metadata               metadataJSON    `json:"metadata"`
}

type workStateJSON struct {
	Completed             []string `json:"completed"`
	InProgress            []string `json:"inProgress"`
	Blocked               []string `json:"blocked"`
	ParallelWorkAvailable []string `json:"parallelWorkAvailable"`
}

type contextJSON struct {
	Task          string            `json:"task,omitempty"`
	OriginalTask  string            `json:"originalTask,omitempty"`
	Remaining     []string          `json:"remaining,omitempty"`
	Decisions     []json.RawMessage `json:"decisions,omitempty"`
	FilesCreated  []string          `json:"filesCreated,omitempty"`
	FilesModified []string          `json:"filesModified,omitempty"`
	FilesChanged  []fileJSON        `json:"filesChanged,omitempty"`
	Notes         string            `json:"notes,omitempty"`
	Sections      []sectionJSON     `json:"sections,omitempty"`
}

type fileJSON struct {
	Path string `json:"path"`
	Note string `json:"note,omitempty"`
}

type sectionJSON struct {
	Heading string `json:"heading"`
	Body    string `json:"body,omitempty"`
}

type metadataJSON struct {
	Status      Status    `json:"status,omitempty"`
	Sequence    int       `json:"sequence,omitempty"`
	PivotMode   PivotMode `json:"pivotMode,omitempty"`
	PivotReason string    `json:"pivotReason,omitempty"`
}

// JSON writes c in the checkpoint-resume protocol's JSON form (see the package doc's "Worker
// checkpoints" for the mapping), indented by two spaces. It checks c as
// Render does. ParseJSON reads it back as Render's normal
// form of c, so Markdown → JSON → Markdown loses nothing.
func (c Checkpoint) JSON() ([]byte, error) {
	c, err := c.normal()
	if err != nil {
		return nil, err
	}
	j := workerJSON{
		AgentID:                c.Worker,
		Phase:                  c.Phase,
		ClarificationRequestID: c.Clarification,
		WorkState: workStateJSON{
			Completed:             orEmpty(c.Completed),
			InProgress:            orEmpty(c.InProgress),
			Blocked:               orEmpty(c.Blocked),
			ParallelWorkAvailable: orEmpty(c.ParallelWork),
		},
		Context: contextJSON{Task: c.Task, OriginalTask: c.OriginalTask, Remaining: c.Remaining, Notes: c.Notes},
		Metadata: metadataJSON{Status: c.Status, Sequence: c.Sequence, PivotMode: c.PivotMode,
			PivotReason: c.PivotReason},
	}
	if !c.Time.IsZero() {
		j.Timestamp = c.Time.Format(time.RFC3339)
	}
	for _, d := range c.Decisions {
		j.Context.Decisions = append(j.Context.Decisions, mustJSON(d))
	}
	for _, f := range c.FilesChanged {
		j.Context.FilesChanged = append(j.Context.FilesChanged, fileJSON(f))
		switch strings.ToLower(f.Note) {
		case "new", "created":
			j.Context.FilesCreated = append(j.Context.FilesCreated, f.Path)
		case "modified":
			j.Context.FilesModified = append(j.Context.FilesModified, f.Path)
		}
	}
	for _, s := range c.Extra {
		j.Context.Sections = append(j.Context.Sections, sectionJSON(s))
	}
	if c.Resumption != "" {
		j.ResumeInstructions = mustJSON(map[string]string{"text": c.Resumption})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(j); err != nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeIO, Msg: "encoding a worker checkpoint: " + err.Error(), Err: err}
	}
	return b.Bytes(), nil
}

// MarshalJSON writes c in the checkpoint-resume protocol's JSON form, as JSON does, so that a
// checkpoint inside another value (a pause, a suspension) reads as the
// checkpoint files do. A checkpoint JSON refuses is an error.
func (c Checkpoint) MarshalJSON() ([]byte, error) { return c.JSON() }

// UnmarshalJSON reads the checkpoint-resume protocol's JSON form, as ParseJSON
// does.
func (c *Checkpoint) UnmarshalJSON(data []byte) error {
	read, err := ParseJSON(data)
	if err != nil {
		return err
	}
	*c = read
	return nil
}

// ParseJSON reads a checkpoint in the checkpoint-resume protocol's JSON form:
// what JSON writes, and the protocol's own files. Unknown fields are ignored
// (context.sessionContext, metadata.tokensBurned, ...). The protocol's
// decisions may be any JSON: one that is not a string is kept as its
// compact JSON text. Without context.filesChanged, the files are
// context.filesCreated (noted "new") then context.filesModified (noted
// "modified"). resumeInstructions is an object whose "text" is the
// Resumption Instructions; its other fields (the protocol's nextPhase,
// readClarificationFrom, ...) follow the text as "- name: value" lines, in
// the order of their names.
//
// Bytes that are not UTF-8 are INVALID_UTF8; JSON that does not decode, or
// whose fields have the wrong types, is PARSE_ERROR pointing at the byte;
// values that Render refuses are refused with Render's errors.
func ParseJSON(src []byte) (Checkpoint, error) {
	if err := taskdoc.CheckUTF8(src); err != nil {
		return Checkpoint{}, err
	}
	var j workerJSON
	if err := json.Unmarshal(src, &j); err != nil {
		return Checkpoint{}, jsonError(src, err)
	}
	c := Checkpoint{
		Worker:        j.AgentID,
		Task:          j.Context.Task,
		Status:        j.Metadata.Status,
		Phase:         j.Phase,
		PivotMode:     j.Metadata.PivotMode,
		PivotReason:   j.Metadata.PivotReason,
		Clarification: j.ClarificationRequestID,
		Sequence:      j.Metadata.Sequence,
		OriginalTask:  j.Context.OriginalTask,
		Completed:     j.WorkState.Completed,
		InProgress:    j.WorkState.InProgress,
		Remaining:     j.Context.Remaining,
		Blocked:       j.WorkState.Blocked,
		ParallelWork:  j.WorkState.ParallelWorkAvailable,
		Notes:         j.Context.Notes,
	}
	if j.Timestamp != "" {
		t, err := time.Parse(time.RFC3339, j.Timestamp)
		if err != nil {
			return Checkpoint{}, invalid(fmt.Sprintf("timestamp %q is not a time like 2026-01-18T10:15:23Z", j.Timestamp))
		}
		c.Time = t
	}
	for _, d := range j.Context.Decisions {
		var s string
		if json.Unmarshal(d, &s) != nil {
			var b bytes.Buffer
			_ = json.Compact(&b, d) // d decoded, so it is valid JSON
			s = b.String()
		}
		c.Decisions = append(c.Decisions, s)
	}
	for _, f := range j.Context.FilesChanged {
		c.FilesChanged = append(c.FilesChanged, FileChange(f))
	}
	if len(j.Context.FilesChanged) == 0 {
		for _, p := range j.Context.FilesCreated {
			c.FilesChanged = append(c.FilesChanged, FileChange{Path: p, Note: "new"})
		}
		for _, p := range j.Context.FilesModified {
			c.FilesChanged = append(c.FilesChanged, FileChange{Path: p, Note: "modified"})
		}
	}
	for _, s := range j.Context.Sections {
		c.Extra = append(c.Extra, Section(s))
	}
	var err error
	if c.Resumption, err = resumeText(src, j.ResumeInstructions); err != nil {
		return Checkpoint{}, err
	}
	return c.normal()
}

// resumeText reads resumeInstructions (see ParseJSON).
func resumeText(src []byte, raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return "", &taskdoc.Error{Code: taskdoc.CodeParse,
			Msg: "resumeInstructions is neither an object nor a string", Err: err}
	}
	var lines []string
	if t, ok := fields["text"]; ok {
		if err := json.Unmarshal(t, &s); err != nil {
			return "", &taskdoc.Error{Code: taskdoc.CodeParse, Msg: "resumeInstructions.text is not a string", Err: err}
		}
		lines = append(lines, s)
		delete(fields, "text")
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) > 0 && len(lines) > 0 {
		lines = append(lines, "")
	}
	for _, k := range names {
		v := fields[k]
		if json.Unmarshal(v, &s) != nil {
			var b bytes.Buffer
			_ = json.Compact(&b, v)
			s = b.String()
		}
		lines = append(lines, "- "+k+": "+s)
	}
	return strings.Join(lines, "\n"), nil
}

// jsonError is a PARSE_ERROR pointing at the byte a decoding error names.
func jsonError(src []byte, err error) error {
	e := &taskdoc.Error{Code: taskdoc.CodeParse, Msg: "the checkpoint JSON does not decode: " + err.Error(), Err: err}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return taskdoc.ErrorAt(e, src, max(0, int(syntax.Offset)-1))
	case errors.As(err, &typ):
		return taskdoc.ErrorAt(e, src, max(0, int(typ.Offset)-1))
	}
	return e
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// mustJSON encodes a value that always encodes (strings and maps of them).
func mustJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
