package taskcontext

// LoadReferences is loadReferences, for the tests of its cuts and bounds.
var LoadReferences = loadReferences
