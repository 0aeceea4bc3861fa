package agent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/taskmd/taskmd/internal/plaintext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// recordDir is the folder of the agent files, one <id>.json per agent.
const recordDir = ".taskmd/agents"

// Limits on what an agent may say about itself; larger input is
// INVALID_ARGUMENTS. They keep an agent file small, so that a heartbeat
// stays cheap.
const (
	maxValue = 1024           // bytes of a name, runtime, role, status, current task, capability, metadata key or value
	maxPath  = 4096           // bytes of the workspace path
	maxItems = 64             // capabilities, and metadata entries
	maxID    = taskflow.MaxID // bytes of a caller's ID
)

// record is the content of an agent file. Its JSON names are the protocol's
// (agent_register, agent_heartbeat); Online is not stored.
type record struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Runtime       string            `json:"runtime"`
	Role          string            `json:"role"`
	Capabilities  []string          `json:"capabilities,omitempty"`
	WorkspacePath string            `json:"workspace_path,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
	Registered    time.Time         `json:"registered"`
	LastHeartbeat time.Time         `json:"last_heartbeat"`
	CurrentTask   string            `json:"current_task,omitempty"`
	Status        string            `json:"status,omitempty"`
}

// fileOf is the root-relative name of the file of agent id.
func fileOf(id string) string { return recordDir + "/" + id + ".json" }

// idOfFile is the ID whose file name is name, if name is an agent file.
func idOfFile(name string) (string, bool) {
	id, ok := strings.CutSuffix(strings.TrimPrefix(name, recordDir+"/"), ".json")
	return id, ok && validID(id)
}

// newID returns "ag_" and 12 random hex digits (48 bits).
func newID() string {
	var b [6]byte
	rand.Read(b[:]) // never fails: crypto/rand.Read crashes the program instead
	return "ag_" + hex.EncodeToString(b[:])
}

// validID reports whether id can name an agent (taskflow.ValidID).
func validID(id string) bool { return taskflow.ValidID(id) }

func (rec *record) encode() ([]byte, error) {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, &taskdoc.Error{Code: taskdoc.CodeIO, Path: fileOf(rec.ID), Err: err,
			Msg: "encoding agent " + quote(rec.ID) + ": " + err.Error()}
	}
	return append(data, '\n'), nil
}

// decode reads the file of agent id. Unknown fields are ignored, so that a
// later version may add some.
func decode(id string, data []byte) (record, error) {
	var rec record
	err := json.Unmarshal(data, &rec)
	if err == nil && rec.ID != id {
		err = fmt.Errorf("it records the id %q", rec.ID)
	}
	if err != nil {
		return record{}, &taskdoc.Error{Code: taskdoc.CodeParse, Path: fileOf(id), Err: err,
			Msg: fmt.Sprintf("the file of agent %q (%s) is not an agent record; unregister the agent to remove it", id, fileOf(id))}
	}
	rec.Registered, rec.LastHeartbeat = rec.Registered.UTC(), rec.LastHeartbeat.UTC()
	return rec, nil
}

func (rec *record) agent(r *Registry, at time.Time) Agent {
	a := Agent{
		ID: rec.ID, Name: rec.Name, Runtime: rec.Runtime, Role: rec.Role,
		Capabilities: rec.Capabilities, WorkspacePath: rec.WorkspacePath, Metadata: rec.Metadata,
		Registered: rec.Registered, LastHeartbeat: rec.LastHeartbeat,
		CurrentTask: rec.CurrentTask, Status: rec.Status,
	}
	a.Online = r.Online(a, at)
	return a
}

// newRecord checks reg and returns it as it is stored, without ID and
// times. The slices and maps are the record's own.
func newRecord(reg Registration) (record, error) {
	var rec record
	var err error
	fields := []struct {
		what  string
		in    string
		out   *string
		limit int
	}{
		{"name", reg.Name, &rec.Name, maxValue},
		{"runtime", reg.Runtime, &rec.Runtime, maxValue},
		{"role", reg.Role, &rec.Role, maxValue},
		{"workspace path", reg.WorkspacePath, &rec.WorkspacePath, maxPath},
	}
	for _, f := range fields {
		if *f.out, err = oneLine(f.what, f.in, f.limit); err != nil {
			return record{}, err
		}
	}
	switch {
	case rec.Name == "":
		return record{}, invalid("an agent needs a name")
	case rec.Runtime == "":
		return record{}, invalid("an agent needs a runtime (such as claude_code)")
	case rec.Role == "":
		rec.Role = "worker"
	}
	if len(reg.Capabilities) > maxItems || len(reg.Metadata) > maxItems {
		return record{}, invalid(fmt.Sprintf("an agent has at most %d capabilities and %d metadata entries", maxItems, maxItems))
	}
	for i, c := range reg.Capabilities {
		c, err := oneLine(fmt.Sprintf("capability %d", i+1), c, maxValue)
		if err != nil {
			return record{}, err
		}
		if c == "" {
			return record{}, invalid(fmt.Sprintf("capability %d is empty", i+1))
		}
		rec.Capabilities = append(rec.Capabilities, c)
	}
	for _, k := range slices.Sorted(maps.Keys(reg.Metadata)) {
		v := reg.Metadata[k]
		key, err := oneLine("metadata key "+quote(k), k, maxValue)
		if err != nil {
			return record{}, err
		}
		if key == "" {
			return record{}, invalid("a metadata key is empty")
		}
		if _, dup := rec.Metadata[key]; dup {
			return record{}, invalid("the metadata key " + quote(key) + " is given twice (once with surrounding spaces)")
		}
		if rec.Metadata == nil {
			rec.Metadata = map[string]string{}
		}
		if rec.Metadata[key], err = oneLine("metadata value of "+quote(key), v, maxValue); err != nil {
			return record{}, err
		}
	}
	return rec, nil
}

// checkInfo checks a heartbeat's report and returns it trimmed.
func checkInfo(info HeartbeatInfo) (HeartbeatInfo, error) {
	var err error
	if info.CurrentTask, err = oneLine("current task", info.CurrentTask, maxValue); err != nil {
		return HeartbeatInfo{}, err
	}
	if info.Status, err = oneLine("status", info.Status, maxValue); err != nil {
		return HeartbeatInfo{}, err
	}
	return info, nil
}

// oneLine checks a one-line value and returns it trimmed: not valid UTF-8
// is INVALID_UTF8, a control character (a tab included) CONTROL_CHARACTER,
// a line break or more than limit bytes INVALID_ARGUMENTS.
func oneLine(what, s string, limit int) (string, error) {
	if !utf8.ValidString(s) {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidUTF8, Msg: "the " + what + " is not valid UTF-8"}
	}
	if len(s) > limit {
		return "", invalid(fmt.Sprintf("the %s has %d bytes; at most %d are allowed", what, len(s), limit))
	}
	for i, r := range s {
		switch {
		case r == '\n' || r == '\r':
			return "", invalid(fmt.Sprintf("the %s must be one line; it has a line break at byte %d", what, i))
		case plaintext.IsControl(r):
			return "", &taskdoc.Error{Code: taskdoc.CodeControlCharacter,
				Msg: fmt.Sprintf("the %s holds the control character U+%04X at byte %d; agent fields hold none", what, r, i)}
		}
	}
	return strings.TrimSpace(s), nil
}

func invalid(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}

func notFound(id string) error {
	return &taskdoc.Error{Code: CodeAgentNotFound,
		Msg: fmt.Sprintf("agent %s is not registered", quote(id))}
}

// quote quotes s for a message, cut to 80 bytes so that an error about a
// huge value stays readable.
func quote(s string) string {
	if len(s) > 80 {
		cut := 80
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
