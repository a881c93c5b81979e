package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func manOutput(t *testing.T) string {
	t.Helper()
	var out, errOut strings.Builder
	if code := Run([]string{"man"}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("cardterm man: exit %d: %s", code, errOut.String())
	}
	return out.String()
}

func TestManPageHasTheSectionsInOrder(t *testing.T) {
	page := manOutput(t)
	at := 0
	for _, section := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXAMPLES", "ENVIRONMENT", "FILES", "EXIT STATUS"} {
		i := strings.Index(page[at:], "\n.SH "+section+"\n")
		if i < 0 {
			t.Fatalf("no section %s after byte %d:\n%s", section, at, page)
		}
		at += i + 1
	}
	if !strings.HasPrefix(page, ".TH CARDTERM 1 ") {
		t.Errorf("the page does not start with its title line: %.60q", page)
	}
}

func TestManPageFlagsAndParagraphs(t *testing.T) {
	page := manOutput(t)
	// -p, --profile: the short and long forms, each with its own dashes,
	// and the value's name: a setting's own, else the first quoted word of
	// the flag's text (not a quoted command name in it: --client-id).
	for _, want := range []string{
		`\fB\-p\fR, \fB\-\-profile\fR \fINAME\fR`,
		`\fB\-\-client\-id\fR \fIID\fR`,
		`\fB\-q\fR, \fB\-\-jq\fR \fIexpression\fR`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, `\-\-p `) || strings.Contains(page, "--p ") || strings.Contains(page, "--v ") {
		t.Errorf("a shorthand is written with two dashes")
	}
	// A wrapped paragraph stays one paragraph: its lines follow each
	// other with no paragraph break between them.
	if !strings.Contains(page, "cardterm is the Card and Wallet Gateway in your terminal: card holders manage\ntheir card") {
		t.Errorf("the description's wrapped lines are split apart:\n%s", page)
	}
	for _, want := range []string{
		".SS \"cardterm get LOOKUP [ARGS]\"", // every command, with its arguments
		".SS \"cardterm profile add NAME\"",
		"\\fBCARDTERM_SECRET_KEY\\fR", // ENVIRONMENT
		"\\fBNO_COLOR\\fR",
		"\\fB130\\fR", // EXIT STATUS
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, ".SS \"cardterm help") {
		t.Error("the page lists the help command")
	}
	for i, line := range strings.Split(page, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d ends in a space: %q", i+1, line)
		}
	}
}

func TestManCommandIsListedInHelp(t *testing.T) {
	var out, errOut strings.Builder
	if code := Run([]string{"--help"}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("--help: exit %d", code)
	}
	if !strings.Contains(out.String(), "man ") {
		t.Errorf("--help does not list man:\n%s", out.String())
	}
}

// The packaged page is stamped by the release hook (-X version and
// buildDate, .ci/goreleaser.yaml): its title line carries both.
func TestManPageTitleCarriesVersionAndDate(t *testing.T) {
	root := newRootCommand(streams{stdout: &strings.Builder{}, stderr: &strings.Builder{}})
	page := manPage(root, buildVersion{Version: "1.4.0", Date: "2026-11-20T09:15:00Z"})
	if want := ".TH CARDTERM 1 \"2026-11-20\" \"cardterm 1.4.0\" \"User Commands\"\n"; !strings.HasPrefix(page, want) {
		t.Errorf("title line %.70q, want %q", page, want)
	}
}

// FILES names every file cardterm writes: the ones the code names here,
// so renaming one without the page fails.
func TestManPageListsEveryFileWritten(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	page := manOutput(t)
	files := page[strings.Index(page, ".SH FILES"):strings.Index(page, ".SH EXIT STATUS")]
	for _, want := range []string{
		"config.yaml", "keyring",
		filepath.Base(supportStateFile("CLIENT_KEY")),
		filepath.Base(supportActionLog()),
		"case\\-KIND\\-ID\\-TIME.md",
		"sandbox.db", "set-aside",
		"\\-\\-debug",
		"sandbox export",
	} {
		if !strings.Contains(files, strings.ReplaceAll(want, "-", "\\-")) && !strings.Contains(files, want) {
			t.Errorf("FILES lacks %q:\n%s", want, files)
		}
	}
}

// The workbench's commands are in the page's COMMANDS and in --help.
func TestManPageAndHelpListTheWorkbenchCommands(t *testing.T) {
	page := manOutput(t)
	var help, errOut strings.Builder
	if code := Run([]string{"--help"}, nil, &help, &errOut); code != exitOK {
		t.Fatalf("--help: exit %d", code)
	}
	for _, command := range []string{"wait", "sandbox clock", "sandbox events", "proxy", "certify"} {
		if !strings.Contains(page, command) {
			t.Errorf("the man page lacks %q", command)
		}
	}
	if !strings.Contains(help.String(), "wait ") {
		t.Errorf("--help does not list wait:\n%s", help.String())
	}
}

// fang prints a flag's text as written: no backtick of pflag's quoting
// shows in any command's help.
func TestHelpShowsNoFlagQuoting(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"api", "--help"}, {"get", "--help"}, {"sandbox", "events", "--help"}} {
		var out, errOut strings.Builder
		if code := Run(args, nil, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d %s", args, code, errOut.String())
		}
		help := out.String()
		flags := help[strings.Index(help, "FLAGS"):]
		if strings.Contains(flags, "`") {
			t.Errorf("%v: a flag's text shows pflag's quoting:\n%s", args, flags)
		}
	}
}

// A duration flag's default reads as a user types it ("5m"), not as Go
// prints it ("5m0s"), in --help and in the man page alike.
func TestDurationDefaultsReadAsTyped(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"listen", "--help"}, "(5m)"},
		{[]string{"certify", "--help"}, "(5m)"},
		{[]string{"wait", "--help"}, "(2m)"},
		{[]string{"webhook", "probe", "--help"}, "(5m)"},
	} {
		var out, errOut strings.Builder
		if code := Run(tc.args, nil, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut.String())
		}
		help := ansi.Strip(out.String())
		if !strings.Contains(help, tc.want) || strings.Contains(help, "m0s") {
			t.Errorf("%v: want %s and no Go duration:\n%s", tc.args, tc.want, help)
		}
	}
}
