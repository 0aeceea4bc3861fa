package mcptools

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// compactOutput makes an output schema small without changing what it
// says of a result: it drops the descriptions (the tool's description and
// input say what the fields mean) and "additionalProperties": false (a
// client reads only the fields it knows; every field a result has is
// declared, as its schema is derived from its type), and defines each object shape that occurs
// more than once in s once, under $defs, where each occurrence refers to
// it ($ref). A tool's output schema stands alone, so shapes are shared
// within one tool, not across tools.
func compactOutput(s *jsonschema.Schema) error {
	dropNoise(s)
	counts := map[string]int{}
	var count func(*jsonschema.Schema) error
	count = func(p *jsonschema.Schema) error {
		for _, c := range children(p) {
			if isObject(*c) {
				k, err := shapeKey(*c)
				if err != nil {
					return err
				}
				counts[k]++
			}
			if err := count(*c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := count(s); err != nil {
		return err
	}
	names := map[string]string{} // shape -> name under $defs
	defs := map[string]*jsonschema.Schema{}
	var share func(p *jsonschema.Schema, at string) error
	share = func(p *jsonschema.Schema, at string) error {
		for name, c := range namedChildren(p, at) {
			k, err := shapeKey(*c)
			if err != nil {
				return err
			}
			if !isObject(*c) || counts[k] < 2 {
				if err := share(*c, name); err != nil {
					return err
				}
				continue
			}
			def, seen := names[k]
			if !seen {
				def = name
				for i := 2; defs[def] != nil; i++ {
					def = fmt.Sprintf("%s%d", name, i)
				}
				names[k], defs[def] = def, *c
				if err := share(*c, name); err != nil {
					return err
				}
			}
			*c = &jsonschema.Schema{Ref: "#/$defs/" + def}
		}
		return nil
	}
	if err := share(s, "result"); err != nil {
		return err
	}
	if len(defs) > 0 {
		s.Defs = defs
	}
	return nil
}

func isObject(s *jsonschema.Schema) bool {
	return s != nil && s.Properties != nil && (s.Type == "object" || slices.Contains(s.Types, "object"))
}

// shapeKey is s's canonical JSON: equal for equal shapes.
func shapeKey(s *jsonschema.Schema) (string, error) {
	data, err := json.Marshal(s)
	return string(data), err
}

// dropNoise drops the descriptions and "additionalProperties": false of
// s and its subschemas.
func dropNoise(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Description = ""
	if reflect.DeepEqual(s.AdditionalProperties, &jsonschema.Schema{Not: &jsonschema.Schema{}}) {
		s.AdditionalProperties = nil
	}
	for _, c := range children(s) {
		dropNoise(*c)
	}
}

// children are the slots of s's subschemas, in a fixed order.
func children(s *jsonschema.Schema) []**jsonschema.Schema {
	var out []**jsonschema.Schema
	for _, c := range namedChildren(s, "") {
		out = append(out, c)
	}
	return out
}

// namedChildren are the slots of s's subschemas in a fixed order, each
// with a name for a definition of its shape: its property's name, or at's
// for an array's items and a map's values.
func namedChildren(s *jsonschema.Schema, at string) func(func(string, **jsonschema.Schema) bool) {
	return func(yield func(string, **jsonschema.Schema) bool) {
		if s == nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			slot := s.Properties[k]
			if slot == nil {
				continue
			}
			more := yield(k, &slot)
			s.Properties[k] = slot
			if !more {
				return
			}
		}
		if s.Items != nil && !yield(at, &s.Items) {
			return
		}
		if s.AdditionalProperties != nil && !yield(at, &s.AdditionalProperties) {
			return
		}
		for i := range s.AnyOf {
			if !yield(at, &s.AnyOf[i]) {
				return
			}
		}
		for i := range s.OneOf {
			if !yield(at, &s.OneOf[i]) {
				return
			}
		}
	}
}
