package taskdoc

import (
	"encoding/hex"
	"fmt"
	"hash/crc64"
)

var versionTable = crc64.MakeTable(crc64.ECMA)

// versionOf is a task's Version: a CRC-64 of its text without the last
// line ending (which an edit after the task may add), which tells apart
// the versions of one task that an editor may hold; it is not a defence
// against a forger. It costs about a tenth of a millisecond per 250 KB at
// parse time.
func versionOf(text []byte) string {
	var b [8]byte
	sum := crc64.Checksum(text, versionTable)
	for i := range b {
		b[i] = byte(sum >> (56 - 8*i))
	}
	var out [16]byte
	hex.Encode(out[:], b[:])
	return string(out[:])
}

// CheckVersion is nil when want is "" or the task's Version. Otherwise the
// task changed since the caller read it at version want: CONFLICT, with
// the version it has now in Error.Current so the caller can read it again
// and retry. path names the document in the error.
func (t *Task) CheckVersion(path, want string) error {
	if want == "" || want == t.Version {
		return nil
	}
	return &Error{Code: CodeConflict, Path: path, Slug: t.Slug, Current: t.Version,
		Msg: fmt.Sprintf("task %q in %s changed since it was read (version %s, now %s): read it again", t.Slug, path, want, t.Version)}
}
