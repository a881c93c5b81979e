package cli

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The release configuration is read as data: CI builds the snapshot from
// it (.ci/run checks dist/), and these tests say what every release must
// hold, so a change that drops a platform, a completion or the man page
// fails here first.

// releaseConfig is the part of .ci/goreleaser.yaml the tests read.
type releaseConfig struct {
	Before struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		ID           string   `yaml:"id"`
		Env          []string `yaml:"env"`
		ModTimestamp string   `yaml:"mod_timestamp"`
		Flags        []string `yaml:"flags"`
		Ldflags      []string `yaml:"ldflags"`
		Goos         []string `yaml:"goos"`
		Goarch       []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		WrapInDirectory any `yaml:"wrap_in_directory"`
		BuildsInfo      struct {
			MTime string `yaml:"mtime"`
		} `yaml:"builds_info"`
		Files []struct {
			Src  string `yaml:"src"`
			Info struct {
				MTime string `yaml:"mtime"`
			} `yaml:"info"`
		} `yaml:"files"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
	} `yaml:"checksum"`
	Nfpms []struct {
		License  string   `yaml:"license"`
		Formats  []string `yaml:"formats"`
		MTime    string   `yaml:"mtime"`
		Contents []struct {
			Src      string `yaml:"src"`
			Dst      string `yaml:"dst"`
			Packager string `yaml:"packager"`
			FileInfo struct {
				MTime string `yaml:"mtime"`
			} `yaml:"file_info"`
		} `yaml:"contents"`
	} `yaml:"nfpms"`
	HomebrewCasks []struct {
		License     string   `yaml:"license"`
		SkipUpload  any      `yaml:"skip_upload"`
		Manpages    []string `yaml:"manpages"`
		Completions struct {
			Bash, Zsh, Fish string
		} `yaml:"completions"`
	} `yaml:"homebrew_casks"`
	Scoops []struct {
		License    string `yaml:"license"`
		SkipUpload any    `yaml:"skip_upload"`
	} `yaml:"scoops"`
}

func readReleaseConfig(t *testing.T) releaseConfig {
	t.Helper()
	data, err := os.ReadFile("../.ci/goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c releaseConfig
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf(".ci/goreleaser.yaml: %v", err)
	}
	return c
}

// The files every archive carries besides the binary; the hooks make the
// completions and the man page.
var releaseExtras = []string{
	"README.md", "LICENSE",
	"completions/cardterm.bash", "completions/_cardterm", "completions/cardterm.fish", "completions/cardterm.ps1",
	"manpages/cardterm.1.gz",
}

func TestReleaseBuildsSixStaticStampedTargets(t *testing.T) {
	c := readReleaseConfig(t)
	if len(c.Builds) != 1 {
		t.Fatalf("want one build, got %d", len(c.Builds))
	}
	b := c.Builds[0]
	var targets []string
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			targets = append(targets, goos+"/"+goarch)
		}
	}
	slices.Sort(targets)
	want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}
	if !slices.Equal(targets, want) {
		t.Errorf("targets %v, want %v", targets, want)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Errorf("env %v: want CGO_ENABLED=0 (static binaries)", b.Env)
	}
	if !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("flags %v: want -trimpath", b.Flags)
	}
	ldflags := strings.Join(b.Ldflags, " ")
	for _, stamp := range []string{"-X cardterm/cli.version=", "-X cardterm/cli.commit=", "-X cardterm/cli.buildDate="} {
		if !strings.Contains(ldflags, stamp) {
			t.Errorf("ldflags %q do not stamp %s (version.go)", ldflags, stamp)
		}
	}
}

func TestReleaseArchivesHoldCompletionsManPageAndLicence(t *testing.T) {
	c := readReleaseConfig(t)
	if len(c.Archives) != 1 {
		t.Fatalf("want one archive, got %d", len(c.Archives))
	}
	var files []string
	for _, f := range c.Archives[0].Files {
		files = append(files, f.Src)
	}
	for _, file := range releaseExtras {
		if !slices.Contains(files, file) {
			t.Errorf("archives lack %s (files: %v)", file, files)
		}
	}
	hooks := strings.Join(c.Before.Hooks, "\n")
	for shell, file := range map[string]string{"bash": "cardterm.bash", "zsh": "_cardterm", "fish": "cardterm.fish", "powershell": "cardterm.ps1"} {
		if !strings.Contains(hooks, "go run . completion "+shell+" > completions/"+file) {
			t.Errorf("no hook makes completions/%s from `cardterm completion %s`:\n%s", file, shell, hooks)
		}
	}
	if !strings.Contains(hooks, "go run -ldflags '-X cardterm/cli.version={{ .Version }} -X cardterm/cli.buildDate={{ .CommitDate }}' . man | gzip -9n > manpages/cardterm.1.gz") {
		t.Errorf("no hook makes the man page stamped with the version and the commit's date:\n%s", hooks)
	}
	if c.Checksum.NameTemplate == "" {
		t.Error("no checksums file")
	}
}

// commitDate is the template of the commit's date: the one date a release
// may carry, so two builds of one commit give the same bytes.
const commitDate = "{{ .CommitDate }}"

func TestReleaseIsReproducibleAndUnpacksIntoOneFolder(t *testing.T) {
	c := readReleaseConfig(t)
	b := c.Builds[0]
	ldflags := strings.Join(b.Ldflags, " ")
	if strings.Contains(ldflags, "{{ .Date }}") || !strings.Contains(ldflags, "cli.buildDate="+commitDate) {
		t.Errorf("ldflags %q: the build date must be the commit's (%s), not the build's", ldflags, commitDate)
	}
	if b.ModTimestamp != "{{ .CommitTimestamp }}" {
		t.Errorf("builds' mod_timestamp %q, want the commit's", b.ModTimestamp)
	}
	a := c.Archives[0]
	if a.WrapInDirectory != true {
		t.Errorf("wrap_in_directory %v: archives must unpack into one folder", a.WrapInDirectory)
	}
	if a.BuildsInfo.MTime != commitDate {
		t.Errorf("archives' builds_info mtime %q, want %s", a.BuildsInfo.MTime, commitDate)
	}
	for _, f := range a.Files {
		if f.Info.MTime != commitDate {
			t.Errorf("archive file %s: mtime %q, want %s", f.Src, f.Info.MTime, commitDate)
		}
	}
	p := c.Nfpms[0]
	if p.MTime != commitDate {
		t.Errorf("packages' mtime %q, want %s", p.MTime, commitDate)
	}
	for _, f := range p.Contents {
		if f.FileInfo.MTime != commitDate {
			t.Errorf("package file %s: mtime %q, want %s", f.Dst, f.FileInfo.MTime, commitDate)
		}
	}
}

func TestReleasePackagesInstallWhereEachSystemLooks(t *testing.T) {
	c := readReleaseConfig(t)
	if len(c.Nfpms) != 1 {
		t.Fatalf("want one nfpm, got %d", len(c.Nfpms))
	}
	p := c.Nfpms[0]
	if p.License != "MIT" {
		t.Errorf("package licence %q, want MIT", p.License)
	}
	if !slices.Equal(p.Formats, []string{"deb", "rpm"}) {
		t.Errorf("formats %v, want deb and rpm", p.Formats)
	}
	installs := func(packager string) map[string]string {
		dst := map[string]string{}
		for _, c := range p.Contents {
			if c.Packager == "" || c.Packager == packager {
				dst[c.Dst] = c.Src
			}
		}
		return dst
	}
	want := map[string]map[string]string{
		"deb": {
			"/usr/share/bash-completion/completions/cardterm":    "./completions/cardterm.bash",
			"/usr/share/zsh/vendor-completions/_cardterm":        "./completions/_cardterm",
			"/usr/share/fish/vendor_completions.d/cardterm.fish": "./completions/cardterm.fish",
			"/usr/share/man/man1/cardterm.1.gz":                  "./manpages/cardterm.1.gz",
			"/usr/share/doc/cardterm/copyright":                  "./LICENSE",
		},
		"rpm": {
			"/usr/share/bash-completion/completions/cardterm":    "./completions/cardterm.bash",
			"/usr/share/zsh/site-functions/_cardterm":            "./completions/_cardterm",
			"/usr/share/fish/vendor_completions.d/cardterm.fish": "./completions/cardterm.fish",
			"/usr/share/man/man1/cardterm.1.gz":                  "./manpages/cardterm.1.gz",
			"/usr/share/licenses/cardterm/LICENSE":               "./LICENSE",
		},
	}
	for packager, files := range want {
		got := installs(packager)
		for dst, src := range files {
			if got[dst] != src {
				t.Errorf("%s: %s comes from %q, want %q", packager, dst, got[dst], src)
			}
		}
	}
}

func TestReleaseHomebrewAndScoopAreGeneratedNotPublished(t *testing.T) {
	c := readReleaseConfig(t)
	if len(c.HomebrewCasks) != 1 || len(c.Scoops) != 1 {
		t.Fatalf("want one Homebrew cask and one Scoop manifest, got %d and %d", len(c.HomebrewCasks), len(c.Scoops))
	}
	brew, scoop := c.HomebrewCasks[0], c.Scoops[0]
	if brew.SkipUpload != true || scoop.SkipUpload != true {
		t.Errorf("skip_upload: Homebrew %v, Scoop %v; publishing must be off", brew.SkipUpload, scoop.SkipUpload)
	}
	if brew.License != "MIT" || scoop.License != "MIT" {
		t.Errorf("licences: Homebrew %q, Scoop %q; want MIT", brew.License, scoop.License)
	}
	if brew.Completions.Bash == "" || brew.Completions.Zsh == "" || brew.Completions.Fish == "" || len(brew.Manpages) == 0 {
		t.Errorf("the Homebrew cask installs completions %+v and man pages %v; want all three and the page", brew.Completions, brew.Manpages)
	}
}

func TestLicenceIsMIT(t *testing.T) {
	data, err := os.ReadFile("../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"MIT License", "Copyright (c) 2026 the cardterm authors", "Permission is hereby granted, free of charge"} {
		if !strings.Contains(text, want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
}

// The hooks run these commands: each must succeed and say something.
func TestReleaseHookCommandsWork(t *testing.T) {
	for _, args := range [][]string{
		{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"completion", "powershell"}, {"man"},
	} {
		var out, errOut strings.Builder
		if code := Run(args, nil, &out, &errOut); code != exitOK || out.Len() < 500 {
			t.Errorf("cardterm %s: exit %d, %d bytes out; stderr %q", strings.Join(args, " "), code, out.Len(), errOut.String())
		}
	}
}
