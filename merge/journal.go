package merge

import (
	"bytes"
	"strconv"

	"github.com/taskmd/taskmd/taskdoc"
)

// journalFile merges three versions of a task journal (package journal):
// entries are only ever appended, so the merge keeps base's entries, then
// the entries ours added, then those theirs added, numbered on from ours'
// last; an entry both sides added (the same text after its number, or the
// same Key) is kept once. A journal whose existing entries one side
// changed (a person's annotation) merges line by line, as mergeLines does.
func journalFile(base, ours, theirs []byte, opts ...Option) Result {
	if r, ok := mergeJournal(base, ours, theirs, newOptions(opts)); ok {
		return r
	}
	r := mergeLines(base, ours, theirs, opts...)
	r.Fallback = unparsed(base, ours, theirs)
	return r
}

// journal is a journal cut into its head (the title) and its entries.
type journal struct {
	head    []byte
	entries [][]byte // from an entry's "## " heading to the next
}

// readJournal cuts src at its level-2 headings. ok is false when it does
// not parse.
func readJournal(src []byte) (journal, bool) {
	doc, err := taskdoc.Parse(src)
	if err != nil {
		return journal{}, false
	}
	var starts []int
	for _, h := range doc.Headings {
		if h.Level == 2 && h.TopLevel {
			starts = append(starts, h.Span.Start)
		}
	}
	if len(starts) == 0 {
		return journal{head: src}, true
	}
	j := journal{head: src[:starts[0]]}
	for i, s := range starts {
		end := len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		j.entries = append(j.entries, src[s:end])
	}
	return j, true
}

// entryNumber splits an entry's heading "## 12 · ..." into its number and
// what follows it. ok is false for another heading.
func entryNumber(entry []byte) (n int, rest []byte, ok bool) {
	after, found := bytes.CutPrefix(entry, []byte("## "))
	if !found {
		return 0, nil, false
	}
	i := 0
	for i < len(after) && after[i] >= '0' && after[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(string(after[:i]))
	if err != nil {
		return 0, nil, false
	}
	return n, after[i:], true
}

// identity is what makes two entries the same: their Key when they have
// one, else their text after the number, without the blank lines at its
// end.
func identity(entry []byte) string {
	for line := range bytes.Lines(entry) {
		if k, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("- Key: ")); ok {
			return "key " + string(k)
		}
	}
	_, rest, _ := entryNumber(entry)
	return "text " + string(bytes.TrimRight(rest, " \t\r\n"))
}

func mergeJournal(base, ours, theirs []byte, o options) (Result, bool) {
	jb, okB := readJournal(base)
	jo, okO := readJournal(ours)
	jt, okT := readJournal(theirs)
	if !okB || !okO || !okT || len(jo.entries) < len(jb.entries) || len(jt.entries) < len(jb.entries) {
		return Result{}, false
	}
	for i, e := range jb.entries {
		// Base's entries, but the last, which may have gained the blank
		// line that separates it from an appended one.
		if i < len(jb.entries)-1 && (!bytes.Equal(jo.entries[i], e) || !bytes.Equal(jt.entries[i], e)) {
			return Result{}, false
		}
		if trim(jo.entries[i]) != trim(e) || trim(jt.entries[i]) != trim(e) {
			return Result{}, false
		}
	}
	w := newWriter(o, newlineOf(ours, theirs, base), true)
	w.lines(jb.head, jo.head, jt.head, "", "text")
	next := 1 // one more than the highest number written
	seen := map[string]bool{}
	put := func(e []byte, renumber bool) {
		id := identity(e)
		if seen[id] {
			return
		}
		seen[id] = true
		if n, rest, ok := entryNumber(e); ok {
			if renumber {
				e, n = append([]byte("## "+strconv.Itoa(next)), rest...), next
			}
			next = max(next, n+1)
		}
		w.blankBefore()
		w.write(e)
	}
	// Base's entries as ours has them (with the blank line it may have
	// added after the last), ours' new ones, then theirs' new ones.
	for _, e := range jo.entries {
		put(e, false)
	}
	for _, e := range jt.entries[len(jb.entries):] {
		put(e, true)
	}
	return w.result(), true
}

// trim is an entry without the blank lines at its end.
func trim(e []byte) string { return string(bytes.TrimRight(e, " \t\r\n")) }
