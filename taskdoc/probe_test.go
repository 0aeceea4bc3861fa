package taskdoc

import (
	"fmt"
	"os"
	"testing"
)

func TestProbe(t *testing.T) {
	src := []byte(os.Getenv("PROBE"))
	d, err := Parse(src)
	fmt.Println(err)
	for _, h := range d.Headings {
		fmt.Printf("H %+v\n", h)
	}
	for _, tk := range d.Tasks {
		fmt.Printf("T %q %q span=%v fields=%v body=%q\n", tk.Title, tk.Slug, tk.Span, tk.Fields, tk.Body)
	}
}
