package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"cardterm/domain/lazy"
)

// Release builds stamp these with -ldflags, e.g.
//
//	go build -ldflags "-X cardterm/cli.version=v1.2.0 -X cardterm/cli.commit=$(git rev-parse HEAD) -X cardterm/cli.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
//
// Left empty, they come from the build info (the module version and the
// vcs settings Go records when it builds inside a git checkout).
var (
	version   = ""
	commit    = ""
	buildDate = ""
)

// readBuildInfo is the build info, parsed once at its first use (it is
// the same all run); a variable, so that tests stand in for the build.
var readBuildInfo = parsedBuildInfo

// buildInfo is debug.ReadBuildInfo's answer, nil without one. Parsed at
// first use: a package-level sync.OnceValues is built before main on
// every start.
var buildInfo = lazy.Value[*debug.BuildInfo]{New: func() *debug.BuildInfo {
	info, _ := debug.ReadBuildInfo()
	return info
}}

func parsedBuildInfo() (*debug.BuildInfo, bool) {
	info := buildInfo.Get()
	return info, info != nil
}

// buildVersion is what `cardterm version` and `--version` say.
type buildVersion struct {
	Version, Commit, Date, Go, Platform string
	Modified                            bool // built from a checkout with uncommitted changes
}

// currentVersion reads the build info and applies the ldflags overrides.
func currentVersion() buildVersion {
	v := buildVersion{Version: "dev", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := readBuildInfo(); ok {
		if mv := info.Main.Version; mv != "" && mv != "(devel)" {
			v.Version = mv
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.Date = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		v.Version = version
	}
	if commit != "" {
		v.Commit, v.Modified = commit, false
	}
	if buildDate != "" {
		v.Date = buildDate
	}
	return v
}

// appVersion is the short version, for the User-Agent and the status bar.
func appVersion() string { return currentVersion().Version }

// String is the version text, one line per fact, the same for
// `cardterm version` and `cardterm --version`.
func (v buildVersion) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cardterm %s\n", v.Version)
	commit := v.Commit
	if commit == "" {
		commit = "unknown (built without version control information)"
	} else if v.Modified {
		commit += " (modified)"
	}
	date := v.Date
	if date == "" {
		date = "unknown"
	}
	fmt.Fprintf(&b, "commit:  %s\nbuilt:   %s\ngo:      %s\nos/arch: %s\n", commit, date, v.Go, v.Platform)
	return b.String()
}
