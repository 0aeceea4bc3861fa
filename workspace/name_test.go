package workspace

import (
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/taskmd/taskmd/taskdoc"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"docs/api/auth.md", true},
		{"coordinator/active.md", true},
		{".taskmd/leases/x", true},
		{"docs/..md", true},    // dots inside an element are just a name
		{"docs/a..b.md", true}, // likewise
		{"docs/ünïcode.md", true},
		{"", false},
		{"/etc/passwd", false},
		{"../x.md", false},
		{"a/../../x.md", false},
		{"docs/../x.md", false}, // stays inside, but names must be clean
		{"./docs/x.md", false},
		{"docs/./x.md", false},
		{"docs//x.md", false},
		{"docs/", false},
		{"docs\\x.md", false},
		{"..\\x.md", false},
		{"docs/x\x00.md", false},
		{".taskmd", false},
		{".taskmd/locks", false},
		{".taskmd/locks/docs%2Fa.md.lock", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkName(tt.name)
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, taskdoc.ErrOutsideRoot)
		})
	}
}

func TestLockFileNameIsFlatAndUnambiguous(t *testing.T) {
	names := []string{"x", "x.lock/y", "x%2Fy", "x/y", "docs/a.md", "docs%2Fa.md",
		strings.Repeat("d/", 200) + "a.md", strings.Repeat("d/", 201) + "a.md"}
	seen := map[string]string{}
	for _, n := range names {
		got := lockFileName(n)
		assert.True(t, strings.HasPrefix(got, lockDir+"/"), got)
		base := strings.TrimPrefix(got, lockDir+"/")
		assert.NotContains(t, base, "/", "lock files live in one directory")
		assert.LessOrEqual(t, len(base), 255)
		assert.True(t, strings.HasSuffix(base, ".lock"))
		assert.False(t, strings.HasSuffix(base, ".md"))
		if other, dup := seen[got]; dup {
			t.Errorf("%q and %q share lock file %s", n, other, got)
		}
		seen[got] = n
	}
	assert.Equal(t, ".taskmd/locks/docs%2Fapi%2Fauth.md.lock", lockFileName("docs/api/auth.md"))
}

func TestTempNames(t *testing.T) {
	tmp, err := tempName("docs/api/auth.md")
	assert.NoError(t, err)
	assert.True(t, strings.HasPrefix(tmp, "docs/api/.auth.md.tmp-"), tmp)
	base := tmp[strings.LastIndex(tmp, "/")+1:]
	assert.True(t, isTemp(base))
	assert.True(t, isTempOf(base, "auth.md"))
	assert.False(t, isTempOf(base, "auth"))
	assert.False(t, isTempOf(base, "th.md"))
	assert.False(t, strings.HasSuffix(tmp, ".md"))

	for _, base := range []string{"auth.md", ".auth.md", ".auth.md.tmp-", ".auth.md.tmp-xyz",
		"auth.md.tmp-0123456789abcdef", ".auth.md.tmp-0123456789abcdeg"} {
		assert.False(t, isTemp(base), base)
	}
}

func TestCheckUTF8PointsAtTheFirstBadByte(t *testing.T) {
	err := checkUTF8("docs/a.md", []byte("# A\n\nhé \xff here\n"))
	var e *taskdoc.Error
	if assert.ErrorAs(t, err, &e) {
		assert.Equal(t, taskdoc.CodeInvalidUTF8, e.Code)
		assert.Equal(t, 3, e.Line)
		assert.Equal(t, 4, e.Column)
		assert.Equal(t, "docs/a.md", e.Path)
	}
	assert.NoError(t, checkUTF8("docs/a.bin", []byte{0xff}), "only Markdown must be UTF-8")
}

// FuzzCheckName checks that every accepted name is a clean, local,
// slash-separated path: nothing accepted can point above the root.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"docs/a.md", "../x", "a/../../b", "/etc", "a//b", "a\\b", "a\x00", ".", "", "é/ü.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkName(name) != nil {
			return
		}
		assert.Equal(t, path.Clean(name), name)
		assert.True(t, filepath.IsLocal(filepath.FromSlash(name)) || runtime.GOOS == "windows", name)
		assert.False(t, strings.HasPrefix(name, "/"))
		assert.NotContains(t, "/"+name+"/", "/../")
		assert.NotContains(t, name, "\\")
	})
}
