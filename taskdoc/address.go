package taskdoc

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taskmd/taskmd/internal/plaintext"
)

// The folders of a workspace, relative to its root. Document addresses are
// relative to FolderDocs ("/api/auth.md" is docs/api/auth.md), except those
// whose first element is FolderCoordinator or FolderArchived, which name
// those folders ("/coordinator/active.md" is coordinator/active.md).
const (
	FolderDocs        = "docs"        // documents and their tasks
	FolderCoordinator = "coordinator" // the coordinator's list
	FolderArchived    = "archived"    // finished lists and documents
	FolderWorkflows   = "workflows"   // workflow prompts, by name
)

// Address names a document, and optionally one of its tasks, the way
// callers write it: "/api/auth.md#implement-jwt-signing".
type Address struct {
	Path string `json:"path"`           // "/api/auth.md": always starts with "/", relative to docs/ (or "/coordinator/...", "/archived/...")
	Slug string `json:"slug,omitempty"` // "" when the address has no '#'
}

// ParseAddress validates and splits an address. A path without a leading
// "/" gets one ("api/auth.md" is "/api/auth.md"). It returns
// INVALID_ADDRESS for an empty address, a '#' with no slug after it, a
// "." or ".." element, an empty element ("//"), a backslash, a NUL or other
// control character, invalid UTF-8, a path that does not end in ".md", or
// a file name (Address.File) past the limits of PathLimit: MaxPathDepth
// folders, MaxPathBytes in all and MaxPathElement in one element.
func ParseAddress(s string) (Address, error) {
	bad := func(why string) (Address, error) {
		return Address{}, &Error{Code: CodeInvalidAddress, Msg: "invalid address " + quote(s) + ": " + why}
	}
	if strings.TrimSpace(s) == "" {
		return bad("it is empty")
	}
	if !utf8.ValidString(s) {
		return bad("it is not valid UTF-8")
	}
	if strings.ContainsFunc(s, plaintext.IsControl) {
		return bad("it contains a control character")
	}
	if strings.ContainsRune(s, '\\') {
		return bad(`it contains a backslash; use "/"`)
	}
	p, slug, hasSlug := strings.Cut(s, "#")
	if hasSlug && slug == "" {
		return bad("the slug after '#' is empty")
	}
	if strings.ContainsAny(slug, "# \t") {
		return bad("the slug contains '#' or a space")
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	for _, elem := range strings.Split(p[1:], "/") {
		switch elem {
		case "":
			return bad("the path has an empty element")
		case ".", "..":
			return bad("the path contains " + quote(elem))
		}
	}
	if path.Ext(p) != ".md" || path.Base(p) == ".md" {
		return bad(`the path does not name a ".md" document`)
	}
	a := Address{Path: p, Slug: slug}
	if why := PathLimit(a.File()); why != "" {
		return Address{}, &Error{Code: CodeInvalidAddress,
			Msg: "invalid address " + quote(shorten(s, 80)) + ": its file " + shorten(a.File(), 80) + " is refused: " + why}
	}
	return a, nil
}

// Folder returns the workspace folder the address names a file in:
// FolderCoordinator or FolderArchived when its first element is that name,
// in any case (as a file system that ignores case would read it), and
// FolderDocs otherwise.
func (a Address) Folder() string {
	first, _, _ := strings.Cut(strings.TrimPrefix(a.Path, "/"), "/")
	for _, f := range []string{FolderCoordinator, FolderArchived} {
		if strings.EqualFold(first, f) {
			return f
		}
	}
	return FolderDocs
}

// File returns the root-relative name of the file the address names:
// "docs/api/auth.md" for "/api/auth.md", "coordinator/active.md" for
// "/coordinator/active.md", "archived/docs/x.md" for "/archived/docs/x.md".
func (a Address) File() string {
	rel := strings.TrimPrefix(a.Path, "/")
	if f := a.Folder(); f != FolderDocs {
		_, rest, _ := strings.Cut(rel, "/")
		return f + "/" + rest
	}
	return FolderDocs + "/" + rel
}

// String returns the address as ParseAddress reads it.
func (a Address) String() string {
	if a.Slug == "" {
		return a.Path
	}
	return a.Path + "#" + a.Slug
}

// NewDocument returns the bytes of a new task document: a level-1 title
// and an empty "## Tasks" section. The title is written as DocumentTitle
// gives it; one that DocumentTitle refuses (an empty one) gives the
// document no title.
func NewDocument(title string) []byte {
	title, err := DocumentTitle(title)
	if err != nil {
		return []byte("## Tasks\n")
	}
	return []byte("# " + title + "\n\n## Tasks\n")
}

// DocumentTitle is the rule for the title of a new document, which every
// creator of one follows: title folded onto one line (FoldLine), refused
// when it is not valid UTF-8 (CodeInvalidUTF8), holds a control character
// but tab and line breaks (CONTROL_CHARACTER, as edits refuse them), or
// is empty once folded (INVALID_ARGUMENTS).
func DocumentTitle(title string) (string, error) {
	if err := CheckText("title", title); err != nil {
		return "", err
	}
	folded := plaintext.FoldLine(title)
	if folded == "" {
		return "", &Error{Code: CodeInvalidArguments, Msg: "the title is empty: give the document a title"}
	}
	return folded, nil
}

// TitleFromPath turns a document path into the title of a new document:
// the file name without ".md", with '-' and '_' read as spaces and each
// word capitalised. "/api/user-management.md" gives "User Management".
func TitleFromPath(p string) string {
	name := strings.TrimSuffix(path.Base(strings.ReplaceAll(p, "\\", "/")), ".md")
	if name == "." || name == "/" {
		return ""
	}
	words := strings.FieldsFunc(name, func(r rune) bool {
		return r == '-' || r == '_' || unicode.IsSpace(r)
	})
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToTitle(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

// shorten cuts s to at most n bytes and a "…", at a character's start.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// quote renders a caller's string inside an error message.
func quote(s string) string { return strconv.Quote(s) }
