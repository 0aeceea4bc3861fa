package merge

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/taskdoc"
)

// randomEdits applies n random edits through taskdoc's own API: complete,
// set a status, set a field, edit a body, add a task, remove one.
func randomEdits(t *testing.T, r *rand.Rand, doc *taskdoc.Document, side string, n int) *taskdoc.Document {
	for i := range n {
		if len(doc.Tasks) == 0 {
			break
		}
		slug := doc.Tasks[r.IntN(len(doc.Tasks))].Slug
		var next *taskdoc.Document
		var err error
		switch r.IntN(6) {
		case 0:
			next, _, err = doc.Complete(slug, side+" done", time.Date(2026, 1, 1+r.IntN(20), 0, 0, 0, 0, time.UTC))
		case 1:
			next, _, err = doc.SetStatus(slug, taskdoc.Statuses[r.IntN(len(taskdoc.Statuses))])
		case 2:
			next, _, err = doc.SetField(slug, "Owner", fmt.Sprintf("%s-%d", side, i))
		case 3:
			next, _, err = doc.EditTask(slug, taskdoc.Edit{Content: fmt.Sprintf("- Status: %s\n\nBody by %s %d.\n", doc.Tasks[0].Status, side, i), Reopen: true})
		case 4:
			title := fmt.Sprintf("%s task %d", side, i)
			if r.IntN(4) == 0 {
				title = fmt.Sprintf("Shared task %d", i) // the same title on both sides, sometimes
			}
			after := ""
			if r.IntN(2) == 0 {
				after = slug
			}
			next, _, err = doc.AddTask(taskdoc.NewTask{Title: title, Content: "- Status: pending\n\nNew by " + side + ".", After: after})
		default:
			next, err = doc.RemoveTask(slug)
		}
		if err != nil {
			continue // an edit the document refuses (completing a completed task): skip it
		}
		doc = next
	}
	return doc
}

func TestTasksProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	clean := 0
	for round := range 400 {
		var src bytes.Buffer
		nl := "\n"
		if round%4 == 0 {
			nl = "\r\n"
		}
		src.WriteString("---" + nl + "title: p" + nl + "---" + nl + "# Plan" + nl + nl + "## Tasks" + nl)
		for i := range 2 + r.IntN(6) {
			fmt.Fprintf(&src, "%s### Task %d%s%s- Status: pending%s%sDo %d.%s", nl, i, nl, nl, nl, nl, i, nl)
		}
		src.WriteString(nl + "## After" + nl + nl + "Text." + nl)
		base, err := taskdoc.Parse(src.Bytes())
		require.NoError(t, err)
		ours := randomEdits(t, r, base, "ours", 1+r.IntN(4))
		theirs := randomEdits(t, r, base, "theirs", 1+r.IntN(4))

		got, ok := mergeTasks(base.Source, ours.Source, theirs.Source, newOptions(nil))
		msg := fmt.Sprintf("round %d\nbase:\n%s\nours:\n%s\ntheirs:\n%s\nmerged:\n%s", round, base.Source, ours.Source, theirs.Source, got.Bytes)
		require.True(t, ok, "merged task by task, not line by line\n%s", msg)
		merged, err := taskdoc.Parse(got.Bytes)
		require.NoError(t, err, msg)
		have := map[string]bool{}
		for _, tk := range merged.Tasks {
			have[tk.Slug] = true
		}
		pieces := func(d *taskdoc.Document) map[string][]byte {
			v, ok := readVersion(d.Source, false)
			require.True(t, ok, msg)
			out := map[string][]byte{}
			for s, p := range v.tasks {
				out[s] = p.text
			}
			return out
		}
		pb, po, pt := pieces(base), pieces(ours), pieces(theirs)
		// Every task added on either side is there.
		for _, side := range []map[string][]byte{po, pt} {
			for s := range side {
				if pb[s] == nil {
					require.True(t, have[s], "added task %s lost\n%s", s, msg)
				}
			}
		}
		// A task only one side changed is that side's bytes; one neither
		// changed is base's.
		for s, b := range pb {
			o, t2 := po[s], pt[s]
			switch {
			case o != nil && t2 != nil && bytes.Equal(o, b):
				require.Contains(t, string(got.Bytes), string(withEnd(t2, nl)[:len(t2)]), "theirs' change of %s\n%s", s, msg)
			case o != nil && t2 != nil && bytes.Equal(t2, b):
				require.Contains(t, string(got.Bytes), string(o), "ours' change of %s\n%s", s, msg)
			case o == nil && bytes.Equal(t2, b), t2 == nil && bytes.Equal(o, b):
				require.False(t, have[s], "task %s removed on one side only is gone\n%s", s, msg)
			}
		}
		if got.Clean() {
			clean++
			require.NotContains(t, string(got.Bytes), "<<<<<<<", msg)
		}
	}
	t.Logf("%d of 400 random merges clean", clean)
	require.Greater(t, clean, 100, "most random merges are clean")
}
