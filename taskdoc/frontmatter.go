package taskdoc

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/BurntSushi/toml"
	"github.com/adrg/frontmatter"
	"gopkg.in/yaml.v2"
)

// frontMatterFormats maps an opening delimiter line to the format name.
// Only a block opening on the document's first line is front matter.
var frontMatterFormats = map[string]string{"---": "yaml", "+++": "toml"}

// frontMatterDelimiter returns the front matter delimiter that the first
// line of rest is, and its format name; ok is false when it is none.
func frontMatterDelimiter(rest []byte) (delim, name string, ok bool) {
	delim = string(bytes.TrimSpace(rest[:lineEnd(rest, 0)]))
	name, ok = frontMatterFormats[delim]
	return delim, name, ok
}

// ParseFrontMatter reads only the front matter of src (YAML "---" or TOML
// "+++" on the first line, after a BOM), as Parse would, without parsing
// the Markdown after it: for callers that need a file's metadata and not
// its tasks. A document without front matter gives a zero FrontMatter.
// Front matter that does not decode is returned as Parse keeps it, with
// its FrontMatter.Err as the error.
func ParseFrontMatter(src []byte) (FrontMatter, error) {
	fm, _ := frontMatterOf(src, lineFeeds(src, 0, len(src)))
	return fm, fm.Err
}

// frontMatterOf reads the front matter of src, whose structure is read
// from text (src with lone "\r" as "\n"), and returns it with the offset
// where the Markdown body starts (after the BOM and front matter).
func frontMatterOf(src, text []byte) (FrontMatter, int) {
	start := 0
	if bytes.HasPrefix(text, bom) {
		start = len(bom)
	}
	fm := parseFrontMatter(text, start)
	fm.Raw = src[start : start+len(fm.Raw) : start+len(fm.Raw)]
	if fm.Format == "" {
		fm.Raw = nil
	}
	return fm, start + len(fm.Raw)
}

// parseFrontMatter reads the front matter of src at start. Front matter
// that does not decode is returned with its bytes and Err, and no Values.
func parseFrontMatter(src []byte, start int) FrontMatter {
	rest := src[start:]
	first := lineEnd(rest, 0)
	delim, name, ok := frontMatterDelimiter(rest)
	if !ok {
		return FrontMatter{}
	}
	// Find the closing line first so that the decoder reads only the
	// front matter, not a copy of the whole document.
	end, closing := -1, -1
	for at := first; at < len(rest); at = lineEnd(rest, at) {
		if string(bytes.TrimSpace(rest[at:lineEnd(rest, at)])) == delim {
			end, closing = lineEnd(rest, at), at
			break
		}
	}
	if end < 0 {
		// No closing delimiter: the dashes are Markdown (a thematic break).
		return FrontMatter{}
	}
	fm := FrontMatter{Raw: src[start : start+end : start+end], Format: name}
	if name == "yaml" {
		if values, ok := plainYAML(rest[first:closing]); ok {
			fm.Values = values
			return fm
		}
	}
	values := map[string]any{}
	format := frontmatter.NewFormat(delim, delim, yamlOrTOML(name))
	if _, err := frontmatter.Parse(bytes.NewReader(rest[:end]), &values, format); err != nil {
		e := &Error{Code: CodeParse, Msg: "the " + name + " front matter does not decode", Err: err}
		fm.Err = ErrorAt(e, src, start+decodeErrorAt(rest[:end], first, err))
		return fm
	}
	fm.Values = values
	return fm
}

// decodeErrorAt is the offset in fm, a front matter block whose first line
// inside starts at first, of the line a decoder's error names ("yaml: line
// 3: ...", "Near line 3 ..."; line 1 is the first line inside), or of the
// opening delimiter when it names none. A line past the block (an
// unexpected end) is its closing delimiter.
func decodeErrorAt(fm []byte, first int, err error) int {
	m := decoderLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	closing := lineStart(fm, len(fm)-1)
	at := first
	for ; n > 1 && at < closing; n-- {
		at = lineEnd(fm, at)
	}
	return at
}

// decoderLine finds the line number in the errors of yaml.v2 and
// BurntSushi/toml.
var decoderLine = regexp.MustCompile(`(?i)\bline (\d+)\b`)

// yamlOrTOML is the decoder adrg/frontmatter uses by default for each
// format.
func yamlOrTOML(name string) func([]byte, any) error {
	if name == "toml" {
		return toml.Unmarshal
	}
	return yaml.Unmarshal
}
