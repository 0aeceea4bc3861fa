package budget

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/taskmd/taskmd/taskcontext"
)

// Kind is what a part of a task's context is: its name in a
// taskcontext.Cut, whose Kind is a plain string.
type Kind = string

// The kinds of parts, listed in the order Fit drops them: the first
// listed goes first. A Kind not listed here is dropped before all of them.
const (
	KindCheckpointDetail  Kind = "checkpoint detail"  // a checkpoint's free-text detail
	KindCheckpoint        Kind = "checkpoint"         // a checkpoint's heading, summary and files
	KindPriorOutcome      Kind = "prior outcome"      // the outcome of a task completed earlier in the plan
	KindReference         Kind = "reference"          // a document or section the task references
	KindDependencyOutcome Kind = "dependency outcome" // the outcome of a task this one depends on
	KindMainWorkflow      Kind = "main workflow"      // the coordinator list's Main-Workflow
	KindWorkflow          Kind = "workflow"           // the workflow prompt the task's Workflow field names
	KindPlanSummary       Kind = "plan summary"       // what the plan (the task's document) is for
	KindTask              Kind = "task"               // the task itself: never dropped
)

var dropOrder = []Kind{
	KindCheckpointDetail, KindCheckpoint, KindPriorOutcome, KindReference,
	KindDependencyOutcome, KindMainWorkflow, KindWorkflow, KindPlanSummary, KindTask,
}

// dropClass is a kind's place in dropOrder; an unknown kind is -1, first.
func dropClass(k Kind) int { return slices.Index(dropOrder, k) }

// Part is one piece of text of a task's context.
type Part struct {
	Kind Kind `json:"kind"`
	// Name says which one it is, for the Cut report: a reference's path, a
	// workflow's name, a checkpoint's sequence number, a task's address.
	Name string `json:"name"`
	Text string `json:"text"`
	// Rank orders the parts of one kind: the higher the Rank, the sooner
	// the part is dropped. A checkpoint's or an outcome's age (0 the
	// newest, 1 the one before), a reference's depth. Among parts of equal
	// Kind and Rank the later in the list goes first.
	Rank int `json:"rank"`
	// Shorten lets Fit cut the end off the text instead of dropping it all,
	// when that is enough to meet the budget. A task is always shortened,
	// never dropped.
	Shorten bool `json:"shorten,omitempty"`
}

// minShortened is the fewest tokens worth keeping of a part that is not
// the task: a few words of a document help nobody, so a part that could
// keep less is dropped instead.
const minShortened = 32

// Fit keeps as much of parts as budget tokens hold, under estimate: the
// estimates of the kept parts' texts add up to at most budget. A budget
// of 0 or less is taskcontext.DefaultBudget; a nil estimate is
// taskcontext.DefaultEstimator.
//
// While the parts are over the budget, Fit takes them one by one in drop
// order (by Kind, in the order of the Kind constants; within a kind by
// Rank, highest first; then the later part first) and drops each, until
// the rest fit. The part that brings the total under the budget is
// shortened instead of dropped when its Shorten is set and at least 32
// of its tokens can stay: its text is cut at a character boundary, as
// long as the cut text and taskcontext.TruncationMark fit. The task
// (KindTask) is never dropped: when the task alone is over the budget it
// is kept shortened to the budget, or as "" if not even the mark fits,
// and the Cut says so.
//
// Kept holds the parts in their order in parts, shortened ones with their
// new text; cut lists what was dropped or shortened in the order Fit did
// it. Fit does not change parts, and the same input gives the same result.
func Fit(parts []Part, budget int, estimate taskcontext.Estimator) (kept []Part, cut []taskcontext.Cut) {
	if budget <= 0 {
		budget = taskcontext.DefaultBudget
	}
	if estimate == nil {
		estimate = taskcontext.DefaultEstimator
	}
	cost := func(text string) int {
		if text == "" {
			return 0
		}
		return max(estimate(text), 0)
	}
	kept = slices.Clone(parts)
	costs := make([]int, len(kept))
	total := 0
	for i, p := range kept {
		costs[i] = cost(p.Text)
		total += costs[i]
	}
	if total <= budget {
		return kept, nil
	}
	dropped := make([]bool, len(kept))
	for _, i := range dropSequence(kept) {
		if total <= budget {
			break
		}
		if costs[i] == 0 {
			continue // nothing to gain
		}
		p := &kept[i]
		limit := costs[i] - (total - budget) // what this part may keep
		task := p.Kind == KindTask
		if task || (p.Shorten && limit >= minShortened) {
			// shorten always succeeds for the task, so the task is never dropped
			if text, ok := shorten(p.Text, limit, task, cost); ok {
				c := cost(text)
				cut = append(cut, taskcontext.Cut{Kind: p.Kind, Name: p.Name, Tokens: costs[i] - c, Shortened: true})
				total += c - costs[i]
				p.Text, costs[i] = text, c
				continue
			}
		}
		cut = append(cut, taskcontext.Cut{Kind: p.Kind, Name: p.Name, Tokens: costs[i]})
		total -= costs[i]
		dropped[i] = true
	}
	out := kept[:0]
	for i, p := range kept {
		if !dropped[i] {
			out = append(out, p)
		}
	}
	return out, cut
}

// MergeCuts returns cut with each run of dropped parts of one kind in one
// entry: their names joined by ", " (checkpoints "4, 3, 2, 1"), their
// tokens added. A shortened part keeps its own entry. It is for an answer
// whose budget the full list would break; cut is not changed.
func MergeCuts(cut []taskcontext.Cut) []taskcontext.Cut {
	var out []taskcontext.Cut
	for _, c := range cut {
		if n := len(out); n > 0 && !c.Shortened && !out[n-1].Shortened && out[n-1].Kind == c.Kind {
			out[n-1].Name += ", " + c.Name
			out[n-1].Tokens += c.Tokens
			continue
		}
		out = append(out, c)
	}
	return out
}

// dropSequence returns the indexes of parts in the order Fit drops them.
func dropSequence(parts []Part) []int {
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(
			cmp.Compare(dropClass(parts[a].Kind), dropClass(parts[b].Kind)),
			cmp.Compare(parts[b].Rank, parts[a].Rank),
			cmp.Compare(b, a))
	})
	return order
}

// shorten returns the longest start of text that, followed by
// taskcontext.TruncationMark, costs at most limit. It searches by halving,
// which finds the longest such start when the cost does not decrease as
// the text grows, and checks what it returns whatever the cost does. A part other
// than the task must keep some of its text; the task may be cut to the
// mark alone or, failing that, to "".
func shorten(text string, limit int, task bool, cost func(string) int) (string, bool) {
	fits := func(n int) bool { return cost(text[:n]+taskcontext.TruncationMark) <= limit }
	best := -1
	lo, hi := 0, len(text)-1 // the whole text is over the limit already
	for lo <= hi {
		mid := lo + (hi-lo)/2
		n := mid
		for n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		if fits(n) {
			best = max(best, n)
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	switch {
	case best > 0:
		return text[:best] + taskcontext.TruncationMark, true
	case !task:
		return "", false
	case best == 0:
		return taskcontext.TruncationMark, true
	}
	return "", true
}
