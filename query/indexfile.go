package query

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
	"github.com/taskmd/taskmd/workspace"
)

// indexHeader is the first line of indexFile; its number is the format's:
// a file with another first line is rebuilt.
const indexHeader = "taskmd document index 2"

// encodeIndex is the content of indexFile for docs: the header line, then
// a line a document, sorted by file, of tab-separated fields: its file,
// version, address, title, error and code, each Go-quoted (so that no
// field holds a tab or a line break), its number of tasks, then each
// status (quoted) and how many tasks have it, sorted by status.
func encodeIndex(docs map[string]indexed) []byte {
	var b bytes.Buffer
	b.WriteString(indexHeader + "\n")
	for _, file := range slices.Sorted(maps.Keys(docs)) {
		e := docs[file]
		d := e.Document
		b.WriteString(strconv.Quote(file))
		for _, s := range []string{string(e.Version), d.Address, d.Title, d.Error, string(d.Code)} {
			b.WriteByte('\t')
			b.WriteString(strconv.Quote(s))
		}
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(d.Tasks))
		for _, s := range slices.Sorted(maps.Keys(d.Counts)) {
			b.WriteByte('\t')
			b.WriteString(strconv.Quote(string(s)))
			b.WriteByte('\t')
			b.WriteString(strconv.Itoa(d.Counts[s]))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// decodeIndex reads what encodeIndex wrote; ok is false for anything else
// (another format, a cut or damaged line), and the index is then rebuilt.
func decodeIndex(data []byte) (docs map[string]indexed, ok bool) {
	header, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(header) != indexHeader {
		return nil, false
	}
	docs = map[string]indexed{}
	for len(rest) > 0 {
		line, after, ok := bytes.Cut(rest, []byte("\n"))
		if !ok {
			return nil, false // cut short
		}
		rest = after
		e, ok := decodeIndexLine(string(line))
		if !ok {
			return nil, false
		}
		docs[e.Document.File] = e
	}
	return docs, true
}

// decodeIndexLine reads one document's line of the index.
func decodeIndexLine(line string) (indexed, bool) {
	const counts = 7 // the first status's field
	fields := strings.Split(line, "\t")
	if len(fields) < counts || (len(fields)-counts)%2 != 0 {
		return indexed{}, false
	}
	var text [counts - 1]string
	for i := range text {
		s, err := strconv.Unquote(fields[i])
		if err != nil {
			return indexed{}, false
		}
		text[i] = s
	}
	tasks, err := strconv.Atoi(fields[counts-1])
	if err != nil || tasks < 0 {
		return indexed{}, false
	}
	d := Document{File: text[0], Address: text[2], Title: text[3], Error: text[4], Code: taskdoc.Code(text[5]),
		Tasks: tasks, Counts: make(map[taskdoc.Status]int, (len(fields)-counts)/2)}
	for i := counts; i < len(fields); i += 2 {
		s, err := strconv.Unquote(fields[i])
		if err != nil {
			return indexed{}, false
		}
		n, err := strconv.Atoi(fields[i+1])
		if err != nil || n <= 0 {
			return indexed{}, false
		}
		d.Counts[taskdoc.Status(s)] = n
	}
	return indexed{Version: workspace.Version(text[1]), Document: d}, true
}
