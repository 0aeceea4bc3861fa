package merge

import (
	"bytes"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// rank orders the statuses by how far a task has come, for a task whose
// status both sides changed: the side further on wins (a completed task
// over one in progress, in progress over pending). Statuses of one rank
// that differ (paused and blocked, completed and skipped) conflict.
var rank = map[taskdoc.Status]int{
	taskdoc.StatusPending:    0,
	taskdoc.StatusPlanning:   1,
	taskdoc.StatusInProgress: 2,
	taskdoc.StatusPaused:     2,
	taskdoc.StatusBlocked:    2,
	taskdoc.StatusFailed:     3,
	taskdoc.StatusCompleted:  4,
	taskdoc.StatusSkipped:    4,
}

// statusBound are the fields written with a status (the date of a
// completion, the error of a failure, the key of a keyed completion): when
// both sides changed one, the side whose status won gives it.
var statusBound = []string{taskdoc.KeyCompleted, taskdoc.KeyError, taskdoc.KeyRequest}

// noteSeparator joins the notes of both sides.
const noteSeparator = "; "

// value is a field's value in one version of a task.
type value struct {
	key, val string // key as written
	ok       bool   // the task has the field
	span     taskdoc.Span
}

func (v value) equal(u value) bool { return v.ok == u.ok && (!v.ok || v.val == u.val) }

// fieldOf is the first field of p whose key is key, ignoring case.
func fieldOf(p *piece, key string) value {
	for _, f := range p.task.Fields {
		if strings.EqualFold(f.Key, key) {
			return value{key: f.Key, val: f.Value, ok: true, span: f.Span}
		}
	}
	return value{}
}

// metaEnd is where p's metadata ends, relative to its text: after the
// last field, or after the heading when it has none. ok is false when the
// metadata is not one block right under the heading (fields after the
// body), which the merge then takes line by line.
func metaEnd(p *piece) (int, bool) {
	at := p.task.HeadingSpan.End
	for _, f := range p.task.Fields {
		if f.Span.Start < at || len(bytes.TrimSpace(p.src[at:f.Span.Start])) > 0 {
			return 0, false
		}
		at = f.Span.End
	}
	return at - p.task.Span.Start, true
}

// fieldChoice is the merge of one field.
type fieldChoice struct {
	key      string // lower case
	merged   value
	conflict bool
}

// mergeFields merges the fields of a task both sides changed, key by key,
// in ours' order, then theirs' new keys.
func mergeFields(b, o, t *piece) []fieldChoice {
	var keys []string
	for _, p := range []*piece{o, t, b} {
		for _, f := range p.task.Fields {
			if k := strings.ToLower(f.Key); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	status := mergeOne(taskdoc.KeyStatus, fieldOf(b, taskdoc.KeyStatus), fieldOf(o, taskdoc.KeyStatus), fieldOf(t, taskdoc.KeyStatus), nil)
	var winner *piece // the side whose status the merge took, if one did
	switch {
	case status.conflict:
	case status.merged.equal(fieldOf(o, taskdoc.KeyStatus)):
		winner = o
	case status.merged.equal(fieldOf(t, taskdoc.KeyStatus)):
		winner = t
	}
	out := make([]fieldChoice, 0, len(keys))
	for _, k := range keys {
		out = append(out, mergeOne(k, fieldOf(b, k), fieldOf(o, k), fieldOf(t, k), winner))
	}
	return out
}

// mergeOne merges one field: a side that left it as base had it gives
// way to the other; fields both changed follow the rules of their key.
func mergeOne(key string, b, o, t value, winner *piece) fieldChoice {
	c := fieldChoice{key: strings.ToLower(key)}
	switch {
	case o.equal(t), t.equal(b):
		c.merged = o
		return c
	case o.equal(b):
		c.merged = t
		return c
	}
	switch {
	case strings.EqualFold(key, taskdoc.KeyStatus) && o.ok && t.ok:
		so, st := taskdoc.Status(strings.ToLower(o.val)), taskdoc.Status(strings.ToLower(t.val))
		ro, okO := rank[so]
		rt, okT := rank[st]
		switch {
		case !okO || !okT || ro == rt:
			c.conflict = true
		case ro > rt:
			c.merged = o
		default:
			c.merged = t
		}
	case strings.EqualFold(key, taskdoc.KeyNote):
		c.merged = o
		switch {
		case !o.ok:
			c.merged = t
		case t.ok && !strings.Contains(o.val, t.val):
			if strings.Contains(t.val, o.val) {
				c.merged.val = t.val
			} else {
				c.merged.val = o.val + noteSeparator + t.val
			}
		}
	case slices.ContainsFunc(statusBound, func(k string) bool { return strings.EqualFold(k, key) }) && winner != nil:
		c.merged = fieldOf(winner, key)
	default:
		c.conflict = true
	}
	return c
}
