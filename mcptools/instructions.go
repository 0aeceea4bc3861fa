package mcptools

import (
	"slices"
	"strings"
)

// Instructions is the server instructions text of NewServer with every
// toolset: what the tools are for, and where each protocol is explained
// at length (the prompts and the resource of guides.go). NewServer with
// WithToolsets names only the toolsets it serves. A server that registers
// taskmd's tools next to its own may include it in its own instructions.
var Instructions = instructionsFor(allToolsets)

// instructionLines are the lines of the instructions, each given when
// one of its toolsets is served (none: always).
var instructionLines = []struct {
	toolsets []Toolset
	text     string
}{
	{nil, "taskmd keeps task state in Markdown files under docs/."},
	{[]Toolset{ToolsetCoordinator}, "coordinator_*: your own sequential to-do list, which survives context compression."},
	{[]Toolset{ToolsetSubagent}, "subagent_*: tasks in documents (/doc.md#slug), handed to subagents."},
	{[]Toolset{ToolsetAgents, ToolsetPlans}, "agent_*, workflow_*, task_*: plans shared by several agents, who claim tasks with leases kept by heartbeats."},
	{[]Toolset{ToolsetPivots}, "pivot_*: stop a worker mid-task."},
	{[]Toolset{ToolsetCheckpoints, ToolsetResume, ToolsetClarifications}, "checkpoint_*, resume_*, clarification_*: stop a worker and resume it later, or ask a person and exit until the answer comes."},
}

// instructionsFor is the instructions text of a server of toolsets: the
// lines of those toolsets, and the prompts of their guides.
func instructionsFor(toolsets []Toolset) string {
	var lines []string
	for _, l := range instructionLines {
		if l.toolsets == nil || slices.ContainsFunc(l.toolsets, func(t Toolset) bool { return slices.Contains(toolsets, t) }) {
			lines = append(lines, l.text)
		}
	}
	if gs := guidesFor(toolsets); len(gs) > 0 {
		var prompts []string
		for _, g := range gs {
			prompts = append(prompts, g.prompt)
		}
		lines = append(lines, "Before using a protocol, read its prompt ("+strings.Join(prompts, ", ")+") or the resource "+GuideURI+".")
	}
	lines = append(lines, "A failed call's text starts with a stable code, e.g. TASK_BLOCKED.")
	return strings.Join(lines, "\n")
}
