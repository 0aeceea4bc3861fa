package claims

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/taskmd/taskmd/workspace"
)

// Raise makes the next claim of any task of document doc take a token
// above floor, a token that a claim made elsewhere had (another clone of
// the plan, package gitsync): tokens grow across every place that
// claims the document's tasks. Tokens only grow, so a floor at or below
// the last token writes nothing.
func Raise(ctx context.Context, ws *workspace.Workspace, doc string, floor int64) error {
	name, err := Name(ws, doc)
	if err != nil {
		return err
	}
	return ws.Lock(ctx, []string{name}, func(tx *workspace.Tx) error {
		f, _, err := Read(tx, doc, name)
		if err != nil || f.LastToken >= floor {
			return err
		}
		f.LastToken = floor
		return tx.Write(name, f.Encode())
	})
}

// All reads every claims file of ws without a lock, each with the
// document it names; a file that does not decode is left out (its own
// document's calls report it).
func All(ctx context.Context, ws *workspace.Workspace) ([]File, error) {
	names, err := ws.List(ctx, Dir)
	if err != nil {
		return nil, err
	}
	var out []File
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := ws.ReadIfExists(ctx, name)
		if err != nil {
			return nil, err
		}
		var head struct {
			Document string `json:"document"`
		}
		if data == nil || json.Unmarshal(data, &head) != nil || head.Document == "" {
			continue
		}
		f, err := Decode(head.Document, name, data)
		if err != nil {
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
