package editor_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/editor"
)

func TestDefinition(t *testing.T) {
	ctx := context.Background()
	for _, enc := range editor.Encodings {
		t.Run(string(enc), func(t *testing.T) {
			s, _ := newTestSession(t, navFiles(), editor.WithEncoding(enc))
			const path = "docs/plan.md"
			const spec = "docs/specs/spec.md"
			def := func(p editor.Position) []editor.Location {
				t.Helper()
				locs, err := s.Definition(ctx, path, p)
				require.NoError(t, err)
				return locs
			}
			intro := []editor.Location{{Path: spec, Range: span(7, 0, 7, 8)}}
			// On the reference, at its start, inside and at its end.
			assert.Equal(t, intro, def(pos(t, navPlan, "@/specs/spec.md#intro", 0, 0, enc)))
			assert.Equal(t, intro, def(pos(t, navPlan, "#intro", 0, 2, enc)))
			assert.Equal(t, intro, def(pos(t, navPlan, " and @/specs/spec.md,", 0, 0, enc)))
			// A reference without a section: the document's start.
			assert.Equal(t, []editor.Location{{Path: spec}}, def(pos(t, navPlan, "@/specs/spec.md,", 0, 3, enc)))
			assert.Empty(t, def(pos(t, navPlan, "@/missing.md", 0, 3, enc)))

			// Depends-On entries: the task's heading, here or there.
			assert.Equal(t, []editor.Location{{Path: path, Range: span(13, 0, 13, 10)}}, def(pos(t, navPlan, "#design", 0, 1, enc)))
			assert.Equal(t, []editor.Location{{Path: spec, Range: span(17, 0, 17, 14)}}, def(pos(t, navPlan, "/specs/spec.md#write-spec", 0, 20, enc)))
			assert.Empty(t, def(pos(t, navPlan, "/missing.md#x", 0, 1, enc)))
			assert.Empty(t, def(pos(t, navPlan, "#nope", 0, 1, enc)))
			// Anywhere else, nothing.
			assert.Empty(t, def(pos(t, navPlan, "- Workflow: tdd", 0, 13, enc)))
			assert.Empty(t, def(editor.Position{Line: 0, Character: 0}))

			// An open buffer, with a section heading moved by typing.
			require.NoError(t, s.Open(ctx, spec, 1, "# Spec\r\n\r\n😀 intro\r\n\r\n## Intro\r\n"))
			assert.Equal(t, []editor.Location{{Path: spec, Range: span(4, 0, 4, 8)}}, def(pos(t, navPlan, "#intro", 0, 0, enc)))
			// A setext section heading spans its underline.
			require.NoError(t, s.Open(ctx, spec, 2, "# Spec\n\nIntro\n-----\n"))
			assert.Equal(t, []editor.Location{{Path: spec, Range: span(2, 0, 3, 5)}}, def(pos(t, navPlan, "#intro", 0, 0, enc)))
		})
	}
}
