package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/taskmd/taskmd/worker"
	"github.com/taskmd/taskmd/workspace"
)

// BenchmarkClarifyRespondToWatcher measures the round trip from Respond to
// the parent's WatchAnswers callback: a durable write, a file
// notification and the re-read of the requests.
func BenchmarkClarifyRespondToWatcher(b *testing.B) {
	ws, err := workspace.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	cl := worker.NewClarifications(ws)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	got := make(chan string, 1)
	go func() {
		_ = cl.WatchAnswers(ctx, func(a worker.Answer) bool { got <- a.RequestID; return true })
	}()
	q := []worker.Question{{Text: "Which?"}}
	answer := worker.Answer{Responses: []worker.Response{{QuestionID: "Q1", Answer: "This one"}}, ResumeSignal: true}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id := fmt.Sprintf("c%d", i)
		if _, err := cl.Ask(ctx, "w1", worker.Needed{ID: id, Questions: q}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := cl.Respond(ctx, "w1", id, answer); err != nil {
			b.Fatal(err)
		}
		for seen := ""; seen != id; {
			select {
			case seen = <-got:
			case <-ctx.Done():
				b.Fatal("no notification")
			}
		}
	}
}
