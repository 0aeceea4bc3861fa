package taskdoc

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Slug returns the GitHub heading anchor of a heading's text, without the
// -1, -2 suffixes GitHub adds to repeated anchors. It follows the
// github-slugger algorithm: lower-case the text, drop every character that
// is not a letter, mark, decimal or letter number, connector punctuation
// (such as '_'), space or '-', then turn each space into '-'. Runs of
// spaces are not collapsed, so "Add API: auth & tokens!" becomes
// "add-api-auth--tokens", and "Café Über" becomes "café-über".
func Slug(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ':
				b = append(b, '-')
			case c >= 'A' && c <= 'Z':
				b = append(b, c+'a'-'A')
			case c == '-' || keptInSlug(rune(c)):
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r = unicode.ToLower(r); keptInSlug(r) {
			b = utf8.AppendRune(b, r)
		}
	}
	return string(b)
}

func keptInSlug(r rune) bool {
	if r < 0x80 {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r == '_'
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.Nd, unicode.Nl, unicode.Pc)
}

// anchors hands out outline anchors the way GitHub does: the first heading
// with a slug gets it as is, later ones get "-1", "-2", ... skipping any
// anchor already taken.
type anchors map[string]int

func (a anchors) next(slug string) string {
	result := slug
	for {
		if _, taken := a[result]; !taken {
			break
		}
		a[slug]++
		result = slug + "-" + strconv.Itoa(a[slug])
	}
	a[result] = 0
	return result
}
