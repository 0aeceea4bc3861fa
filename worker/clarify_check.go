package worker

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/taskmd/taskmd/checkpoint"
	"github.com/taskmd/taskmd/internal/mdtext"
	"github.com/taskmd/taskmd/internal/taskflow"
	"github.com/taskmd/taskmd/taskdoc"
)

// checkID returns nil when id can name a request: 1 to 64 lower-case ASCII
// letters, digits, '_' and '-', starting with a letter or a digit (so that
// "<id>.json" and "<id>.answer.json" never meet).
func checkID(id string) error {
	if !taskflow.ValidID(id) {
		return invalidArg(fmt.Sprintf("the clarification id %q is not 1 to %d lower-case letters, digits, '_' and '-' starting with a letter or digit", id, taskflow.MaxID))
	}
	return nil
}

func checkNames(worker, id string) error {
	if err := checkpoint.CheckWorkerID(worker); err != nil {
		return err
	}
	return checkID(id)
}

func invalidArg(msg string) error {
	return &taskdoc.Error{Code: taskdoc.CodeInvalidArguments, Msg: msg}
}

// checkText is mdtext.CheckText with line breaks allowed: the rule of
// every text a clarification stores.
func checkText(what, s string) error { return mdtext.CheckText(what, s, true) }

// line checks s and folds it onto one line.
func line(what, s string) (string, error) { return mdtext.FoldedLine(what, s) }

// text checks s and keeps its lines, with LF endings, trimmed.
func text(what, s string) (string, error) {
	if err := checkText(what, s); err != nil {
		return "", err
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.TrimSpace(s), nil
}

// normalNeeded checks n and returns the request it records (without its
// time).
func normalNeeded(worker string, n Needed) (Clarification, error) {
	var err error
	r := Clarification{AgentID: worker, WorkContinues: n.WorkContinues}
	if n.ID != "" {
		if err := checkID(n.ID); err != nil {
			return r, err
		}
		r.ID = n.ID
	}
	if r.BlockedAt, err = line("blocked_at", n.BlockedAt); err != nil {
		return r, err
	}
	if r.Reason, err = text("reason", n.Reason); err != nil {
		return r, err
	}
	if len(n.Questions) == 0 {
		return r, invalidArg("a clarification request needs at least one question")
	}
	ids := map[string]bool{}
	for i, q := range n.Questions {
		id, err := line(fmt.Sprintf("id of question %d", i+1), q.ID)
		if err != nil {
			return r, err
		}
		if id == "" {
			id = "Q" + strconv.Itoa(i+1)
		}
		if ids[id] {
			return r, invalidArg(fmt.Sprintf("two questions have the id %s", id))
		}
		ids[id] = true
		t, err := line("question "+id, q.Text)
		if err != nil {
			return r, err
		}
		if t == "" {
			return r, invalidArg(fmt.Sprintf("question %s has no text", id))
		}
		r.Questions = append(r.Questions, Question{ID: id, Text: t})
	}
	for i, p := range n.ParallelWork {
		item, err := line(fmt.Sprintf("parallel work item %d", i+1), p)
		if err != nil {
			return r, err
		}
		if item == "" {
			return r, invalidArg(fmt.Sprintf("parallel work item %d is empty", i+1))
		}
		r.ParallelWorkAvailable = append(r.ParallelWorkAvailable, item)
	}
	if n.PollDuration < 0 {
		return r, invalidArg(fmt.Sprintf("the poll duration %v is negative", n.PollDuration))
	}
	poll := n.PollDuration
	if poll == 0 {
		poll = DefaultPollDuration
	}
	r.CheckpointInfo = CheckpointInfo{BriefPollDuration: formatSeconds(poll), WillExitAfterPoll: true, ResumeRequired: true}
	return r, nil
}

// normalAnswer checks a against its request and returns the answer
// Respond records (without its time).
func normalAnswer(req Clarification, a Answer) (Answer, error) {
	out := Answer{RequestID: req.ID, AgentID: req.AgentID, ResumeSignal: a.ResumeSignal}
	got := map[string]string{}
	for i, r := range a.Responses {
		id := strings.TrimSpace(r.QuestionID)
		if !hasQuestion(req, id) {
			return out, invalidArg(fmt.Sprintf("response %d answers %q, which clarification %s does not ask; its questions are %s",
				i+1, r.QuestionID, req.ID, questionIDs(req)))
		}
		if _, dup := got[id]; dup {
			return out, invalidArg(fmt.Sprintf("question %s is answered twice", id))
		}
		t, err := text("answer to "+id, r.Answer)
		if err != nil {
			return out, err
		}
		if t == "" {
			return out, invalidArg(fmt.Sprintf("the answer to question %s is empty", id))
		}
		got[id] = t
	}
	for _, q := range req.Questions {
		t, ok := got[q.ID]
		if ok {
			out.Responses = append(out.Responses, Response{QuestionID: q.ID, Answer: t})
		} else if a.ResumeSignal {
			return out, invalidArg(fmt.Sprintf("question %s is not answered: an answer with the resume signal answers every question (%s)", q.ID, questionIDs(req)))
		}
	}
	var err error
	if out.ResumeMethod, err = line("resume_method", a.ResumeMethod); err != nil {
		return out, err
	}
	if out.ResumeMethod == "" {
		out.ResumeMethod = resumeCheckpoint
	}
	ri := a.ResumeInstructions
	out.ResumeInstructions.UseTaskResume = ri.UseTaskResume
	if out.ResumeInstructions.CheckpointPath, err = line("checkpoint_path", ri.CheckpointPath); err != nil {
		return out, err
	}
	if out.ResumeInstructions.ResumePromptIncludes, err = line("resume_prompt_includes", ri.ResumePromptIncludes); err != nil {
		return out, err
	}
	if out.ResumeInstructions.ResumePromptIncludes == "" {
		out.ResumeInstructions.ResumePromptIncludes = "clarification_responses"
	}
	if out.ResumeInstructions.Text, err = text("resume instructions", ri.Text); err != nil {
		return out, err
	}
	return out, nil
}

func hasQuestion(req Clarification, id string) bool {
	for _, q := range req.Questions {
		if q.ID == id {
			return true
		}
	}
	return false
}

func questionIDs(req Clarification) string {
	ids := make([]string, len(req.Questions))
	for i, q := range req.Questions {
		ids[i] = q.ID
	}
	return strings.Join(ids, ", ")
}
