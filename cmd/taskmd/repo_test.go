package main

import (
	"bytes"
	byteorder "encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isExecutable reports whether head, the start of a file, is a compiled
// program: ELF, Mach-O (either byte order, or universal) or PE.
func isExecutable(head []byte) bool {
	if bytes.HasPrefix(head, []byte("\x7fELF")) {
		return true
	}
	if len(head) >= 4 {
		switch byteorder.BigEndian.Uint32(head) {
		case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe:
			return true
		}
	}
	if len(head) >= 0x40 && bytes.HasPrefix(head, []byte("MZ")) {
		off := int(byteorder.LittleEndian.Uint32(head[0x3c:]))
		return off+4 <= len(head) && string(head[off:off+4]) == "PE\x00\x00"
	}
	return false
}

// The repository holds no compiled program: `go build` output is ignored
// (.gitignore), never committed.
func TestNoCommittedBinaries(t *testing.T) {
	top, err := exec.Command("git", "-C", "../..", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout:", err)
	}
	root := strings.TrimSpace(string(top))
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	require.NoError(t, err)
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	require.NotEmpty(t, files)
	for _, name := range files {
		f, err := os.Open(filepath.Join(root, name))
		if err != nil {
			continue // deleted in the work tree
		}
		head := make([]byte, 4096)
		n, _ := io.ReadFull(f, head)
		f.Close()
		assert.False(t, isExecutable(head[:n]), "%s is a compiled program: remove it and ignore it in .gitignore", name)
	}
}

// The check knows a program when it sees one: this test's own binary.
func TestIsExecutableSeesABinary(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	f, err := os.Open(self)
	require.NoError(t, err)
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	assert.True(t, isExecutable(head[:n]))
	assert.False(t, isExecutable([]byte("# Plan\n\n## Tasks\n")))
	assert.False(t, isExecutable([]byte("MZ is a text file starting so")))
}
