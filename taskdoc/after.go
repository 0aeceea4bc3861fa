package taskdoc

import "bytes"

// TaskAfter returns the task slug as it reads in out, the result of an
// edit of d, without parsing all of out: only the tasks around the bytes
// the edit changed are parsed, on the same grounds as an edit's own check
// (see region). Offsets and line numbers in the task refer to out. When
// that shortcut is not sound (link reference definitions, setext task
// headings, a new Tasks section, bytes that are not the result of an edit
// of d) it parses out in full, so the answer is always the one
// Parse(out).Task(slug) gives.
func (d *Document) TaskAfter(out []byte, slug string) (*Task, error) {
	if t, ok := d.taskAfterLocal(out, slug); ok {
		return t, nil
	}
	nd, err := Parse(out)
	if err != nil {
		return nil, err
	}
	return nd.Task(slug)
}

// taskAfterLocal finds slug by parsing the changed tasks of out; ok is
// false when a full parse must answer.
func (d *Document) taskAfterLocal(out []byte, slug string) (*Task, bool) {
	src := d.Source
	if d.hasRefs || d.TasksHeading == nil || d.unclosedFrontMatter() || !bytes.Equal(out[:min(d.body, len(out))], src[:min(d.body, len(out))]) {
		return nil, false
	}
	prefix := commonPrefix(src, out)
	suffix := commonSuffix(src[prefix:], out[prefix:])
	// The changed bytes of src end at changed; the heading that follows
	// them may share its first bytes with the inserted text, so look from
	// the start of that line.
	changed := lineStart(d.text, len(src)-suffix)
	level := d.taskLevel()
	first, next := -1, -1
	for i, h := range d.raw {
		if h.top && h.level == level && h.span.Start >= d.TasksHeading.Span.End &&
			h.span.Start < d.TasksSpan.End && h.span.Start <= prefix {
			first = i
		}
	}
	if first < 0 {
		return nil, false
	}
	for i := first + 1; i < len(d.raw); i++ {
		if h := d.raw[i]; h.top && h.level <= level && h.span.Start >= changed && h.span.Start <= d.TasksSpan.End {
			next = i
			break
		}
	}
	if !d.raw[first].atx {
		return nil, false
	}
	start, delta := d.raw[first].span.Start, len(out)-len(src)
	end, limit := len(out), len(out)
	if next >= 0 {
		h := d.raw[next].span
		end, limit = h.Start+delta, h.End+delta
		if end < start || limit > len(out) || !bytes.Equal(out[end:limit], src[h.Start:h.End]) {
			return nil, false
		}
	} else if d.TasksSpan.End < len(src) {
		return nil, false
	}
	sc := scanBlocks(out, start, limit, start)
	tops := sc.tops
	if next >= 0 {
		n := len(tops) - 1
		if sc.hasRefs || n < 0 || tops[n].heading < 0 || tops[n].start != end ||
			sc.headings[tops[n].heading].text != d.raw[next].text || sc.headings[tops[n].heading].level != d.raw[next].level {
			return nil, false
		}
		tops = tops[:n]
	}
	if _, dup := d.dups[slug]; dup {
		return nil, false
	}
	if i, ok := d.bySlug[slug]; ok && (d.Tasks[i].Span.Start < start || d.Tasks[i].Span.Start >= end-delta) {
		return nil, false // a task outside the parsed range has the slug too
	}
	return d.findInScan(sc, tops, end, slug)
}

// findInScan builds the tasks among tops (the first starting at an ATX
// task heading) and returns the one with slug.
func (d *Document) findInScan(sc *scan, tops []topBlock, end int, slug string) (*Task, bool) {
	level := d.taskLevel()
	var found *Task
	for k := 0; k < len(tops); k++ {
		h := tops[k].heading
		if h < 0 || sc.headings[h].level != level {
			if k == 0 {
				return nil, false
			}
			continue
		}
		if k == 0 && !sc.headings[h].atx {
			return nil, false
		}
		stop := k + 1
		for stop < len(tops) && (tops[stop].heading < 0 || sc.headings[tops[stop].heading].level != level) {
			stop++
		}
		taskEnd := end
		if stop < len(tops) {
			taskEnd = tops[stop].start
		}
		if sc.headings[h].slug == slug {
			if found != nil {
				return nil, false
			}
			t, _ := buildTask(sc, tops[k:stop], taskEnd)
			t.Line = lineNumber(sc.src, t.Span.Start)
			found = &t
		}
	}
	return found, found != nil
}

// lineNumber is the 1-based number of the line starting at off, counting
// a lone "\r" as a line ending as CommonMark does.
func lineNumber(src []byte, off int) int {
	n := 1 + bytes.Count(src[:off], []byte("\n"))
	for at := 0; at < off; at++ {
		i := bytes.IndexByte(src[at:off], '\r')
		if i < 0 {
			break
		}
		if at += i; at+1 < len(src) && src[at+1] != '\n' {
			n++
		}
	}
	return n
}

// commonPrefix is the length of the longest common prefix; whole chunks
// are compared first, which is much faster on long documents.
func commonPrefix(a, b []byte) int {
	const chunk = 256
	n := min(len(a), len(b))
	i := 0
	for i+chunk <= n && bytes.Equal(a[i:i+chunk], b[i:i+chunk]) {
		i += chunk
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	const chunk = 256
	n := min(len(a), len(b))
	i := 0
	for i+chunk <= n && bytes.Equal(a[len(a)-i-chunk:len(a)-i], b[len(b)-i-chunk:len(b)-i]) {
		i += chunk
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
