package gitsync

// BeforePush makes s run fn between each commit and its push.
func BeforePush(s *Sync, fn func()) { s.beforePush = fn }
