package mcptools

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// compactOutput makes an output schema small without making it wrong. It
// declares the result's own fields, each with its JSON type, and which of
// them are always present; a field that holds an object, or a list of
// objects, is declared as one without its members, which the tool's
// description names and the result itself carries. It drops descriptions
// and "additionalProperties": false (a client reads only the fields it
// knows). A client that validates results against it still accepts every
// result and still refuses one of the wrong shape at the top, for a tenth
// of the size of the full shapes: clients send the input schemas to the
// model, and the output schemas, if at all, only to check results.
func compactOutput(s *jsonschema.Schema) {
	s.Description = ""
	s.Defs = nil
	if reflect.DeepEqual(s.AdditionalProperties, &jsonschema.Schema{Not: &jsonschema.Schema{}}) {
		s.AdditionalProperties = nil
	}
	for name, p := range s.Properties {
		s.Properties[name] = shallow(p)
	}
}

// shallow is p's type: an object's members and an array's objects go, an
// array's scalar items and a map's scalar values stay.
func shallow(p *jsonschema.Schema) *jsonschema.Schema {
	if p == nil {
		return nil
	}
	out := &jsonschema.Schema{Type: p.Type, Types: p.Types, Enum: p.Enum}
	if p.Items != nil {
		out.Items = scalar(p.Items)
	}
	if p.AdditionalProperties != nil && p.Properties == nil {
		out.AdditionalProperties = scalar(p.AdditionalProperties)
	}
	if out.Type == "" && out.Types == nil {
		// A $ref or a combination: any value.
		return &jsonschema.Schema{}
	}
	return out
}

// scalar is s when it is a scalar type, else the bare type of s (object,
// array), or nil when s has none.
func scalar(s *jsonschema.Schema) *jsonschema.Schema {
	switch {
	case s.Type == "" && s.Types == nil:
		return nil
	case s.Properties == nil && s.Items == nil && s.AdditionalProperties == nil:
		return &jsonschema.Schema{Type: s.Type, Types: s.Types, Enum: s.Enum}
	default:
		return &jsonschema.Schema{Type: s.Type, Types: s.Types}
	}
}
