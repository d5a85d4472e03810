package modelfile

import "runtime/debug"

// Build describes the running binary: its module and version and the
// version-control state it was built from (runtime/debug's build
// information; "go install …@v1.2.3" gives the version, a build in a
// checkout gives "(devel)" and the revision). BuildVersion is its one-line
// form that model files record as their writer.
type Build struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Go       string `json:"go"`
	Revision string `json:"vcs_revision,omitempty"`
	Time     string `json:"vcs_time,omitempty"`
	Modified *bool  `json:"vcs_modified,omitempty"`
}

// ReadBuild returns the build information of the running binary; without
// any (a binary built without module support) the version is "unknown".
func ReadBuild() Build {
	b := Build{Module: "github.com/gssl/gssl", Version: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = bi.GoVersion
	if bi.Main.Path != "" {
		b.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			b.Modified = &m
		}
	}
	return b
}
