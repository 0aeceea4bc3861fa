package taskdoc

import "strings"

// AddressOfFile returns the address of the document a root-relative file
// name names, the inverse of Address.File: "docs/api/auth.md" is
// "/api/auth.md", "coordinator/active.md" is "/coordinator/active.md" and
// "archived/docs/x.md" is "/archived/docs/x.md". The address follows
// ParseAddress's rules and has no slug.
//
// A name that is not a document is INVALID_ADDRESS: one outside docs/,
// coordinator/ and archived/ (those folder names written in lower case),
// one ParseAddress refuses (no ".md", "." or ".." elements, a backslash),
// one holding a '#', and a file under docs/ whose first folder is
// "coordinator" or "archived" in any case, which no address can name (its
// address would be read as that folder's).
func AddressOfFile(file string) (Address, error) {
	bad := func(why string) (Address, error) {
		return Address{}, &Error{Code: CodeInvalidAddress, Path: file,
			Msg: "file " + quote(file) + " has no document address: " + why}
	}
	first, rest, ok := strings.Cut(file, "/")
	var p string
	switch {
	case ok && first == FolderDocs:
		p = "/" + rest
	case ok && (first == FolderCoordinator || first == FolderArchived):
		p = "/" + file
	default:
		return bad("it is not under " + FolderDocs + "/, " + FolderCoordinator + "/ or " + FolderArchived + "/")
	}
	if strings.ContainsRune(file, '#') {
		return bad("a '#' in a file name cannot be told from a task's slug")
	}
	a, err := ParseAddress(p)
	if err != nil {
		e := err.(*Error)
		e.Path, e.Msg = file, "file "+quote(file)+" has no document address: "+strings.TrimPrefix(e.Msg, "invalid address "+quote(p)+": ")
		return Address{}, e
	}
	if a.File() != file {
		return bad("its address, " + a.Path + ", names " + a.File() + " instead")
	}
	return a, nil
}
