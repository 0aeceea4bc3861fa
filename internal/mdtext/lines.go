package mdtext

import "strings"

// Line is one line of a file, without its line ending.
type Line struct {
	Text  string
	Start int // byte offset in the file
}

// SplitLines splits s[from:] into lines ending at "\n", "\r\n" or a lone
// "\r", as CommonMark and taskdoc.Position count them.
func SplitLines(s string, from int) []Line {
	out := make([]Line, 0, strings.Count(s[from:], "\n")+1)
	for i := from; i < len(s); {
		j := strings.IndexByte(s[i:], '\n') // two IndexByte calls beat one IndexAny
		if j < 0 {
			j = len(s) - i
		}
		if k := strings.IndexByte(s[i:i+j], '\r'); k >= 0 {
			j = k
		}
		out = append(out, Line{s[i : i+j], i})
		if i+j == len(s) {
			break
		}
		i += j + 1
		if s[i-1] == '\r' && i < len(s) && s[i] == '\n' {
			i++
		}
	}
	return out
}

// Fence is an opening code fence.
type Fence struct {
	Char   byte // '`' or '~'
	N      int  // its length
	Indent int  // spaces before it
}

// OpenFence reads a line that opens a fenced code block: up to three
// spaces, then three or more backticks (with no backtick after them) or
// tildes.
func OpenFence(t string) (Fence, bool) {
	indent := RunAt(t, 0, ' ')
	if indent > 3 || indent == len(t) || (t[indent] != '`' && t[indent] != '~') {
		return Fence{}, false
	}
	c := t[indent]
	n := RunAt(t, indent, c)
	if n < 3 || (c == '`' && strings.IndexByte(t[indent+n:], '`') >= 0) {
		return Fence{}, false
	}
	return Fence{Char: c, N: n, Indent: indent}, true
}

// ClosedBy reports whether t closes f: up to three spaces, at least as
// many of f's characters, then only spaces.
func (f Fence) ClosedBy(t string) bool {
	indent := RunAt(t, 0, ' ')
	if indent > 3 {
		return false
	}
	n := RunAt(t, indent, f.Char)
	return n >= f.N && strings.TrimRight(t[indent+n:], " \t") == ""
}

// HeadingText returns the level and the text of an ATX heading line, or
// level 0.
func HeadingText(t string) (int, string) {
	indent := RunAt(t, 0, ' ')
	if indent > 3 {
		return 0, ""
	}
	n := RunAt(t, indent, '#')
	rest := t[indent+n:]
	if n == 0 || n > 6 || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return 0, ""
	}
	return n, strings.TrimSpace(rest)
}

func IsHeading(t string) bool {
	level, _ := HeadingText(t)
	return level > 0
}

// IsBullet reports a bullet list item: up to three spaces, '-', '*' or
// '+', then a space or tab.
func IsBullet(t string) bool {
	t = strings.TrimLeft(t, " ")
	return len(t) >= 2 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t')
}

func IsBlank(t string) bool { return strings.Trim(t, " \t") == "" }

// IsPunct reports ASCII punctuation, the characters a backslash escapes
// in CommonMark.
func IsPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// CodeSpan writes s as a Markdown code span: delimited by one backtick
// more than its longest run of backticks, and padded with a space when it
// starts or ends with a backtick. s has no surrounding spaces.
func CodeSpan(s string) string {
	ticks := strings.Repeat("`", LongestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// CutSpan reads the code span v starts with and returns its content and
// what follows it.
func CutSpan(v string) (content, rest string, ok bool) {
	n := RunAt(v, 0, '`')
	for i := n; i < len(v); {
		if v[i] != '`' {
			i++
			continue
		}
		m := RunAt(v, i, '`')
		if m == n {
			content = v[n:i]
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			return content, v[i+m:], true
		}
		i += m
	}
	return "", "", false
}

// RunAt is the length of the run of c starting at s[i].
func RunAt(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// LongestRun is the length of the longest run of c in s.
func LongestRun(s string, c byte) int {
	longest := 0
	for i := 0; i < len(s); {
		if s[i] != c {
			i++
			continue
		}
		n := RunAt(s, i, c)
		longest = max(longest, n)
		i += n
	}
	return longest
}
