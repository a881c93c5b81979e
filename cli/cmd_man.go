package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// `cardterm man`: the manual page, in roff, built from the command tree so
// it says what --help says. fang's generator (mango) turns every wrapped
// line into its own paragraph, writes "--p --profile" and has none of the
// sections a manual page is expected to have; this one writes NAME,
// SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS, EXAMPLES, ENVIRONMENT, FILES and
// EXIT STATUS. Release archives and packages ship its output
// (.ci/goreleaser.yaml).

// manEnvironment lists the variables cardterm reads, for ENVIRONMENT:
// the settings' (settings_table.go), then the others.
func manEnvironment() [][2]string {
	var out [][2]string
	for _, s := range settings {
		if s.env != "" {
			out = append(out, [2]string{s.env, s.usage + " (--" + s.name + ")"})
		}
	}
	return append(out, [][2]string{
		{secretKeyEnv, "the secret key (token refresh, consent changes); never taken from a flag"},
		{"CARDTERM_USERNAME", "the user that look-ups and cardterm api sign in as"},
		{"CARDTERM_PASSWORD", "that user's password; refused without CARDTERM_USERNAME"},
		{webhookKeyEnv, "the webhook signing key of cardterm listen and webhook verify"},
		{"BROWSER", "the command that opens hosted pages (the set-PIN page, the PIN image)"},
		{"NO_COLOR", "when set and not empty, no colour anywhere; it wins over CLICOLOR_FORCE"},
		{"CLICOLOR_FORCE", "colour in help and errors even when they are not shown on a terminal"},
		{"XDG_CONFIG_HOME", "where the config file lives"},
		{"XDG_STATE_HOME", "where the support console keeps its last look-ups and its action log"},
		{"DBUS_SESSION_BUS_ADDRESS", "on Linux, the session bus of the Secret Service; unset, the OS keyring is never asked"},
	}...)
}

// manFiles lists every file cardterm reads or writes, for FILES. A new
// file written anywhere belongs here (TestManPageListsEveryFileWritten).
var manFiles = [][2]string{
	{"$XDG_CONFIG_HOME/cardterm/config.yaml", "the profiles (no secret), written owner-only (0600); on macOS and Windows under their own config folder"},
	{"$XDG_CONFIG_HOME/cardterm/keys.yaml", "your keys: an action name and its keys per line (cardterm keys lists them); read, never written"},
	{"$XDG_CONFIG_HOME/cardterm/commands.yaml", "your commands on a record (! in the app), run without a shell; read, never written"},
	{"the OS keyring", "each profile's secret key and webhook signing key, under the service \"cardterm\""},
	{"$XDG_STATE_HOME/cardterm/support-CLIENT_KEY.json", "the support console's last look-ups (ids only), one file per tenant; on macOS and Windows under their own state folder"},
	{"$XDG_STATE_HOME/cardterm/views.json", "the saved views (a screen's filters under a name), per profile; written whole (a temporary file renamed)"},
	{"$XDG_STATE_HOME/cardterm/support-actions.jsonl", "the support console's action log: one JSON line per change an agent made or approved (who, when, what, the outcome), appended, owner-only"},
	{"./case-KIND-ID-TIME.md and .json", "a case the support console exported (x), in the current folder: a Markdown summary and its JSON, owner-only"},
	{"DIR/sandbox.db and DIR/set-aside/", "cardterm sandbox --data DIR (or sandbox_data): the sandbox's state; what sandbox repair set aside"},
	{"FILE of --debug FILE", "the debug log (every request, never a secret), appended, owner-only"},
	{"FILE of sandbox export FILE", "the sandbox's state, written whole (a temporary file renamed)"},
}

// manExitStatus lists the exit codes (exit_codes.go), for EXIT STATUS.
var manExitStatus = [][2]string{
	{"0", "done"},
	{"1", "the gateway refused (any error answer but authentication)"},
	{"2", "usage: a bad flag, argument or setting"},
	{"3", "authentication: not signed in, or the credentials were refused"},
	{"4", "network: no answer (unreachable, timed out, TLS)"},
	{"130", "interrupted (ctrl+c, SIGTERM)"},
}

func newManCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (roff), for man(1)",
		Long: `Print the manual page in roff. Release archives and packages install it; from
a clone, read it with: cardterm man | man -l -`,
		Example: `  cardterm man | man -l -
  cardterm man > /usr/local/share/man/man1/cardterm.1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(cmd.OutOrStdout(), manPage(cmd.Root(), currentVersion()))
			return err
		},
	}
}

// manPage renders root and its visible subcommands as a section 1 page.
func manPage(root *cobra.Command, v buildVersion) string {
	var b strings.Builder
	date, _, _ := strings.Cut(v.Date, "T")
	fmt.Fprintf(&b, ".TH %s 1 %q %q \"User Commands\"\n", strings.ToUpper(root.Name()), date, root.Name()+" "+v.Version)
	// Left-aligned and unhyphenated, so flags and names copy as written.
	b.WriteString(".ad l\n.nh\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", root.Name(), roffText(root.Short))

	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n[\\fIFLAGS\\fR]\n.br\n", root.Name())
	fmt.Fprintf(&b, ".B %s\n\\fICOMMAND\\fR [\\fIARGS\\fR] [\\fIFLAGS\\fR]\n", root.Name())

	b.WriteString(".SH DESCRIPTION\n")
	// The exit codes have their own section.
	long, _, _ := strings.Cut(root.Long, exitCodesHelp)
	writeRoffParagraphs(&b, long)

	b.WriteString(".SH OPTIONS\n")
	writeRoffFlags(&b, root.NonInheritedFlags())

	b.WriteString(".SH COMMANDS\n")
	for _, cmd := range visibleCommands(root) {
		writeRoffCommand(&b, cmd)
	}

	b.WriteString(".SH EXAMPLES\n")
	writeRoffExample(&b, root.Example)

	b.WriteString(".SH ENVIRONMENT\n")
	writeRoffList(&b, manEnvironment())
	b.WriteString(".SH FILES\n")
	writeRoffList(&b, manFiles)
	b.WriteString(".SH EXIT STATUS\n")
	writeRoffList(&b, manExitStatus)
	b.WriteString(".SH SEE ALSO\n")
	fmt.Fprintf(&b, "%s \\-\\-help, and %s COMMAND \\-\\-help for each command.\n", root.Name(), root.Name())
	return b.String()
}

// visibleCommands lists cmd's subcommands depth first, the way --help
// shows them: no hidden command, no help command.
func visibleCommands(cmd *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, sub := range cmd.Commands() {
		if sub.Hidden || !sub.IsAvailableCommand() && !sub.HasAvailableSubCommands() || sub.Name() == "help" {
			continue
		}
		out = append(out, sub)
		out = append(out, visibleCommands(sub)...)
	}
	return out
}

// writeRoffCommand writes one command: its use line, its description and
// its own flags.
func writeRoffCommand(b *strings.Builder, cmd *cobra.Command) {
	use := cmd.CommandPath()
	if _, args, ok := strings.Cut(cmd.Use, " "); ok {
		use += " " + args
	}
	fmt.Fprintf(b, ".SS %q\n", roffText(use))
	long, _, _ := strings.Cut(cmp.Or(cmd.Long, cmd.Short), exitCodesHelp)
	writeRoffParagraphs(b, long)
	if flags := cmd.NonInheritedFlags(); flags.HasAvailableFlags() {
		writeRoffFlags(b, flags)
	}
	if cmd.Example != "" {
		b.WriteString(".PP\nExamples:\n")
		writeRoffExample(b, cmd.Example)
	}
}

// writeRoffParagraphs writes text whose paragraphs are separated by blank
// lines: the lines of a paragraph are joined (roff fills them), and a
// paragraph whose lines are indented (a table, a list of look-ups) is kept
// as it is written.
func writeRoffParagraphs(b *strings.Builder, text string) {
	for _, paragraph := range strings.Split(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(strings.Trim(paragraph, "\n"), "\n")
		if len(lines) == 0 || strings.TrimSpace(paragraph) == "" {
			continue
		}
		b.WriteString(".PP\n")
		if preformatted(lines) {
			b.WriteString(".nf\n")
			for _, line := range lines {
				b.WriteString(roffLine(line) + "\n")
			}
			b.WriteString(".fi\n")
			continue
		}
		for _, line := range lines {
			b.WriteString(roffLine(strings.TrimSpace(line)) + "\n")
		}
	}
}

// preformatted tells a block laid out by hand (its lines after the first
// indented, as in "Exit codes:" or a list of look-ups) from running text.
func preformatted(lines []string) bool {
	for _, line := range lines[1:] {
		if strings.HasPrefix(line, "  ") {
			return true
		}
	}
	return strings.HasPrefix(lines[0], "  ")
}

// writeRoffExample writes an example block as it is written, unfilled.
func writeRoffExample(b *strings.Builder, example string) {
	b.WriteString(".PP\n.nf\n.RS 4\n")
	for _, line := range strings.Split(strings.TrimRight(example, "\n"), "\n") {
		b.WriteString(roffLine(strings.TrimPrefix(line, "  ")) + "\n")
	}
	b.WriteString(".RE\n.fi\n")
}

// writeRoffFlags writes each visible flag as "-p, --profile string".
func writeRoffFlags(b *strings.Builder, flags *pflag.FlagSet) {
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		b.WriteString(".TP\n")
		name := "\\fB\\-\\-" + roffText(f.Name) + "\\fR"
		if f.Shorthand != "" {
			name = "\\fB\\-" + f.Shorthand + "\\fR, " + name
		}
		usage := f.Usage // plain: plainFlagUsages took its backticks out
		varName := flagPlaceholder(f)
		if varName != "" {
			name += " \\fI" + roffText(varName) + "\\fR"
		}
		b.WriteString(name + "\n")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" && f.DefValue != "0" {
			usage += " (default " + f.DefValue + ")"
		}
		b.WriteString(roffLine(usage) + "\n")
	})
}

// writeRoffList writes a list of terms and what they mean.
func writeRoffList(b *strings.Builder, items [][2]string) {
	for _, item := range items {
		fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n%s\n", roffText(item[0]), roffLine(item[1]))
	}
}

// roffText escapes text for roff: backslashes and hyphens (a plain "-"
// may be set as a hyphen, which breaks copying a flag from the page).
func roffText(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine escapes a whole line: also a leading dot or quote, which roff
// would read as a request.
func roffLine(s string) string {
	s = roffText(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
