package coordinator_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/taskmd/taskmd/coordinator"
	"github.com/taskmd/taskmd/internal/testkit/filetest"
)

// The archive index, as the package documentation describes it.
const (
	indexDir    = ".taskmd/archives"
	indexMarker = indexDir + "/README"
)

// finishedList is a list whose tasks are all completed: the next operation
// archives it.
const finishedList = "# Coordinator Tasks\n\n## Tasks\n\n### a\n\n- Status: completed\n- Main-Workflow: m\n- Completed: 2026-11-21\n- Note: done\n"

// indexEntry is the name of the index entry of a list with text.
func indexEntry(text string) string {
	sum := sha256.Sum256([]byte(text))
	return indexDir + "/" + hex.EncodeToString(sum[:])
}

// earlierBase is an archive base made a day before fixedNow, so that a test
// can tell an archive named by the index from one named by the clock.
const earlierBase = archiveDir + "/active-2026-11-21-170000"

// Finishing a list records it in the index before its copy is made: the
// entry, named by the list's SHA-256, holds the archive's base, and the
// marker says the index is complete.
func TestIndexIsWrittenWithTheArchive(t *testing.T) {
	list, _, root := openList(t, map[string]string{activeFile: lastTaskInProgress})
	done, err := list.Complete(bg, "last note", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.Equal(t, archiveDir+"/active-2026-11-22-093000.md", done.ArchivedTo)
	archived := mustRead(t, root, done.ArchivedTo)
	assert.Equal(t, archiveDir+"/active-2026-11-22-093000\n", mustRead(t, root, indexEntry(archived)))
	assert.NotEmpty(t, mustRead(t, root, indexMarker))
}

// A crash can stop an archive after its index entry, after its copy, or
// after both and the removal. Whatever it left, the next operation leaves
// exactly one archive, under the base the entry names (not the clock's),
// and no list.
func TestIndexRecoversACrashCutArchive(t *testing.T) {
	entry := indexEntry(finishedList)
	tests := []struct {
		name  string
		files map[string]string
		want  []string // archives afterwards
	}{
		{"entry made, no copy", map[string]string{
			entry: earlierBase + "\n",
		}, []string{earlierBase + ".md"}},
		{"entry and copy made, list not removed", map[string]string{
			entry: earlierBase + "\n", earlierBase + ".md": finishedList,
		}, []string{earlierBase + ".md"}},
		{"copy made after a clash in its second", map[string]string{
			entry: earlierBase + "\n", earlierBase + ".md": lastTaskInProgress, earlierBase + "-2.md": finishedList,
		}, []string{earlierBase + "-2.md", earlierBase + ".md"}},
		{"entry without a newline", map[string]string{
			entry: earlierBase, earlierBase + ".md": finishedList,
		}, []string{earlierBase + ".md"}},
		{"whole index deleted after the copy", map[string]string{
			earlierBase + ".md": finishedList,
		}, []string{earlierBase + ".md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{activeFile: finishedList}
			for name, text := range tt.files {
				files[name] = text
			}
			if _, ok := tt.files[entry]; ok {
				files[indexMarker] = "index\n"
			}
			list, _, root := openList(t, files)
			tasks, err := list.List(bg)
			require.NoError(t, err)
			assert.Empty(t, tasks)
			_, active := readFile(t, root, activeFile)
			assert.False(t, active, "the list is removed")
			assert.Equal(t, tt.want, archives(t, root))
			assert.Equal(t, finishedList, mustRead(t, root, tt.want[0]))
		})
	}
}

// An index entry that is not what the library writes (edited by hand,
// damaged, not a file) never fails the archive nor places it outside
// archived/coordinator. The list is archived under the clock's name, or,
// when a copy of it exists, that copy is found by reading the archives.
func TestIndexEntryThatIsGarbage(t *testing.T) {
	entry := indexEntry(finishedList)
	garbage := map[string]string{
		"text":                  "not a name\n",
		"empty":                 "",
		"outside the archives":  "docs/notes\n",
		"dot-dot":               archiveDir + "/../coordinator/active-2026-11-21-170000\n",
		"with a clash suffix":   earlierBase + "-2\n",
		"with .md":              earlierBase + ".md\n",
		"an impossible time":    archiveDir + "/active-2026-13-45-999999\n",
		"two lines":             earlierBase + "\n" + earlierBase + "\n",
		"invalid UTF-8":         "\xff\xfe\n",
		"a folder (file below)": "",
	}
	for name, text := range garbage {
		for _, copyMade := range []bool{false, true} {
			t.Run(name+map[bool]string{false: ", no copy", true: ", copy made"}[copyMade], func(t *testing.T) {
				files := map[string]string{activeFile: finishedList, indexMarker: "index\n"}
				if name == "a folder (file below)" {
					files[entry+"/x"] = "x"
				} else {
					files[entry] = text
				}
				want := archiveDir + "/active-2026-11-22-093000.md" // the clock's
				if copyMade {
					files[earlierBase+".md"] = finishedList
					want = earlierBase + ".md"
				}
				list, _, root := openList(t, files)
				require.NoError(t, list.Recover(bg))
				_, active := readFile(t, root, activeFile)
				assert.False(t, active, "the list is removed")
				assert.Equal(t, []string{want}, archives(t, root))
				assert.Equal(t, finishedList, mustRead(t, root, want))
				_, err := os.Stat(filepath.Join(root, "docs"))
				assert.ErrorIs(t, err, os.ErrNotExist, "nothing written outside the archives")
			})
		}
	}
}

// An entry whose archive was deleted by hand names the base a new copy
// takes: the list is archived there again, not lost, and not under the
// clock's name.
func TestIndexEntryWhoseArchiveWasDeleted(t *testing.T) {
	later, ws, root := openList(t, map[string]string{activeFile: lastTaskInProgress})
	earlier := coordinator.New(ws, coordinator.WithClock(func() time.Time { return fixedNow.Add(-24 * time.Hour) }))
	done, err := earlier.Complete(bg, "last note", coordinator.CompleteOptions{})
	require.NoError(t, err)
	require.Equal(t, archiveDir+"/active-2026-11-21-093000.md", done.ArchivedTo)
	text := mustRead(t, root, done.ArchivedTo)
	require.NoError(t, os.Remove(filepath.Join(root, filepath.FromSlash(done.ArchivedTo))))

	// The same list again, finished a day later.
	filetest.Write(t, root, activeFile, text)
	require.NoError(t, later.Recover(bg))
	assert.Equal(t, []string{done.ArchivedTo}, archives(t, root))
	assert.Equal(t, text, mustRead(t, root, done.ArchivedTo))
	_, active := readFile(t, root, activeFile)
	assert.False(t, active)
}

// Two lists with identical bytes share one archive, the first one's, even
// when the second is finished later; a list that differs by one byte gets
// its own.
func TestIdenticalListsShareOneArchive(t *testing.T) {
	list, ws, root := openList(t, nil)
	later := coordinator.New(ws, coordinator.WithClock(func() time.Time { return fixedNow.Add(time.Hour) }))
	finish := func(list *coordinator.List, note string) string {
		t.Helper()
		filetest.Write(t, root, activeFile, lastTaskInProgress)
		done, err := list.Complete(bg, note, coordinator.CompleteOptions{})
		require.NoError(t, err)
		require.NotEmpty(t, done.ArchivedTo, done.ArchiveError)
		return done.ArchivedTo
	}
	// Completed dates follow each list's clock: the same day for both.
	a := finish(list, "last note")
	b := finish(later, "last note")
	assert.Equal(t, a, b, "identical lists share one archive")
	c := finish(later, "another note")
	assert.NotEqual(t, a, c)
	assert.Equal(t, []string{a, c}, archives(t, root))
}

// The index is library state: when it cannot be written (here
// .taskmd/archives is a file), lists are still archived, each once.
func TestIndexThatCannotBeWritten(t *testing.T) {
	list, _, root := openList(t, map[string]string{indexDir: "not a folder\n"})
	for _, note := range []string{"one", "two"} {
		filetest.Write(t, root, activeFile, lastTaskInProgress)
		done, err := list.Complete(bg, note, coordinator.CompleteOptions{})
		require.NoError(t, err)
		require.NoError(t, done.ArchiveError)
		require.NotEmpty(t, done.ArchivedTo)
	}
	assert.Len(t, archives(t, root), 2)
	assert.Equal(t, "not a folder\n", mustRead(t, root, indexDir))

	// A crash-cut copy is then found by reading the archives.
	copyName := archives(t, root)[0]
	filetest.Write(t, root, activeFile, mustRead(t, root, copyName))
	require.NoError(t, list.Recover(bg))
	assert.Len(t, archives(t, root), 2, "no second copy")
}

// A list finished again by hand after its copy was made (a crash between
// copy and removal, then an edit) is a different list: it gets an archive
// and an entry of its own, and the first copy stays as it was.
func TestIndexListEditedAfterItsCopy(t *testing.T) {
	list, _, root := openList(t, map[string]string{activeFile: finishedList, indexMarker: "index\n",
		indexEntry(finishedList): earlierBase + "\n", earlierBase + ".md": finishedList})
	edited := finishedList + "\n### b\n\n- Status: completed\n"
	filetest.Write(t, root, activeFile, edited)
	require.NoError(t, list.Recover(bg))
	names := archives(t, root)
	require.Len(t, names, 2, "the edit is a different list")
	assert.Equal(t, finishedList, mustRead(t, root, earlierBase+".md"))
	assert.Equal(t, edited, mustRead(t, root, names[1]))
	assert.Equal(t, archiveDir+"/active-2026-11-22-093000\n", mustRead(t, root, indexEntry(edited)))
}
