// Package watch waits for files to change without polling: Until re-checks
// a condition each time the file system reports a change in a folder
// (fsnotify: inotify, kqueue, ReadDirectoryChangesW), and gives up at a
// timeout measured on an injectable clock. Pivot acknowledgements and
// clarification answers are waited for with it: the waiting side learns of a
// file another process wrote within moments, and costs nothing meanwhile.
package watch
