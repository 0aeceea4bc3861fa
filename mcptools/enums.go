package mcptools

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/journal"
	"github.com/taskmd/taskmd/taskdoc"
)

// The fixed sets of values that inputs take, as their input schemas list
// them, so that an agent sees the choices and a misspelt value is refused
// before anything runs. An enum lists each value once, in its canonical
// spelling (the library's constants: PARTIAL, graceful, plan), and the
// schema refuses every other spelling: the library reads these values
// whatever their case, but a JSON schema enum is exact, and a list of some
// spellings and not others would be a rule no agent could guess.
var (
	// taskStatuses are the statuses of the one status machine.
	taskStatuses = values(taskdoc.Statuses)
	// checkpointTypes are the types of a task journal's entries.
	checkpointTypes = values(journal.Types)
	// pivotModes are the modes of a pivot.
	pivotModes = values(checkpoint.PivotModes)
	// workerStatuses are the statuses of a worker checkpoint.
	workerStatuses = values(checkpoint.Statuses)
	// checkpointFormats are the forms checkpoint_get renders a checkpoint in.
	checkpointFormats = []any{"markdown", "json"}
)

func values[T ~string](list []T) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// enum is the fixed set of values of one input property, and its default
// ("" for none).
type enum struct {
	values []any
	def    string
}

// inputSchema derives the input schema of In and gives the named
// properties their fixed sets of values; for an array, its items.
func inputSchema[In any](enums map[string]enum) (*jsonschema.Schema, error) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, err
	}
	for name, e := range enums {
		p := schema.Properties[name]
		if p == nil {
			return nil, fmt.Errorf("input %s: no such property", name)
		}
		setEnum(p, e)
	}
	return schema, nil
}

func setEnum(s *jsonschema.Schema, e enum) {
	if e.def != "" {
		s.Default = json.RawMessage(`"` + e.def + `"`)
	}
	if s.Items != nil {
		s = s.Items
	}
	s.Enum = e.values
}
