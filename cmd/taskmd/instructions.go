package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/taskmd/taskmd/taskdoc"
)

// The roles instructions knows, with their text: what an agent in that
// role pastes into AGENTS.md or CLAUDE.md to work with taskmd from the
// command line. Upper-case words are placeholders, as in taskmd help:
// ID (an agent id), ADDRESS (a task), DOC (a plan document), N (a claim's
// token), REQUEST (a question's id). Every command shown is run by a test.
var roleInstructions = map[string]string{
	"worker": `## Tasks: taskmd (worker)

Tasks live in Markdown under docs/: a plan is a document (DOC: /api/auth.md), a task its
address (ADDRESS: /api/auth.md#slug). Use taskmd, not an editor, to change them; run
taskmd help for every command and flag (--json for JSON).

Work on a task in this order (ID is your agent id, N your claim's token):

    taskmd agent register --id ID --name ID --runtime cli
    taskmd next DOC                  # tasks you may claim
    taskmd claim ADDRESS --agent ID  # prints your token N; exit 4: held, take another
    taskmd context ADDRESS           # the task, what it depends on, its journal
    taskmd status ADDRESS in_progress --agent ID --token N
    taskmd checkpoint add ADDRESS --type progress --summary "what you did" --agent ID --token N
    taskmd agent heartbeat ID --task ADDRESS   # every 30s: keeps your claim
    taskmd complete ADDRESS --note "what was done" --agent ID --token N

Rules:
- Claim before you work; write with your --agent and --token only. STALE_CLAIM (exit 4):
  the task is not yours any more: stop working on it.
- Checkpoint after each step; complete with a note that says what was done.
- Pivot: when heartbeat prints "pivot requested", stop (graceful: finish the step you are
  in), then save where you are and let go:

    taskmd pivot acknowledge --worker ID --token N --completed "done" --remaining "left"

  It prints the new task claimed for you and its token, if any: start on it.
- A question you cannot decide alone: ask, with your state, and wait up to 60s:

    taskmd ask --worker ID --task ADDRESS --completed "done" --remaining "left" "question?"

  Answered: go on. Exit 6 (SUSPENDED): your state is saved; stop now. When started again,
  read your state and the answers, then claim your task again and go on:

    taskmd resume-brief --worker ID
`,
	"orchestrator": `## Tasks: taskmd (orchestrator)

Tasks live in Markdown under docs/: a plan is a document (DOC: /api/auth.md), a task its
address (ADDRESS: /api/auth.md#slug). Workers claim tasks, checkpoint and complete them
with taskmd (taskmd instructions --role worker is their text). Use taskmd, not an editor,
to change tasks; taskmd help lists every command (--json for JSON).

Plan, then follow the work:

    taskmd create DOC --title "Title" --content "What to do."
    taskmd ready DOC                 # startable: dependencies done
    taskmd progress DOC              # counts, tasks in progress and who holds them
    taskmd agent list --online
    taskmd find --status blocked,in_progress

Rules:
- Do not edit a task a worker holds; status ... --force takes it over, as a person.
- Send a worker elsewhere, and get its checkpoint:

    taskmd pivot --worker ID --reason "why" --new-task ADDRESS --wait

  NO_ACK (exit 7): the worker is stuck or gone; pivot it again with --mode hard.
  Hand the paused task to another worker (it is claimed for it, with its checkpoint):

    taskmd resume-brief ADDRESS --worker ID
- A worker that asked and got no answer exits 6 (SUSPENDED). Answer, then start it again:
  it runs taskmd resume-brief --worker ID and goes on.

    taskmd questions                 # open questions: worker, REQUEST, Q1...
    taskmd answer --worker ID --id REQUEST "the answer"
`,
}

// roles are the roles instructions knows, sorted.
func roles() []string {
	var out []string
	for r := range roleInstructions {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// instructions returns the text an agent in role pastes into AGENTS.md
// or CLAUDE.md; "" is worker. An unknown role is INVALID_ARGUMENTS.
func instructions(role string) (string, error) {
	if role == "" {
		role = "worker"
	}
	text, ok := roleInstructions[role]
	if !ok {
		return "", &taskdoc.Error{Code: taskdoc.CodeInvalidArguments,
			Msg: fmt.Sprintf("role %q: give --role %s", role, strings.Join(roles(), " or --role "))}
	}
	return text, nil
}

func cmdInstructions(e *env, args []string) error {
	fs := e.flags("instructions")
	role := fs.String("role", "worker", "")
	if _, err := parseN(fs, args); err != nil {
		return err
	}
	text, err := instructions(*role)
	if err != nil {
		return err
	}
	return e.print(struct {
		Role         string `json:"role"`
		Instructions string `json:"instructions"`
	}{*role, text}, func(w io.Writer) { fmt.Fprint(w, text) })
}
