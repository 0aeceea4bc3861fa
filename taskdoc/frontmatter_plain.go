package taskdoc

import "bytes"

// plainYAML decodes YAML front matter that is only "key: value" lines
// whose keys and values YAML reads as plain strings (letters first, then
// letters, digits and a few marks, never a word YAML reads as a boolean
// or null), or values that are one-line lists of such strings ("[auth,
// tokens]"), as yaml.v2 would: a map of strings and lists. Such front matter is the
// usual kind ("title: Token service"), and the full decoder costs more
// than parsing a small document. ok is false for anything else, which the
// full decoder reads: other forms, other characters, comments, blank
// lines, a repeated key.
func plainYAML(inner []byte) (values map[string]any, ok bool) {
	if len(inner) == 0 || inner[len(inner)-1] != '\n' {
		return nil, false
	}
	values = map[string]any{}
	for line := range bytes.Lines(inner) {
		line = line[:len(line)-1]
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return nil, false
		}
		key, value := line[:colon], line[colon+1:]
		if len(value) < 2 || value[0] != ' ' {
			return nil, false
		}
		value = bytes.TrimLeft(value, " ")
		if !plainWord(key, false) || len(key) > maxSimpleKey {
			return nil, false
		}
		if _, dup := values[string(key)]; dup {
			return nil, false
		}
		if list, ok := plainList(value); ok {
			values[string(key)] = list
			continue
		}
		if !plainWord(value, true) {
			return nil, false
		}
		values[string(key)] = string(value)
	}
	return values, true
}

// maxSimpleKey is the longest key yaml.v2 reads without a "? " before
// it: a plain key is a "simple key", which its scanner gives up on after
// 1,024 characters ("mapping values are not allowed in this context").
// plainYAML's keys are ASCII, so characters are bytes.
const maxSimpleKey = 1024

// plainList reads a one-line list of plain words, "[auth, tokens]", as
// yaml.v2 reads it; ok is false for anything else.
func plainList(s []byte) (list []any, ok bool) {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	for item := range bytes.SplitSeq(s[1:len(s)-1], []byte(",")) {
		item = bytes.Trim(item, " ")
		if !plainWord(item, true) || bytes.IndexByte(item, ',') >= 0 {
			return nil, false
		}
		list = append(list, string(item))
	}
	return list, true
}

// plainWord reports whether s is a plain YAML scalar that reads as the
// string s: an ASCII letter, then letters, digits, "-" and "_" (a key), or
// also single spaces, ".", "," and "/" inside (a value), not ending in a
// space, and not one of the words yaml.v2 reads as a boolean or null.
func plainWord(s []byte, value bool) bool {
	if len(s) == 0 || !isASCIILetter(s[0]) || s[len(s)-1] == ' ' {
		return false
	}
	for i, c := range s {
		switch {
		case isASCIILetter(c), c >= '0' && c <= '9', c == '-', c == '_':
		case value && (c == '.' || c == ',' || c == '/'):
		case value && c == ' ' && s[i-1] != ' ':
		default:
			return false
		}
	}
	switch string(s) {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL":
		return false
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
