package query

// Summarise is summariseFile, for the tests of documents that do not read.
var Summarise = summariseFile
