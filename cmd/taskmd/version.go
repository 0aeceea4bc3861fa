package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// versionInfo is what version prints: the module's version ("(devel)" for
// a build from a checkout) and the VCS revision, time and state the
// binary was built from, as the Go tool recorded them.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"` // built with uncommitted changes
	Go       string `json:"go"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func cmdVersion(e *env, args []string) error {
	if _, err := parseN(e.flags("version"), args); err != nil {
		return err
	}
	v := buildVersion()
	return e.print(v, func(w io.Writer) {
		fmt.Fprintf(w, "taskmd %s", v.Version)
		if v.Revision != "" {
			fmt.Fprintf(w, " %s %s", v.Revision, v.Time)
			if v.Modified {
				fmt.Fprint(w, " (modified)")
			}
		}
		fmt.Fprintf(w, " %s\n", v.Go)
	})
}
