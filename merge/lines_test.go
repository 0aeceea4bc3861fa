package merge

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitMergeFile runs git merge-file -p on the three texts, with the labels
// mergeLines uses by default, and returns its output and whether it was clean.
func gitMergeFile(t *testing.T, dir string, base, ours, theirs []byte) ([]byte, bool) {
	t.Helper()
	names := []string{"ours", "base", "theirs"}
	for i, b := range [][]byte{ours, base, theirs} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, names[i]), b, 0o644))
	}
	cmd := exec.Command("git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return out, false
	}
	require.NoError(t, err)
	return out, true
}

// edit changes lines at random: deletes, replaces and inserts lines no
// other version has (numbered from *fresh).
func edit(r *rand.Rand, lines []string, fresh *int) []string {
	out := append([]string(nil), lines...)
	for range r.IntN(4) {
		at := r.IntN(len(out) + 1)
		*fresh++
		switch r.IntN(3) {
		case 0:
			if at < len(out) {
				out = append(out[:at], out[at+1:]...)
			}
		case 1:
			if at < len(out) {
				out[at] = fmt.Sprintf("new %d\n", *fresh)
				if r.IntN(6) == 0 {
					out[at] = strings.Repeat("-", *fresh) + "\n" // no letter or digit: git joins conflicts across it
				}
			}
		default:
			out = append(out[:at], append([]string{fmt.Sprintf("new %d\n", *fresh)}, out[at:]...)...)
		}
	}
	return out
}

func join(lines []string) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.Bytes()
}

// rounds and seed set TestLinesAgreesWithGit's inputs; run it longer with
// MERGE_ROUNDS=5000 MERGE_SEED=3 in the environment.
var (
	rounds = 300
	seed   = uint64(7)
)

func TestLinesAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(seed, 11))
	fresh := 0
	var clean, conflicts int
	for n := range rounds {
		base := make([]string, 3+r.IntN(10))
		for i := range base {
			base[i] = fmt.Sprintf("line %d\n", i)
		}
		ours := edit(r, base, &fresh)
		theirs := edit(r, base, &fresh)
		if n%5 == 0 {
			theirs = ours // the same change on both sides
		}
		b, o, th := join(base), join(ours), join(theirs)
		want, wantClean := gitMergeFile(t, dir, b, o, th)
		got := mergeLines(b, o, th)
		require.Equal(t, wantClean, got.Clean(), "base:\n%s\nours:\n%s\ntheirs:\n%s\ngit:\n%s\ngot:\n%s", b, o, th, want, got.Bytes)
		require.Equal(t, string(want), string(got.Bytes), "base:\n%s\nours:\n%s\ntheirs:\n%s", b, o, th)
		if wantClean {
			clean++
		} else {
			conflicts++
		}
	}
	t.Logf("%d clean, %d conflicts, all as git merge-file", clean, conflicts)
	assert.Greater(t, clean, 50)
	assert.Greater(t, conflicts, 50)
}

func TestLines(t *testing.T) {
	tests := []struct {
		name               string
		base, ours, theirs string
		want               string
		conflictLines      []int
	}{
		{"one side", "a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\n", "a\nB\nc\n", nil},
		{"both sides apart", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", "A\nb\nc\nd\nE\n", nil},
		{"the same change", "a\nb\n", "a\nX\n", "a\nX\n", "a\nX\n", nil},
		{"conflict", "a\nb\nc\n", "a\nB\nc\n", "a\nβ\nc\n", "a\n<<<<<<< ours\nB\n=======\nβ\n>>>>>>> theirs\nc\n", []int{2}},
		{"touching changes conflict", "a\nb\nc\n", "A\nb\nc\n", "a\nB\nc\n", "<<<<<<< ours\nA\nb\n=======\na\nB\n>>>>>>> theirs\nc\n", []int{1}},
		{"no final newline", "a\nb", "a\nb\nc", "a\nb", "a\nb\nc", nil},
		{"conflict without final newline", "a", "b", "c", "<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", []int{1}},
		{"CRLF markers", "a\r\nb\r\n", "a\r\nB\r\n", "a\r\nC\r\n", "a\r\n<<<<<<< ours\r\nB\r\n=======\r\nC\r\n>>>>>>> theirs\r\n", []int{2}},
		{"empty base, both add", "", "x\n", "y\n", "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n", []int{1}},
		{"shared start and end outside the conflict", "a\n", "p\nx\nq\n", "p\ny\nq\n", "p\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\nq\n", []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mergeLines([]byte(tt.base), []byte(tt.ours), []byte(tt.theirs))
			assert.Equal(t, tt.want, string(got.Bytes))
			var lines []int
			for _, c := range got.Conflicts {
				lines = append(lines, c.Line)
				assert.Equal(t, "text", c.Field)
			}
			assert.Equal(t, tt.conflictLines, lines)
		})
	}
}

func TestLinesOptions(t *testing.T) {
	got := mergeLines([]byte("a\n"), []byte("b\n"), []byte("c\n"), WithLabels("HEAD", "feature"), WithMarkerSize(9))
	assert.Equal(t, "<<<<<<<<< HEAD\nb\n=========\nc\n>>>>>>>>> feature\n", string(got.Bytes))
	got = mergeLines([]byte("a\n"), []byte("b\n"), []byte("c\n"), WithLabels("", ""), WithMarkerSize(0))
	assert.Equal(t, "<<<<<<<\nb\n=======\nc\n>>>>>>>\n", string(got.Bytes))
}

func init() {
	if v := os.Getenv("MERGE_ROUNDS"); v != "" {
		fmt.Sscan(v, &rounds)
	}
	if v := os.Getenv("MERGE_SEED"); v != "" {
		fmt.Sscan(v, &seed)
	}
}
