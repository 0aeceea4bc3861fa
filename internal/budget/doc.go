// Package budget fits a task's context into a token budget: the rules
// behind task_load_context's max_tokens, which plan.LoadContext applies.
//
// The context is a list of Parts, each of a Kind. Fit drops parts, in the
// order of the Kind constants and within a kind by Rank, until the
// estimates of the rest (under a taskcontext.Estimator) add up to at most
// the budget; the part that brings the total under it is shortened
// instead, ending with taskcontext.TruncationMark, when it may be, and the
// task itself is never dropped, only shortened. What went is reported as
// taskcontext.Cut values, the form plan.TaskContext shows its callers;
// MergeCuts folds runs of one kind into one entry for an answer the full
// list would break. Budgeted builds the parts from a loaded
// taskcontext.Context and the Material its caller reads from the plan and
// the journal (the task, its checkpoints, the outcomes of other tasks).
//
// The package's user-facing names (Estimator, DefaultEstimator,
// DefaultBudget, TruncationMark, Cut) are taskcontext's; this one holds
// only the machinery. Everything is a pure function of its arguments and
// safe for concurrent use.
package budget
