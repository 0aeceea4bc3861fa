package taskcontext

import (
	"unicode"
	"unicode/utf8"
)

// DefaultBudget is the token budget of a task's context when the caller
// names none: task_load_context's max_tokens default.
const DefaultBudget = 8000

// An Estimator returns how many tokens text costs a model. The budget
// calls it once per part of a task's context and a few times more for a
// part it shortens; it never calls it with "" (which costs 0) and counts a
// negative estimate as 0. The budget is kept whatever an Estimator
// returns, but a text is shortened best when the estimate does not
// decrease as the text grows.
type Estimator func(text string) int

// DefaultEstimator is the common rule of thumb for English prose and code
// under BPE tokenizers: a token per four bytes, rounded up, and never fewer
// tokens than the text has words (runs of non-space characters), so that
// a text of many one-letter words is not undercounted. It is an estimate,
// not a tokenizer: text in scripts of multi-byte characters may cost more.
func DefaultEstimator(text string) int {
	return max((len(text)+3)/4, words(text))
}

// words counts the runs of non-space characters in text; ASCII, the
// common case, is read a byte at a time.
func words(text string) int {
	n, in := 0, false
	for i := 0; i < len(text); {
		c := text[i]
		var space bool
		if c < utf8.RuneSelf {
			space = c == ' ' || '\t' <= c && c <= '\r'
			i++
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// Cut reports a part of a task's context that the token budget dropped
// or shortened.
type Cut struct {
	// Kind is what the part is, one of "checkpoint detail", "checkpoint",
	// "prior outcome", "reference", "dependency outcome", "main workflow",
	// "workflow", "plan summary" and "task", in the order the budget drops
	// them (see the package documentation).
	Kind string `json:"kind"`
	// Name says which one it is: a reference's path, a workflow's name, a
	// checkpoint's sequence number, a task's address; the names of a run
	// of parts of one kind, joined by ", " ("4, 3, 2, 1"), when an answer
	// merges them into one entry.
	Name string `json:"name"`
	// Tokens is how many estimated tokens the cut took out: the whole
	// part's estimate when it was dropped, the difference when it was
	// shortened.
	Tokens int `json:"tokens"`
	// Shortened is true when the part was kept with the end of its text
	// cut off, false when it was dropped.
	Shortened bool `json:"shortened"`
}

// TruncationMark ends a shortened text, so that a reader knows there was
// more. Its tokens count against the budget like the text's.
const TruncationMark = "\n\n[… cut to fit the token budget]"
