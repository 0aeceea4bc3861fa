package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// commands are the tool's commands by name.
var commands map[string]func(*env, []string) error

func init() {
	// Set in init: help prints the table it is part of.
	commands = map[string]func(*env, []string) error{
		"list":         cmdList,
		"show":         cmdShow,
		"create":       cmdCreate,
		"start":        cmdStart,
		"complete":     cmdComplete,
		"status":       cmdStatus,
		"rm":           cmdRemove,
		"find":         cmdFind,
		"ready":        cmdReady,
		"workflows":    cmdWorkflows,
		"next":         cmdNext,
		"coordinator":  cmdCoordinator,
		"archive":      cmdArchive,
		"archives":     cmdArchives,
		"agent":        cmdAgent,
		"claim":        cmdClaim,
		"release":      cmdRelease,
		"progress":     cmdProgress,
		"context":      cmdContext,
		"checkpoint":   cmdCheckpoint,
		"pivot":        cmdPivot,
		"resume-brief": cmdResumeBrief,
		"answer":       cmdAnswer,
		"ask":          cmdAsk,
		"questions":    cmdQuestions,
		"watch":        cmdWatch,
		"merge-driver": cmdMergeDriver,
		"git-setup":    cmdGitSetup,
		"check":        cmdCheck,
		"doctor":       cmdCheck,
		"help":         cmdHelp,
		"instructions": cmdInstructions,
		"version":      cmdVersion,
		"completion":   cmdCompletion,
		"init":         cmdInit,
		"mcp":          cmdMcp,
		"lsp":          cmdLsp,
		"board":        cmdBoard,
	}
}

// names lists the commands of a group, sorted, separated by "|".
func names(cmds map[string]func(*env, []string) error) string {
	var out []string
	for n := range cmds {
		out = append(out, n)
	}
	slices.Sort(out)
	return strings.Join(out, "|")
}

const help = `taskmd: tasks in Markdown files (docs/**/*.md, coordinator/active.md).
usage: taskmd [-C DIR] [--json] COMMAND [ARGS]
A task is ADDRESS /api/auth.md#slug (docs/api/auth.md); a document DOC /api/auth.md.
Flags go anywhere. The workspace is found upward from the current folder, as git
  does (taskmd.toml, else docs/ or coordinator/); -C DIR or TASKMD_ROOT start from DIR.
taskmd help COMMAND (or COMMAND -h): its flags, an example and its exit statuses.

Workspace
  init [DIR]                           taskmd.toml, docs/, .taskmd/ in .gitignore (if missing)
  init --agent-instructions [--role R] also taskmd instructions into AGENTS.md
  mcp [-root DIR] [--toolsets a,b|all] [--read-only] [--dynamic-toolsets]   MCP on stdio
  lsp [ARGS]                           the language server: runs taskmd-lsp from PATH
  board [--addr A] [--read-only] [--open]  the web board for people (prints its address)
Tasks (docs/; ADDRESS may also be /coordinator/active.md#slug for show, status, rm;
  status ... completed completes it only when it is the list's task in progress)
  list [FOLDER]                        documents with task counts (FOLDER: /api/, api)
  list DOC|FOLDER --status s,...       tasks in those statuses; list DOC: all its tasks
  find [--status s,...] [--in DOC|FOLDER] [--workflow W] [--holder AGENT]
       [--depends-on ADDRESS] [--field K=V]... [--limit N] [TEXT]
  ready [DOC|FOLDER]                   startable: pending with dependencies done, or stranded
  show ADDRESS|DOC                     tasks in full
  create DOC --title T [--content C | --content-file F|-] [--after SLUG]
  start ADDRESS [--force]              -> in_progress; prints task, workflow, references
  complete ADDRESS --note N [--agent A --token N | --force]
  status ADDRESS STATUS [--reason R] [--error E] [--note N] [--agent A --token N | --force]
                                       block, unblock (to pending...), reopen, fail, skip...
  rm ADDRESS [--force] [--if-version V]
  workflows                            workflows/*.md: name, title, description
Coordinator (coordinator/active.md, sequential, no slugs)
  coordinator list [--status s,...] | view [SLUG...] | create --title T [--content C|--content-file F]
  coordinator start [--full-context] [--force] | complete --note N [--request-key K] [--full-context]
  coordinator archive | clear | recover
Archives
  archive DOC                          move DOC to archived/docs/
  archives [list] | archives show NAME archived coordinator lists (newest first), documents
Agents and plans (a plan is a DOC; claims are leases kept alive by heartbeats)
  agent register --name N --runtime R [--id ID] [--role R] [--capabilities a,b]
  agent heartbeat ID [--task ADDRESS] [--status S] | unregister ID | list [--online]
  next DOC                             claimable tasks (dependencies done, stranded work)
  claim ADDRESS --agent A              prints the token; held: exit 4
  release ADDRESS --agent A --token N
  progress DOC                         counts, current tasks and holders
  context ADDRESS [--max-tokens N] [--all-checkpoints]
  checkpoint add ADDRESS --type plan|progress|decision|error|recovery|complete --summary S
                 [--detail D] [--files F,...] [--key K] [--agent A --token N]
  checkpoint list ADDRESS [--limit N] [--types T,...] [--since N]
Workers (pivots, worker checkpoints, clarifications)
  pivot --worker ID --mode graceful|immediate|hard --reason R [--new-task T] [--task T]
        [--wait [--timeout 60s]]       --wait: until acknowledged, else NO_ACK (exit 7)
  pivot acknowledge --worker ID [--token N] CHECKPOINT
                                       the worker: save CHECKPOINT, let go of the task
  ask --worker ID [--task ADDRESS] [--wait 60s] CHECKPOINT QUESTION...
                                       the worker asks; no answer in time: SUSPENDED (exit 6)
  checkpoint list [--worker ID] [--limit N] | show --worker ID [--sequence N]
                                       no --worker: every worker's (newest 10 of each)
  checkpoint diff --worker ID [--from N] [--to N]
  resume-brief ADDRESS [--worker ID] [--max-tokens N]   with --worker: claim and resume
  resume-brief --worker ID             a worker suspended by ask: its state and the answers
  questions                            open clarification requests
  answer --worker ID --id REQUEST [--draft] [--checkpoint-path P] [QID=]TEXT...
  CHECKPOINT: --completed S --remaining S ... or --checkpoint-file F|- (see help ask)
Check, instructions, watch
  check [PATH] [--fix]                 what is broken, FILE:LINE:COL: CODE (alias doctor)
  instructions [--role worker|orchestrator]   the text for AGENTS.md or CLAUDE.md
  watch                                one line per changed document until interrupted
Git
  git-setup [--command CMD]            the task-aware merge driver for this repository
  merge-driver BASE CURRENT OTHER [PATH] [MARKER_SIZE]   run by git (%O %A %B %P %L)

--json: one line on stdout, one object with "schema_version":1 (watch: one per change);
  a task is one object, address first, under "task" or in "tasks"; errors as
  {"schema_version":1,"code","message",...,"exit"} on stderr (docs/schema/).
  Text errors: "taskmd: CODE: message".
Exit: 0 ok, 1 other, 2 usage, 3 not found, 4 conflict (CONFLICT, STALE_CLAIM,
  ALREADY_CLAIMED, DUPLICATE_TASK, INVALID_TRANSITION, TASK_BLOCKED, MERGE_CONFLICT),
  5 invalid input (check: PROBLEMS_FOUND), 6 SUSPENDED, 7 NO_ACK, 130 interrupted (SIGINT; 143 SIGTERM).
TASKMD_NOW=2026-01-02T03:04:05Z fixes the clock (tests, scripts).
Also: taskmd --version, taskmd completion bash|zsh|fish.
Example: taskmd ready --json
`

// cmdHelp prints the commands, or with a command (and subcommand) its
// help, as CMD -h does.
func cmdHelp(e *env, args []string) error {
	path, err := parse(e.flags("help"), args)
	if err != nil {
		return err
	}
	if len(path) == 0 {
		return e.print(helpOf{Help: help}, func(w io.Writer) { fmt.Fprint(w, help) })
	}
	h, err := describe(path)
	if err != nil {
		return err
	}
	return e.printHelp(h)
}

// printHelp prints the help of a command or group.
func (e *env) printHelp(h *helpAsked) error {
	var b strings.Builder
	writeHelp(&b, h)
	return e.print(helpOf{Command: h.path, Help: b.String()}, func(w io.Writer) { fmt.Fprint(w, b.String()) })
}
