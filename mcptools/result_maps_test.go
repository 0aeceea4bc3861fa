package mcptools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requiredMaps collects the properties of s that are maps (objects with
// additionalProperties) and always present (required): a nil Go map there
// is null, which the output schema refuses, failing the whole call. A
// shape defined under root's $defs is followed where it is referred to.
func requiredMaps(root *jsonschema.Schema, path string, s *jsonschema.Schema, out *[]string) {
	if s == nil {
		return
	}
	if def, ok := strings.CutPrefix(s.Ref, "#/$defs/"); ok {
		s = root.Defs[def]
	}
	requiredMaps(root, path+"[]", s.Items, out)
	for name, p := range s.Properties {
		if def, ok := strings.CutPrefix(p.Ref, "#/$defs/"); ok {
			p = root.Defs[def]
		}
		if p.Type == "object" && p.Properties == nil && p.AdditionalProperties != nil && slices.Contains(s.Required, name) {
			*out = append(*out, path+"."+name)
		}
		requiredMaps(root, path+"."+name, p, out)
	}
}

// The results that always carry a map are these, and each is filled by a
// library that never leaves it nil: query.Document.Counts (empty for a
// document that does not read, see TestListsWithDocumentsThatDoNotRead),
// plan.Summary.Counts and plan.Progress.Counts (every status, zero
// included). A new one fails this test until it is added here, with its
// guarantee.
func TestResultMapsAreNeverNull(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "host", Version: "v1"}, nil)
	require.NoError(t, Register(server, openWorkspace(t)))
	var maps []string
	for _, tool := range listTools(t, server) {
		raw, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		var schema jsonschema.Schema
		require.NoError(t, json.Unmarshal(raw, &schema))
		requiredMaps(&schema, tool.Name, &schema, &maps)
	}
	slices.Sort(maps)
	assert.Equal(t, []string{
		"workflow_create.counts",
		"workflow_progress.counts",
	}, maps)
}
