package statement

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cardterm/apiclient"
)

// FormatOfFile is the format a file's name asks for: .csv, .json or
// .jsonl.
func FormatOfFile(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, nil
	case ".json":
		return JSON, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	}
	return "", errors.New("end the name with .csv, .json or .jsonl")
}

// CheckFile says what is wrong with writing a statement to path (made
// absolute, ~ read as the home directory): no such folder, or a file
// already there. It returns the absolute path.
func CheckFile(path string) (string, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return "", errors.New("name the file")
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home directory: %w", err)
		}
		path = filepath.Join(home, rest)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := FormatOfFile(abs); err != nil {
		return "", err
	}
	if info, err := os.Stat(filepath.Dir(abs)); err != nil || !info.IsDir() {
		return "", fmt.Errorf("no folder %s", filepath.Dir(abs))
	}
	if _, err := os.Lstat(abs); err == nil {
		return "", errors.New("a file of that name is there already: choose another name")
	}
	return abs, nil
}

// ExportFile writes the query's statement to path (absolute, checked by
// CheckFile), in the format its name asks for. The rows go to a file
// beside it (created 0600, never over another) that takes path's name at
// the end, so a cancelled or failed export leaves nothing behind and
// path is never half written.
func ExportFile(ctx context.Context, client *apiclient.Client, q Query, path string, progress func(Progress)) (Summary, error) {
	format, err := FormatOfFile(path)
	if err != nil {
		return Summary{}, err
	}
	partial := path + ".partial"
	file, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return Summary{}, err
	}
	sum, err := Export(ctx, client, q, file, format, progress)
	if closeErr := file.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = takeName(partial, path)
	}
	_ = os.Remove(partial)
	return sum, err
}

// takeName gives the finished file path's name: a hard link, so a file
// that appeared at path meanwhile is never replaced; where the file
// system has no links, a rename once path is checked free.
func takeName(partial, path string) error {
	err := os.Link(partial, path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, os.ErrExist):
		return errors.New("a file of that name appeared meanwhile: nothing replaced")
	}
	if _, statErr := os.Lstat(path); statErr == nil {
		return errors.New("a file of that name appeared meanwhile: nothing replaced")
	}
	return os.Rename(partial, path)
}
