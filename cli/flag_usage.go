package cli

import (
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cardterm/domain/humantime"
)

// fang prints a flag's text as it is written, so pflag's way of naming a
// flag's value (the first `quoted` word of its text) showed its backticks
// in every --help, and a quoted word that is not a value's name
// (`cardterm sandbox`) named --client-id's value in the man page.

// placeholderAnnotation keeps the name of a flag's value once its text
// is plain.
const placeholderAnnotation = "cardterm_placeholder"

// plainFlagUsages takes the backticks out of the text of every flag of
// cmd's tree, keeping the name of the value for the man page.
func plainFlagUsages(cmd *cobra.Command) {
	plain := func(f *pflag.Flag) {
		if d, err := time.ParseDuration(f.DefValue); err == nil && f.Value.Type() == "duration" {
			f.DefValue = humantime.Typed(d)
		}
		if !strings.Contains(f.Usage, "`") {
			return
		}
		name := flagPlaceholder(f)
		if f.Annotations == nil {
			f.Annotations = map[string][]string{}
		}
		f.Annotations[placeholderAnnotation] = []string{name}
		f.Usage = strings.ReplaceAll(f.Usage, "`", "")
	}
	cmd.LocalFlags().VisitAll(plain) // cobra's: its own and its persistent flags
	for _, sub := range cmd.Commands() {
		plainFlagUsages(sub)
	}
}

// flagPlaceholder names a flag's value: a setting's own name for it (URL,
// KEY), else its first quoted word, else its type; "" for a switch.
func flagPlaceholder(f *pflag.Flag) string {
	if kept := f.Annotations[placeholderAnnotation]; len(kept) == 1 {
		return kept[0]
	}
	if setting, ok := f.Value.(settingFlag); ok && setting.s.placeholder != "" {
		return setting.s.placeholder
	}
	name, _ := pflag.UnquoteUsage(f)
	return name
}
