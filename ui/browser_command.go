package ui

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// browserCommands reads $BROWSER as the system it runs on expects: a list
// of commands separated by the PATH separator (":" on Unix, ";" on
// Windows), tried in turn. Each command is split into words at spaces
// outside quotes ("..." everywhere, '...' on Unix too); an entry that is
// as a whole an existing file is one word, so a path with spaces in it
// ("C:\Program Files\Mozilla Firefox\firefox.exe") is never split. Windows
// paths keep their backslashes.
func browserCommands(env, goos string, isFile func(string) bool) [][]string {
	separator := ":"
	if goos == "windows" {
		separator = ";"
	}
	var commands [][]string
	for _, entry := range strings.Split(env, separator) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if isFile(entry) {
			commands = append(commands, []string{entry})
			continue
		}
		if words := splitWords(entry, goos != "windows"); len(words) > 0 {
			commands = append(commands, words)
		}
	}
	return commands
}

// splitWords splits s at unquoted spaces; quotes group words and are
// removed. singleQuotes says whether '...' quotes too (not on Windows,
// where ' is an ordinary character of a path).
func splitWords(s string, singleQuotes bool) []string {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || (singleQuotes && r == '\''):
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

// withLink is a $BROWSER command given the link: "%s" in a word is replaced
// by it, otherwise it is the last argument.
func withLink(command []string, link string) []string {
	argv := make([]string, 0, len(command)+1)
	placed := false
	for _, word := range command {
		if strings.Contains(word, "%s") {
			word = strings.ReplaceAll(word, "%s", link)
			placed = true
		}
		argv = append(argv, word)
	}
	if !placed {
		argv = append(argv, link)
	}
	return argv
}

// systemOpener is the command that opens a link where $BROWSER is not set:
// open on macOS, the URL handler on Windows, and the first of the usual
// openers found on the PATH elsewhere. nil when there is none.
func systemOpener(link string) []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", link}
	case "windows":
		rundll := "rundll32"
		if root := os.Getenv("SYSTEMROOT"); root != "" {
			rundll = filepath.Join(root, "System32", "rundll32.exe")
		}
		return []string{rundll, "url.dll,FileProtocolHandler", link}
	}
	for _, opener := range []string{"xdg-open", "x-www-browser", "www-browser", "wslview"} {
		if path, err := lookPath(opener); err == nil {
			return []string{path, link}
		}
	}
	return nil
}

// isRegularFile reports whether path names an existing file (not a folder).
func isRegularFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
