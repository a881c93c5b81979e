package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// unknownCommand is the usage error for a word that is none of cmd's
// subcommands, with the nearest one offered: `cardterm profil`.
func unknownCommand(cmd *cobra.Command, word string) error {
	var names []string
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
			names = append(names, sub.Aliases...)
		}
	}
	return usageError{fmt.Sprintf("unknown command %q for %q.%s", word, cmd.CommandPath(), didYouMean(word, names))}
}

// didYouMean is " Did you mean X?" for the name in names nearest to
// word (a typo of at most two edits, a missing or extra plural s, or a
// prefix), "" when none is near: `cardterm profil`, `cardterm get cards`.
func didYouMean(word string, names []string) string {
	word = strings.ToLower(word)
	best, bestDistance := "", 3
	for _, name := range names {
		d := editDistance(word, strings.ToLower(name))
		if strings.HasPrefix(strings.ToLower(name), word) && len(word) >= 3 {
			d = min(d, 1)
		}
		if d < bestDistance {
			best, bestDistance = name, d
		}
	}
	if best == "" || best == word {
		return ""
	}
	return " Did you mean " + best + "?"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	previous := make([]int, len(rb)+1)
	for j := range previous {
		previous[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		current := make([]int, len(rb)+1)
		current[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			current[j] = min(previous[j]+1, current[j-1]+1, previous[j-1]+cost)
		}
		previous = current
	}
	return previous[len(rb)]
}
