package gitsync

import "time"

// BeforePush makes s run fn between each commit and its push.
func BeforePush(s *Sync, fn func()) { s.beforePush = fn }

// Waiting is how many calls wait in s's queue for the next batch.
func Waiting(s *Sync) int {
	s.queue.mu.Lock()
	defer s.queue.mu.Unlock()
	return len(s.queue.calls)
}

// FoldAfter sets how long s lets the branch lag behind the plan refs
// before a push brings it up (see fold).
func FoldAfter(s *Sync, d time.Duration) { s.foldAfter = d }

// AsideMsg is the message of the stashes that set a person's edits aside.
const AsideMsg = asideMsg
