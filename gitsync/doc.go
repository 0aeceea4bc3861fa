// Package gitsync makes claims and completions real across machines that
// share a git remote: each commits its change and pushes it, and a push
// that is rejected fetches, merges, checks again and retries.
package gitsync
