package main

// startingFiles are the workflows and specifications that the scenarios'
// tasks name, by root-relative file name. A workflow is plain Markdown in
// workflows/<name>.md; a task's Workflow field names it without ".md".
var startingFiles = map[string]string{
	"workflows/tdd-incremental-orchestration.md": `# TDD incremental orchestration

1. Split the feature into tasks that each end in a passing test.
2. For each task: write the failing test, make it pass, refactor.
3. Complete the task with a note that names the tests.
`,
	"workflows/multi-option-tradeoff.md": `# Multi-option trade-off

List at least three options, score each against the requirements, pick one
and write down why the others lost.
`,
	"workflows/code-review-issue-based.md": `# Code review, issue based

Read the change against its task, file one issue per finding, and complete
the review only when every issue is resolved or explicitly deferred.
`,
	"docs/specs/security-requirements.md": `# Security requirements

## Sessions

Sessions must survive a server restart and be revocable.

## Token lifetime

Access tokens live 15 minutes, refresh tokens 30 days.
`,
	"docs/specs/jwt-spec.md": `# JWT specification

Tokens are signed with RS256; keys rotate monthly.

Lifetimes follow @/specs/security-requirements.md#token-lifetime.
`,
}
