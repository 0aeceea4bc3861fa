package mcptools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// One name per thing: a task is task_id, an agent agent_id, a plan
// workflow_id, whatever the tool. The names other servers give them in
// their call shapes (the agent protocol's `id`, the task-list
// tools' `document`, taskmd's older `task`) are aliases, and the agent
// protocol's call shapes that differ from taskmd's (an object-valued plan,
// a source_content) are translated. Both happen here, in the receiving
// middleware, on the raw arguments, before the SDK validates them against
// the input schema: the schema lists only the primary names, the handlers
// read only them, and the same code runs whatever the shape.

// toolArguments is how one tool's arguments are translated.
type toolArguments struct {
	// aliases maps each alias to the tool's own name for the argument.
	aliases map[string]string
	// shape translates another server's call shape into the tool's, after
	// the aliases, and reports whether it changed anything; nil for none.
	shape func(args map[string]any) (bool, error)
}

// argumentTable is the translation of every tool that has one; docs/mcp.md
// lists it.
var argumentTable = map[string]toolArguments{
	"task_update_status":     {aliases: map[string]string{"id": "task_id"}},
	"task_set_plan":          {aliases: map[string]string{"id": "task_id"}, shape: approachShape},
	"agent_unregister":       {aliases: map[string]string{"id": "agent_id"}},
	"workflow_create":        {shape: workflowSourceShape},
	"workflow_set_plan":      {aliases: map[string]string{"id": "workflow_id"}, shape: setPlanShape},
	"task_remove":            {aliases: map[string]string{"task": "task_id"}},
	"task_set_status":        {aliases: map[string]string{"task": "task_id"}},
	"start_subagent_task":    {aliases: map[string]string{"task_id": "document"}},
	"complete_subagent_task": {aliases: map[string]string{"task_id": "document"}},
}

// translateArguments rewrites the arguments of a call of a tool in the
// table into the tool's own names and shape, or refuses them
// (INVALID_ARGUMENTS) when they say one thing twice, differently. Arguments
// that are not a JSON object are left to the SDK, which refuses them.
//
// It is also where a null member goes (dropNullMembers): the arguments are
// decoded once, only for a tool of the table or arguments that hold a
// null, and encoded again only when something changed.
func translateArguments(params *mcp.CallToolParamsRaw) error {
	tr, ok := argumentTable[params.Name]
	nulls := bytes.Contains(params.Arguments, []byte("null"))
	if (!ok && !nulls) || len(params.Arguments) == 0 {
		return nil
	}
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(params.Arguments))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil
	}
	changed := nulls && dropNullMembers(args)
	for _, alias := range slices.Sorted(maps.Keys(tr.aliases)) {
		value, given := args[alias]
		if !given {
			continue
		}
		name := tr.aliases[alias]
		if err := setOnce(args, name, value, alias); err != nil {
			return err
		}
		delete(args, alias)
		changed = true
	}
	if tr.shape != nil {
		shaped, err := tr.shape(args)
		if err != nil {
			return err
		}
		changed = changed || shaped
	}
	if !changed {
		return nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return argumentError("%s: %v", params.Name, err)
	}
	params.Arguments = raw
	return nil
}

// setOnce sets args[name] to value, given as from; a value there already
// must be the same.
func setOnce(args map[string]any, name string, value any, from string) error {
	if old, given := args[name]; given {
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(value)
		if !bytes.Equal(a, b) {
			return argumentError("%s %s and %s %s say two things: give %s alone", from, b, name, a, name)
		}
	}
	args[name] = value
	return nil
}

// sourceTypes are the agent protocol's sources of a plan (workflow_create's
// source_type).
var sourceTypes = []string{"prompt", "github_issue", "linear", "jira", "custom"}

// workflowSourceShape translates the agent protocol's workflow_create
// {name, source_type, source_content}: the content (the prompt or issue
// text the plan comes from) is the plan's description, the paragraph
// under its title; the source's type is checked and not kept.
func workflowSourceShape(args map[string]any) (bool, error) {
	changed := false
	if v, given := args["source_type"]; given {
		s, ok := v.(string)
		if !ok || !slices.Contains(sourceTypes, s) {
			return false, argumentError("source_type %s: give one of %s", shown(v), strings.Join(sourceTypes, ", "))
		}
		delete(args, "source_type")
		changed = true
	}
	if v, given := args["source_content"]; given {
		if _, ok := v.(string); !ok {
			return false, argumentError("source_content %s: give the prompt or issue text the plan comes from, a string", shown(v))
		}
		delete(args, "source_content")
		return true, setOnce(args, "description", v, "source_content")
	}
	return changed, nil
}

// workflowPlanShape translates the agent protocol's workflow_set_plan
// {id, plan: {summary, tasks}}: plan.tasks are the tasks. plan.summary is
// checked and not written: a plan's summary is the description
// workflow_create wrote under its title.
func workflowPlanShape(args map[string]any) (bool, error) {
	v, given := args["plan"]
	if !given {
		return false, nil
	}
	p, ok := v.(map[string]any)
	if !ok {
		return false, argumentError("plan %s: give {summary, tasks}, or tasks alone", shown(v))
	}
	for key, value := range p {
		switch key {
		case "summary":
			if _, ok := value.(string); !ok {
				return false, argumentError("plan.summary %s: give a string", shown(value))
			}
		case "tasks":
		default:
			return false, argumentError("plan.%s: a plan is {summary, tasks}", key)
		}
	}
	delete(args, "plan")
	if tasks, given := p["tasks"]; given {
		return true, setOnce(args, "tasks", tasks, "plan.tasks")
	}
	return true, nil
}

// setPlanShape is workflow_set_plan's translation: the plan's shape, then
// its tasks'.
func setPlanShape(args map[string]any) (bool, error) {
	shaped, err := workflowPlanShape(args)
	if err != nil {
		return false, err
	}
	fields, err := plannedTaskFields(args)
	return shaped || fields, err
}

// protocolTaskFields are the agent protocol's fields of a planned task
// that taskmd writes as the task's fields (workflow_set_plan's fields):
// the argument and the field's key.
var protocolTaskFields = []struct{ arg, key string }{
	{"parallel_group", "Parallel-Group"},
	{"estimated_complexity", "Complexity"},
	{"files_likely_affected", "Files"},
	{"repository_path", "Repository"},
}

// complexities are the agent protocol's estimated_complexity values.
var complexities = []string{"low", "medium", "high"}

// plannedTaskFields translates the agent protocol's fields of each task of
// workflow_set_plan (parallel_group, estimated_complexity,
// files_likely_affected, repository_path) into the task's fields
// (Parallel-Group, Complexity, Files, Repository), which its plan shows
// and task_load_context returns. An empty list or text writes no field.
func plannedTaskFields(args map[string]any) (bool, error) {
	tasks, _ := args["tasks"].([]any)
	changed := false
	for i, t := range tasks {
		task, ok := t.(map[string]any)
		if !ok {
			continue // the schema refuses it
		}
		for _, pf := range protocolTaskFields {
			v, given := task[pf.arg]
			if !given {
				continue
			}
			value, err := protocolFieldValue(pf.arg, v)
			if err != nil {
				return false, argumentError("tasks[%d].%v", i, err)
			}
			changed = true
			if strings.TrimSpace(value) == "" {
				// No files, group or repository: no field.
				delete(task, pf.arg)
				continue
			}
			fields, _ := task["fields"].(map[string]any)
			if fields == nil {
				fields = map[string]any{}
				task["fields"] = fields
			}
			if err := setOnce(fields, pf.key, value, pf.arg); err != nil {
				return false, err
			}
			delete(task, pf.arg)
		}
	}
	return changed, nil
}

// protocolFieldValue is the one-line value of a protocol task field.
func protocolFieldValue(arg string, v any) (string, error) {
	switch arg {
	case "files_likely_affected":
		list, ok := v.([]any)
		var files []string
		for _, f := range list {
			s, isString := f.(string)
			ok = ok && isString
			files = append(files, s)
		}
		if !ok {
			return "", fmt.Errorf("%s %s: give a list of paths", arg, shown(v))
		}
		return strings.Join(files, ", "), nil
	case "estimated_complexity":
		s, ok := v.(string)
		if !ok || !slices.Contains(complexities, s) {
			return "", fmt.Errorf("%s %s: give one of %s", arg, shown(v), strings.Join(complexities, ", "))
		}
		return s, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s %s: give a string", arg, shown(v))
	}
	return s, nil
}

// approachShape translates the agent protocol's object-valued task_set_plan
// plan, {approach, steps, files_to_modify?, files_to_create?,
// context_needed?}, into the one line of the task's Plan field:
// "approach; steps: 1) a 2) b; files to modify: x, y; ...".
func approachShape(args map[string]any) (bool, error) {
	v, given := args["plan"]
	p, isObject := v.(map[string]any)
	if !given || !isObject {
		return false, nil // a string, or refused by the schema
	}
	approach, ok := p["approach"].(string)
	if !ok || strings.TrimSpace(approach) == "" {
		return false, argumentError("plan.approach: give the approach, a string (a plan object is {approach, steps, files_to_modify?, files_to_create?, context_needed?})")
	}
	parts := []string{strings.TrimSpace(approach)}
	lists := []struct{ key, label string }{
		{"steps", "steps"}, {"files_to_modify", "files to modify"},
		{"files_to_create", "files to create"}, {"context_needed", "context needed"},
	}
	known := map[string]bool{"approach": true}
	for _, l := range lists {
		known[l.key] = true
		items, err := stringList(p, l.key)
		if err != nil {
			return false, err
		}
		if len(items) == 0 {
			continue
		}
		if l.key == "steps" {
			for i := range items {
				items[i] = fmt.Sprintf("%d) %s", i+1, items[i])
			}
			parts = append(parts, l.label+": "+strings.Join(items, " "))
			continue
		}
		parts = append(parts, l.label+": "+strings.Join(items, ", "))
	}
	for _, key := range slices.Sorted(maps.Keys(p)) {
		if !known[key] {
			return false, argumentError("plan.%s: a plan object is {approach, steps, files_to_modify?, files_to_create?, context_needed?}", key)
		}
	}
	args["plan"] = strings.Join(parts, "; ")
	return true, nil
}

// stringList is the list of strings p[key], nil if not given.
func stringList(p map[string]any, key string) ([]string, error) {
	v, given := p[key]
	if !given || v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	var out []string
	for _, item := range items {
		s, isString := item.(string)
		if !isString {
			ok = false
			break
		}
		out = append(out, strings.TrimSpace(s))
	}
	if !ok {
		return nil, argumentError("plan.%s %s: give a list of strings", key, shown(v))
	}
	return out, nil
}

// shown is v as JSON, for a message.
func shown(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
