package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionInfo is what gssl version prints: the module version and the
// version-control state the binary was built from (runtime/debug's build
// information; "go install …@v1.2.3" gives the version, a build in a
// checkout gives "(devel)" and the revision).
type versionInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Go       string `json:"go"`
	Revision string `json:"vcs_revision,omitempty"`
	Time     string `json:"vcs_time,omitempty"`
	Modified *bool  `json:"vcs_modified,omitempty"`
}

func readVersion() versionInfo {
	v := versionInfo{Module: "github.com/gssl/gssl", Version: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
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
			m := s.Value == "true"
			v.Modified = &m
		}
	}
	return v
}

func printVersion(w io.Writer, asJSON bool) error {
	v := readVersion()
	return report(w, asJSON, v, func(w io.Writer) {
		fmt.Fprintf(w, "gssl %s (%s, %s)\n", v.Version, v.Module, v.Go)
		if v.Revision != "" {
			mod := ""
			if v.Modified != nil && *v.Modified {
				mod = ", modified"
			}
			fmt.Fprintf(w, "revision %s (%s%s)\n", v.Revision, v.Time, mod)
		}
	})
}

func newVersionCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gssl's version and the revision it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printVersion(cmd.OutOrStdout(), g.JSON)
		},
	}
}
