// Command checkdist checks what a goreleaser snapshot left in dist/: an
// archive for each of the six platforms holding the binary, README,
// LICENSE, the four shell completions and the man page; a .deb and an .rpm
// for each Linux architecture; checksums of them all; the Homebrew cask
// and the Scoop manifest. .ci/run runs it after the snapshot.
package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// artifact is one entry of dist/artifacts.json.
type artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"`
}

var (
	platforms = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}
	extras    = []string{"README.md", "LICENSE", "completions/cardterm.bash", "completions/_cardterm",
		"completions/cardterm.fish", "completions/cardterm.ps1", "manpages/cardterm.1.gz"}
)

func main() {
	dist := "dist"
	if len(os.Args) > 1 {
		dist = os.Args[1]
	}
	problems, err := check(dist)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkdist:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "checkdist:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

func check(dist string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dist, "artifacts.json"))
	if err != nil {
		return nil, err
	}
	var artifacts []artifact
	if err := json.Unmarshal(data, &artifacts); err != nil {
		return nil, fmt.Errorf("artifacts.json: %w", err)
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	var archived, packaged []string
	var checksums string
	kinds := map[string]int{}
	for _, a := range artifacts {
		kinds[a.Type]++
		switch a.Type {
		case "Archive":
			archived = append(archived, a.Goos+"/"+a.Goarch)
			entries, dates, err := listArchive(a.Path)
			if err != nil {
				bad("%s: %v", a.Name, err)
				continue
			}
			binary := "cardterm"
			if a.Goos == "windows" {
				binary += ".exe"
			}
			folder := strings.TrimSuffix(strings.TrimSuffix(a.Name, ".zip"), ".tar.gz") + "/"
			for _, want := range append([]string{binary}, extras...) {
				if !slices.Contains(entries, folder+want) {
					bad("%s lacks %s (it holds %v)", a.Name, folder+want, entries)
				}
			}
			if len(dates) != 1 {
				bad("%s: its files carry %d dates %v, want one (the commit's)", a.Name, len(dates), dates)
			}
			fmt.Printf("%-40s %d files: %s\n", a.Name, len(entries), strings.Join(entries, " "))
		case "Linux Package":
			packaged = append(packaged, filepath.Ext(a.Name)+" "+a.Goarch)
		case "Checksum":
			b, err := os.ReadFile(a.Path)
			if err != nil {
				bad("checksums: %v", err)
			}
			checksums = string(b)
		}
	}
	slices.Sort(archived)
	if !slices.Equal(archived, platforms) {
		bad("archives for %v, want %v", archived, platforms)
	}
	slices.Sort(packaged)
	if want := []string{".deb amd64", ".deb arm64", ".rpm amd64", ".rpm arm64"}; !slices.Equal(packaged, want) {
		bad("packages %v, want %v", packaged, want)
	}
	for _, a := range artifacts {
		if (a.Type == "Archive" || a.Type == "Linux Package") && !strings.Contains(checksums, "  "+a.Name+"\n") {
			bad("checksums.txt does not list %s", a.Name)
		}
	}
	for _, kind := range []string{"Homebrew Cask", "Scoop Manifest"} {
		if kinds[kind] != 1 {
			bad("want one %s, got %d (artifact kinds: %v)", kind, kinds[kind], kinds)
		}
	}
	fmt.Printf("%d archives, %d packages, checksums, a Homebrew cask and a Scoop manifest\n", len(archived), len(packaged))
	return problems, nil
}

// listArchive lists the files of a .tar.gz or .zip and the dates they
// carry.
func listArchive(path string) ([]string, []string, error) {
	dates := map[string]bool{}
	var names []string
	if strings.HasSuffix(path, ".zip") {
		r, err := zip.OpenReader(path)
		if err != nil {
			return nil, nil, err
		}
		defer r.Close()
		for _, f := range r.File {
			if !f.FileInfo().IsDir() {
				names = append(names, f.Name)
				dates[f.Modified.UTC().Format(time.RFC3339)] = true
			}
		}
		return names, slices.Sorted(maps.Keys(dates)), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, slices.Sorted(maps.Keys(dates)), nil
		}
		if err != nil {
			return nil, nil, err
		}
		if h.Typeflag == tar.TypeReg {
			names = append(names, h.Name)
			dates[h.ModTime.UTC().Format(time.RFC3339)] = true
		}
	}
}
