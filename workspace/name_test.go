package workspace

import (
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			assert.Equal(t, taskdoc.CodeOutsideRoot, taskdoc.CodeOf(err))
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
	long := strings.Repeat("é", 126) + ".md" // 255 bytes
	for _, name := range []string{"docs/api/auth.md", "auth.md", "docs/" + long, "docs/x"} {
		tmp, err := tempName(name)
		require.NoError(t, err)
		dir, target := path.Split(name)
		assert.True(t, strings.HasPrefix(tmp, dir+".tmp-"), tmp)
		base := strings.TrimPrefix(tmp, dir)
		assert.Len(t, base, 38, "the same short length for every target")
		assert.False(t, strings.HasSuffix(base, ".md"))
		assert.True(t, isTemp(base))
		assert.True(t, isTempOf(base, target))
		assert.True(t, isTempOf(base, strings.ToUpper(target)), "names that share a lock share temporary files")
		assert.False(t, isTempOf(base, target+"x"))
		assert.False(t, isTempOf(base, target[1:]))
		again, err := tempName(name)
		require.NoError(t, err)
		assert.NotEqual(t, tmp, again, "every writer gets its own")
	}

	// Names of earlier versions, which a crash may have left, still count.
	legacy := ".auth.md.tmp-0123456789abcdef"
	assert.True(t, isTemp(legacy))
	assert.True(t, isTempOf(legacy, "auth.md"))
	assert.False(t, isTempOf(legacy, "auth"))
	assert.False(t, isTempOf(legacy, "th.md"))
	assert.True(t, isTemp(".tmp-abcdefghijkl.tmp-0123456789abcdef"), "a legacy name of the new length")

	for _, base := range []string{"auth.md", ".auth.md", ".auth.md.tmp-", ".auth.md.tmp-xyz",
		"auth.md.tmp-0123456789abcdef", ".auth.md.tmp-0123456789abcdeg",
		".tmp-0123456789abcdef-0123456789abcde", ".tmp-0123456789abcdef-0123456789abcdeg",
		".tmp-0123456789ABCDEF-0123456789abcdef", ".tmp-0123456789abcdef_0123456789abcdef",
		"tmp-0123456789abcdef-0123456789abcdef0"} {
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
