package taskdoc

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorMatchesSentinelByCode(t *testing.T) {
	err := fmt.Errorf("completing: %w", &Error{Code: CodeTaskNotFound, Path: "/api/auth.md", Slug: "x"})

	assert.ErrorIs(t, err, ErrTaskNotFound)
	assert.NotErrorIs(t, err, ErrDuplicateTask)
	assert.Equal(t, CodeTaskNotFound, CodeOf(err))

	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "/api/auth.md", e.Path)
	assert.Equal(t, "x", e.Slug)
}

func TestErrorUnwrapsCause(t *testing.T) {
	err := &Error{Code: CodeDocumentNotFound, Path: "docs/a.md", Err: fs.ErrNotExist}
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorIs(t, err, ErrDocumentNotFound)
}

func TestErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{
			name: "default message names slug and path",
			err:  &Error{Code: CodeTaskNotFound, Path: "/api/auth.md", Slug: "x", Available: []string{"a", "b"}},
			want: `task "x" not found in /api/auth.md; available: a, b`,
		},
		{
			name: "duplicate names slug and path",
			err:  &Error{Code: CodeDuplicateTask, Path: "/api/auth.md", Slug: "x"},
			want: `task "x" already exists in /api/auth.md`,
		},
		{
			name: "other codes read as words",
			err:  &Error{Code: CodeOutsideRoot, Path: "../x.md"},
			want: `outside root in ../x.md`,
		},
		{
			name: "explicit message keeps position",
			err:  &Error{Code: CodeInvalidUTF8, Msg: "invalid UTF-8 in /a.md", Line: 3, Column: 7},
			want: "invalid UTF-8 in /a.md (line 3, column 7)",
		},
		{
			name: "excerpt of the line",
			err:  &Error{Code: CodeInvalidTask, Msg: "the content has a level-2 heading", Line: 9, Column: 1, Offset: 80, Excerpt: "## Foo"},
			want: `the content has a level-2 heading (line 9, column 1: "## Foo")`,
		},
		{
			name: "cause is appended",
			err:  &Error{Code: CodeIO, Msg: "writing docs/a.md", Err: errors.New("disk full")},
			want: "writing docs/a.md: disk full",
		},
		{
			name: "available slugs only for task not found",
			err:  &Error{Code: CodeDuplicateTask, Msg: `task "x" already exists`, Available: []string{"x"}},
			want: `task "x" already exists`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestCodeOfForeignError(t *testing.T) {
	assert.Equal(t, Code(""), CodeOf(errors.New("plain")))
	assert.Equal(t, Code(""), CodeOf(nil))
}
