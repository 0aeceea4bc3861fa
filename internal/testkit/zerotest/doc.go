// Package zerotest is a test helper: it calls every exported method of a
// value, and every function of a list, with arguments it makes up, and
// checks that each answers with an error of code WORKSPACE_NOT_OPEN
// (taskdoc.ErrNotOpen) instead of a nil dereference. The packages built on
// a workspace use it on their values made without one (a nil
// *workspace.Workspace, workspace.Workspace{}, subagent.New(nil), ...).
//
// Methods are found by reflection, so a method added later is covered
// without a change to the tests. A context argument is a live one, so
// that the workspace's check answers, not the context's; a string is the name the caller gives; a
// function is nil (it must not be called); every other argument is its
// zero value.
package zerotest
