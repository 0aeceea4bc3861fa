package mcptools

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// plainTypes gives every property of an input schema one plain JSON type:
// the schema the SDK infers for an optional slice or map is
// {"type": ["null", "array"]}, which generic clients (the MCP Inspector's
// command line among them) cannot send. An optional input is optional by
// leaving it out, so the null goes; a call that sends null for it means
// the same (dropNullMembers).
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		i := slices.Index(s.Types, "null")
		s.Type, s.Types = s.Types[1-i], nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
	plainTypes(s.AdditionalProperties)
	for _, d := range s.Defs {
		plainTypes(d)
	}
}

// dropNullMembers leaves out the null members of args and of the objects
// in it, at every depth, and reports whether it left out any: an input the
// schema types plainly (plainTypes) is optional by absence, and a client
// that writes an absent list as null (a Go struct's nil slice, say) means
// the same. translateArguments calls it.
func dropNullMembers(v any) bool {
	dropped := false
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			if m == nil {
				delete(v, k)
				dropped = true
				continue
			}
			dropped = dropNullMembers(m) || dropped
		}
	case []any:
		for _, m := range v {
			dropped = dropNullMembers(m) || dropped
		}
	}
	return dropped
}

// describeSectionsOnce drops the descriptions of the members of an
// input's nested checkpoint (pivot_acknowledge's, clarification_ask's):
// they are the sections checkpoint_save takes and describes, and the
// checkpoint's own description says so.
func describeSectionsOnce(in *jsonschema.Schema) {
	c := in.Properties["checkpoint"]
	if c == nil {
		return
	}
	var bare func(*jsonschema.Schema)
	bare = func(s *jsonschema.Schema) {
		for _, p := range s.Properties {
			p.Description = ""
			bare(p)
		}
		if s.Items != nil {
			bare(s.Items)
		}
	}
	bare(c)
}
