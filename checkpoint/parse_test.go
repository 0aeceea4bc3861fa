package checkpoint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/taskdoc"
)

// Documents that do not read fail with a code and point at the line and
// column to repair.
func TestParseWorkerCheckpointErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src  string
		code       taskdoc.Code
		line, col  int
		msgContain string
	}{
		{"invalid UTF-8", "## Notes\n\nab\xffc\n", taskdoc.CodeInvalidUTF8, 3, 3, ""},
		{"control character", "## Notes\n\nx\x07\n", taskdoc.CodeControlCharacter, 3, 2, "U+0007"},
		{"C1 control character", "## Notes\n\n\u009b\n", taskdoc.CodeControlCharacter, 3, 1, "U+009B"},
		{"front matter does not decode", "---\nworker: [\n---\n", taskdoc.CodeParse, 0, 0, "front matter"},
		{"bad worker id", "---\nstatus: DONE\nworker: \"Worker 1\"\n---\n", taskdoc.CodeParse, 3, 1, "worker"},
		{"unknown status", "---\n  status: half\n---\n", taskdoc.CodeParse, 2, 3, "unknown worker status"},
		{"phase not lower_snake", "---\nphase: waiting-for\n---\n", taskdoc.CodeParse, 2, 1, "lower_snake"},
		{"unknown pivot mode", "---\npivot_mode: soft\n---\n", taskdoc.CodeParse, 2, 1, "pivot mode"},
		{"bad task", "---\ntask: /x.txt\n---\n", taskdoc.CodeParse, 2, 1, "task"},
		{"bad time", "---\ntime: yesterday\n---\n", taskdoc.CodeParse, 2, 1, "time"},
		{"negative sequence", "---\nsequence: -2\n---\n", taskdoc.CodeParse, 2, 1, "sequence"},
		{"list as a value", "---\nworker:\n  - a\n---\n", taskdoc.CodeParse, 2, 1, "one value"},
		{"reason on two lines", "---\nclarification_id: \"a\\nb\"\n---\n", taskdoc.CodeParse, 2, 1, "one line"},
		{"status heading", "# T\n\n## Status: HALF\n", taskdoc.CodeParse, 3, 1, "unknown worker status"},
		{"unclosed fence", "## Notes\n\n~~~\n## Completed\n- [x] a\n", taskdoc.CodeParse, 3, 1, "never closed"},
		{"unclosed fence, CRLF", "## Notes\r\n\r\n```go\r\n", taskdoc.CodeParse, 3, 1, "never closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checkpoint.Parse([]byte(tc.src))
			e := requireCode(t, err, tc.code)
			if tc.line > 0 {
				assert.Equal(t, tc.line, e.Line, "%v", err)
				assert.Equal(t, tc.col, e.Column, "%v", err)
				assert.NotEmpty(t, e.Excerpt)
			}
			assert.Contains(t, e.Error(), tc.msgContain)
		})
	}
}

// What a person may do to a checkpoint and how it reads.
func TestParseWorkerCheckpointHandEdits(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      checkpoint.Checkpoint
	}{
		{"empty document", "", checkpoint.Checkpoint{Status: checkpoint.StatusPartial}},
		{"BOM, lone CR, YAML scalars unquoted", "\uFEFF---\rworker: 123\rphase: yes\rsequence: \"7\"\r---\r## Done\r- a\r",
			checkpoint.Checkpoint{Worker: "123", Phase: "true", Sequence: 7, Status: checkpoint.StatusPartial,
				Completed: []string{"a"}}},
		{"TOML front matter", "+++\nworker = \"w\"\nstatus = \"done\"\ntime = 2026-01-18T11:15:23+01:00\n+++\n",
			checkpoint.Checkpoint{Worker: "w", Status: checkpoint.StatusDone, Time: pivotedCheckpoint.Time}},
		{"front matter status wins over the heading", "---\nstatus: DONE\n---\n## Status: BLOCKED\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusDone}},
		{"status under its heading", "## Status\n\nblocked\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusBlocked}},
		{"two sections of one name are joined", "## Notes\none\n## Remaining\n- [ ] a\n## NOTES\ntwo\n## Remaining:\n- b\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, Notes: "one\n\ntwo", Remaining: []string{"a", "b"}}},
		{"checked items leave In Progress and Remaining", "## Remaining\n- [x] r\n- [ ] s\n## In Progress\n- [X] p\n## Completed\n- [ ] c\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, Completed: []string{"c", "p", "r"},
				Remaining: []string{"s"}}},
		{"paragraphs, sub-headings and code in a list are skipped", "## Blocked\n\nIntro.\n\n- a\n  wrapped\n\n   indented after a blank\n\nOutro\n### Sub\n```\n- not an item\n```\n- b\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, Blocked: []string{"a wrapped indented after a blank", "b"}}},
		{"empty items and '##' alone are skipped", "## Decisions\n- [ ]\n-  \n- d\n##\n\nlost\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, Decisions: []string{"d"}}},
		{"files in the ways people write them", "## Files\n- `a.go`\n- b.go (new)\n- c (1).go\n- `d.go` — gone\n- [x] `e.go` (deleted)\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, FilesChanged: []checkpoint.FileChange{
				{Path: "a.go"}, {Path: "b.go", Note: "new"}, {Path: "c (1).go"}, {Path: "d.go", Note: "— gone"}, {Path: "e.go", Note: "deleted"}}}},
		{"other headings are kept as extra sections", "# Title\n\n## Parallel work\n* p\n## Review  comments\n\n  text  \n\n",
			checkpoint.Checkpoint{Status: checkpoint.StatusPartial, ParallelWork: []string{"p"},
				Extra: []checkpoint.Section{{Heading: "Review comments", Body: "  text  "}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := checkpoint.Parse([]byte(tc.src))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParseWorkerCheckpointJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		code      taskdoc.Code
		line      int
	}{
		{"syntax", "{\n  \"agentId\": \"w\",\n  oops\n}", taskdoc.CodeParse, 3},
		{"wrong type", "{\n  \"workState\": {\"completed\": \"x\"}\n}", taskdoc.CodeParse, 2},
		{"invalid UTF-8", "{\"agentId\": \"\xff\"}", taskdoc.CodeInvalidUTF8, 1},
		{"escaped control character", `{"workState": {"blocked": ["a\u0000"]}}`, taskdoc.CodeControlCharacter, 0},
		{"bad worker", `{"agentId": "W"}`, taskdoc.CodeInvalidArguments, 0},
		{"bad timestamp", `{"timestamp": "10:15"}`, taskdoc.CodeInvalidArguments, 0},
		{"resume instructions a number", `{"resumeInstructions": 3}`, taskdoc.CodeParse, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checkpoint.ParseJSON([]byte(tc.src))
			e := requireCode(t, err, tc.code)
			if tc.line > 0 {
				assert.Equal(t, tc.line, e.Line, "%v", err)
			}
		})
	}
}
