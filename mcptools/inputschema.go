package mcptools

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// plainTypes gives every property of an input schema one plain JSON type:
// the schema the SDK infers for an optional slice or map is
// {"type": ["null", "array"]}, which generic clients (the MCP Inspector's
// command line among them) cannot send. An optional input is optional by
// leaving it out, so the null goes; a call that sends null for it means
// the same (dropNulls).
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

// dropNulls returns the arguments of a call with every null member of an
// object left out: an input the schema types plainly (plainTypes) is
// optional by absence, and a client that writes an absent list as null
// (a Go struct's nil slice, say) means the same. Arguments without a null
// are returned as they are, without decoding them.
func dropNulls(args json.RawMessage) json.RawMessage {
	if !bytes.Contains(args, []byte("null")) {
		return args
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return args // the SDK reports it
	}
	out, err := json.Marshal(withoutNulls(v))
	if err != nil {
		return args
	}
	return out
}

// withoutNulls is v with the null members of its objects left out, at
// every depth.
func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			if m == nil {
				delete(v, k)
				continue
			}
			v[k] = withoutNulls(m)
		}
	case []any:
		for i, m := range v {
			v[i] = withoutNulls(m)
		}
	}
	return v
}
