package checkpoint

import "slices"

// Changes is what changed from one checkpoint of a worker to a later
// one (the pivot protocol's "checkpoint diff"): a person or an orchestrator reads it
// instead of two whole checkpoints.
type Changes struct {
	FromSequence int    `json:"from_sequence"`
	ToSequence   int    `json:"to_sequence"`
	OldStatus    Status `json:"old_status,omitempty"` // equal to NewStatus when the status did not change
	NewStatus    Status `json:"new_status,omitempty"`
	OldPhase     string `json:"old_phase,omitempty"` // equal to NewPhase when the phase did not change
	NewPhase     string `json:"new_phase,omitempty"`

	Finished     []string     `json:"finished,omitempty"`      // items of Remaining or In Progress now in Completed
	Started      []string     `json:"started,omitempty"`       // items of Remaining now In Progress
	Added        []ItemChange `json:"added,omitempty"`         // items in none of the old checkpoint's lists
	Dropped      []ItemChange `json:"dropped,omitempty"`       // items of the old Remaining or In Progress in none of the new lists
	NewFiles     []FileChange `json:"new_files,omitempty"`     // files changed whose paths the old checkpoint did not list
	NewDecisions []string     `json:"new_decisions,omitempty"` // decisions the old checkpoint did not list
}

// ItemChange is an item and the section it is (or was) in: "Completed",
// "In Progress", "Remaining", "Blocked" or "Parallel Work Available".
type ItemChange struct {
	Section string `json:"section"`
	Text    string `json:"text"`
}

// Empty reports whether the diff records no change.
func (d Changes) Empty() bool {
	return d.OldStatus == d.NewStatus && d.OldPhase == d.NewPhase && len(d.Finished) == 0 &&
		len(d.Started) == 0 && len(d.Added) == 0 && len(d.Dropped) == 0 &&
		len(d.NewFiles) == 0 && len(d.NewDecisions) == 0
}

// Diff compares checkpoint a with a later checkpoint b of the same worker
// (or any two checkpoints). Items are matched by their text, which a
// worker keeps while it moves an item from list to list; files by path.
// Both are compared in the normal form of Render, so a value that Render
// refuses is compared as it is.
func Diff(a, b Checkpoint) Changes {
	if n, err := a.normal(); err == nil {
		a = n
	}
	if n, err := b.normal(); err == nil {
		b = n
	}
	d := Changes{FromSequence: a.Sequence, ToSequence: b.Sequence,
		OldStatus: a.Status, NewStatus: b.Status, OldPhase: a.Phase, NewPhase: b.Phase}
	open := func(s string) bool { return slices.Contains(a.Remaining, s) || slices.Contains(a.InProgress, s) }
	lists := func(c Checkpoint) []struct {
		name  string
		items []string
	} {
		return []struct {
			name  string
			items []string
		}{
			{headCompleted, c.Completed}, {headInProgress, c.InProgress}, {headRemaining, c.Remaining},
			{headBlocked, c.Blocked}, {headParallel, c.ParallelWork},
		}
	}
	in := func(c Checkpoint, s string) bool {
		for _, l := range lists(c) {
			if slices.Contains(l.items, s) {
				return true
			}
		}
		return false
	}
	for _, s := range b.Completed {
		if open(s) && !slices.Contains(a.Completed, s) {
			d.Finished = append(d.Finished, s)
		}
	}
	for _, s := range b.InProgress {
		if slices.Contains(a.Remaining, s) && !slices.Contains(a.InProgress, s) {
			d.Started = append(d.Started, s)
		}
	}
	for _, l := range lists(b) {
		for _, s := range l.items {
			if !in(a, s) {
				d.Added = append(d.Added, ItemChange{Section: l.name, Text: s})
			}
		}
	}
	for _, l := range lists(a)[1:3] { // In Progress, Remaining
		for _, s := range l.items {
			if !in(b, s) {
				d.Dropped = append(d.Dropped, ItemChange{Section: l.name, Text: s})
			}
		}
	}
	for _, f := range b.FilesChanged {
		if !slices.ContainsFunc(a.FilesChanged, func(g FileChange) bool { return g.Path == f.Path }) {
			d.NewFiles = append(d.NewFiles, f)
		}
	}
	for _, s := range b.Decisions {
		if !slices.Contains(a.Decisions, s) {
			d.NewDecisions = append(d.NewDecisions, s)
		}
	}
	return d
}
