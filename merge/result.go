package merge

// Result is a merge: the merged bytes, with conflict markers where both
// sides changed the same thing differently, and the list of those
// conflicts. It is clean when there are none.
type Result struct {
	Bytes     []byte
	Conflicts []Conflict
	// Fallback says why a task document or journal was merged line by
	// line instead, "" when it was not, or when line by line is its
	// merge (a file without a Tasks section, another kind of file): a
	// version that does not parse, named with its error.
	Fallback string
}

// Clean reports whether the merge left no conflict.
func (r Result) Clean() bool { return len(r.Conflicts) == 0 }

// Conflict is one place where Bytes has conflict markers.
type Conflict struct {
	Task  string `json:"task,omitempty"` // the task's slug; "" outside the tasks
	Field string `json:"field"`          // what both sides changed: a field's key as ours writes it, "title", "body", "task" (the whole task) or "text" (outside the tasks)
	Line  int    `json:"line"`           // 1-based line of the "<<<<<<<" marker in Bytes
}

// An Option changes how a merge writes conflicts.
type Option func(*options)

type options struct {
	ours, theirs string // labels after the markers
	size         int    // length of the markers
}

func newOptions(opts []Option) options {
	o := options{ours: "ours", theirs: "theirs", size: 7}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithLabels sets the labels after the "<<<<<<<" and ">>>>>>>" markers
// ("ours" and "theirs" by default), as git merge-file -L does: a branch
// name, a commit. An empty label writes the marker alone.
func WithLabels(ours, theirs string) Option {
	return func(o *options) { o.ours, o.theirs = ours, theirs }
}

// WithMarkerSize sets the length of the conflict markers (7 by default):
// git passes it to a merge driver as %L. A size below 1 is 7.
func WithMarkerSize(n int) Option {
	return func(o *options) {
		if n >= 1 {
			o.size = n
		}
	}
}
