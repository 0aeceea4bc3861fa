package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFlags(t *testing.T) {
	var out, errs bytes.Buffer
	assert.Equal(t, 0, run([]string{"-version"}, strings.NewReader(""), &out, &errs))
	assert.True(t, strings.HasPrefix(out.String(), "taskmd-lsp "), out.String())
	assert.Contains(t, out.String(), "LSP 3.18")

	out.Reset()
	assert.Equal(t, 0, run([]string{"-h"}, strings.NewReader(""), &out, &errs))
	assert.Contains(t, errs.String(), "-version")
	assert.NotContains(t, errs.String(), "-now", "a flag for tests only")
	assert.Empty(t, out.String(), "stdout carries only the protocol")

	errs.Reset()
	assert.Equal(t, 2, run([]string{"-now", "yesterday"}, strings.NewReader(""), &out, &errs))
	assert.Contains(t, errs.String(), "-now")

	// An editor that goes away without shutdown and exit: exit code 1.
	errs.Reset()
	assert.Equal(t, 1, run(nil, strings.NewReader(""), &out, &errs))
	assert.Empty(t, out.String())
}
