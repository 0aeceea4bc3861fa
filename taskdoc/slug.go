package taskdoc

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Slug returns the GitHub heading anchor of a heading's text, without the
// -1, -2 suffixes GitHub adds to repeated anchors. It follows the
// github-slugger algorithm: lower-case the text as JavaScript's
// toLowerCase does ("İ" becomes "i" and a combining dot, a word-final "Σ"
// becomes "ς"), drop every character that
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
		switch {
		case r == 'İ':
			// JavaScript's toLowerCase uses the full mapping: "i" and a
			// combining dot above, both kept.
			b = append(b, "i\u0307"...)
		case r == 'Σ' && finalSigma(s, i, i+size):
			b = utf8.AppendRune(b, 'ς')
		default:
			if r = unicode.ToLower(r); keptInSlug(r) {
				b = utf8.AppendRune(b, r)
			}
		}
		i += size
	}
	return string(b)
}

// finalSigma reports whether the capital sigma at s[at:end] lower-cases to
// the final form ς, as JavaScript's toLowerCase does (Unicode's
// Final_Sigma condition): a cased letter comes before it and none after
// it, looking past case-ignorable characters such as marks and
// apostrophes.
func finalSigma(s string, at, end int) bool {
	before := false
	for i := at; i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		if !caseIgnorable(r) {
			before = cased(r)
			break
		}
	}
	if !before {
		return false
	}
	for i := end; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !caseIgnorable(r) {
			return !cased(r)
		}
	}
	return true
}

func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.In(r, unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// caseIgnorable is Unicode's Case_Ignorable property: marks, format
// characters, modifiers and the word-internal punctuation of Word_Break
// (MidLetter, MidNumLet, Single_Quote).
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '\u00b7', '\u0387', '\u055f', '\u05f4', '\u2018', '\u2019', '\u2024', '\u2027',
		'\ufe13', '\ufe52', '\ufe55', '\uff07', '\uff0e', '\uff1a':
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
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
