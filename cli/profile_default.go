package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Profiles that speak: profile add says whether the new profile became
// the default (and asks on a terminal), and a command that takes its
// settings from a profile the command line did not name says which.

// becomesDefault decides whether profile add makes name the default:
// --default (or --default=false) decides; else a terminal is asked (yes
// by default for the first profile, no for another); else the first
// profile becomes the default and another does not.
func becomesDefault(cmd *cobra.Command, std streams, name, previous string, makeDefault, first bool) bool {
	if cmd.Flags().Changed("default") {
		return makeDefault
	}
	if std.stdin == nil || !isTerminal(std.stdin) {
		return first || previous == ""
	}
	question := fmt.Sprintf("Make %q the default profile, used by every command without --profile? [Y/n] ", name)
	if !first && previous != "" {
		question = fmt.Sprintf("Make %q the default profile instead of %q? [y/N] ", name, previous)
	}
	return askYesNo(cmd.OutOrStdout(), std.stdin, question, first || previous == "")
}

// askYesNo asks question and reads a line: y or yes, n or no, or empty
// for yes; anything else asks again (three times, then yes).
func askYesNo(out io.Writer, in io.Reader, question string, yes bool) bool {
	reader := bufio.NewReader(in)
	for range 3 {
		fmt.Fprint(out, question)
		line, err := reader.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true
		case "n", "no":
			return false
		case "":
			if err == nil || line == "" {
				return yes
			}
		}
		if err != nil {
			return yes
		}
	}
	return yes
}

// sayDefault tells what profile add did to the default profile.
func sayDefault(out io.Writer, name, previous, now string) {
	switch {
	case now == name && previous != "" && previous != name:
		fmt.Fprintf(out, "It is now the default profile (instead of %q): every command without --profile uses it.\n", previous)
	case now == name:
		fmt.Fprintf(out, "It is the default profile: every command without --profile uses it (cardterm profile use NAME changes that).\n")
	case now != "":
		fmt.Fprintf(out, "The default profile stays %q; use this one with --profile %s, or make it the default with: cardterm profile use %s\n", now, name, name)
	default:
		fmt.Fprintf(out, "There is no default profile; use this one with --profile %s.\n", name)
	}
}

// noteProfile says on stderr, once, which profile a command takes its
// settings from when the command line did not name it (the default
// profile, or $CARDTERM_PROFILE), so a 404 from another tenant is not a
// mystery. The app's status bar names it too.
func noteProfile(o options, stderr io.Writer) {
	if !o.profileInUse || o.profileFrom == profileFromFlag || o.profileFrom == "" {
		return
	}
	why := "the default profile; --profile NAME picks another"
	if o.profileFrom == profileFromEnv {
		why = "from $" + envProfile
	}
	fmt.Fprintf(stderr, "cardterm: using profile %q (%s)\n", o.profile, why)
}

// Where the profile in use was named.
const (
	profileFromFlag    = "flag"
	profileFromEnv     = "environment"
	profileFromDefault = "default"
)
