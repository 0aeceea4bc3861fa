package taskdoc

import (
	"fmt"
	"testing"
	"time"
)

func TestProbe2(t *testing.T) {
	docs := []string{
		"## Tasks\n\n### A\n\n-  Status :  pending\n",
		"## Tasks\n\n### A\n\n- Status: pending\nBody para\n",
		"## Tasks\n\n### A\n\n**Status**: blocked\n**Note:** a: b\n",
		"## Tasks\n\n### A\n\n- Status: pending\n  - sub: x\n- Note: y\n",
		"## Tasks\n\n### A\n\n- Status: pending",
		"## Tasks\n\n### A\n- Status: pending",
		"## Tasks\n\n### A\n\n1. Status: pending\n",
		"## Tasks\n\n### A\n\nFirst item\n\n- Status: pending\n",
		"## Tasks\n\n### A\n\n- Status: pending\n\n```\nx\n```",
		"## Tasks\n\n### A\n\n- Status: pending\n- Note:\n",
		"## Tasks\n\n### A\n\n- Status: pending\n- Note: x  \n",
		"## Tasks\n\n### A\n\n- Status: pending\r\n- Note: x\\\n",
		"## Tasks\n\n### A\n\n> - Status: pending\n",
		"## Tasks\n\n### A\n\n- Status: pending\n- [ ] todo\n",
	}
	notes := []string{"*a* _b_ # c [d] <e> `f", "# leading hash", "<div>", "- dash", "1. one", "a\n===", "[x]: /y", "x\\", "`", "<!--", "&amp;", "\tTab"}
	for _, s := range docs {
		d, err := Parse([]byte(s))
		if err != nil {
			fmt.Println("ERR", err)
			continue
		}
		fmt.Printf("=== %q\n", s)
		for _, tk := range d.Tasks {
			fmt.Printf("T %q status=%q fields=%v body=%q\n", tk.Title, tk.Status, tk.Fields, tk.Body)
		}
		for _, n := range notes {
			out, err := d.Complete("a", n, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
			if err != nil {
				fmt.Printf("  complete %q: %v\n", n, err)
				continue
			}
			nd, _ := Parse(out)
			tk, _ := nd.Task("a")
			v, _ := tk.Field("Note")
			if v != n {
				fmt.Printf("  complete %q -> %q\n%s\n", n, v, out)
			}
		}
		for _, op := range []func() ([]byte, error){
			func() ([]byte, error) { return d.SetStatus("a", StatusBlocked) },
			func() ([]byte, error) { return d.SetField("a", "Workflow", "w: x") },
			func() ([]byte, error) { return d.RemoveField("a", "Status") },
		} {
			out, err := op()
			fmt.Printf("  -> %v %q\n", err, out)
		}
	}
}
