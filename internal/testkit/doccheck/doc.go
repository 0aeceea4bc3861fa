// Package doccheck checks the documentation against the code: every ```go
// block of README.md and docs/*.md compiles against this module, and every
// relative link of those files names a file that exists. It has only tests.
//
// A Go block is one of three forms, told apart by its text:
//
//   - a whole file: it starts with a package clause and is compiled as it is;
//   - declarations (imports, functions, types): it is compiled as a file
//     of its own, with the package clause added;
//   - statements: they are compiled as the body of a function that returns
//     an error, so a sample may end with `return err`.
//
// The last two may use the module's public packages, the standard library
// packages of [stdPackages] and the MCP SDK's mcp package without importing
// them, and the names of [givens] without declaring them: ctx, ws and the
// few values a sample is handed by the text around it. A statement sample
// may leave a variable unused (it shows a call and its results); nothing
// else is forgiven.
package doccheck
