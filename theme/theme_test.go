package theme

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// colourSGR matches an SGR sequence that sets a foreground or background
// colour (30-37, 38;..., 40-47, 48;..., 90-97, 100-107).
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(?:^|;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

func TestNoColorSetsNoColourButKeepsMeaning(t *testing.T) {
	s := New(true, true)
	out := s.Badge("FROZEN", ToneInfo) + s.Text(ToneDanger).Render("declined") +
		s.TableSelected.Render("row") + s.SandboxTag.Render("SANDBOX") + s.Title.Render("Card")
	if colourSGR.MatchString(out) {
		t.Fatalf("NO_COLOR output sets a colour: %q", out)
	}
	// Without colour, badges and the selection still stand out (reverse).
	if !strings.Contains(s.Badge("FROZEN", ToneInfo), "\x1b[7m") || !strings.Contains(s.TableSelected.Render("row"), "7") {
		t.Fatalf("badge or selection is not reversed under NO_COLOR: %q", out)
	}
	if ansi.Strip(s.Badge("FROZEN", ToneInfo)) != " FROZEN " {
		t.Fatalf("badge text %q", ansi.Strip(s.Badge("FROZEN", ToneInfo)))
	}
}

func TestLightAndDarkDiffer(t *testing.T) {
	dark, light := New(true, false), New(false, false)
	for name, pair := range map[string][2]string{
		"text":   {dark.Value.Render("x"), light.Value.Render("x")},
		"danger": {dark.Text(ToneDanger).Render("x"), light.Text(ToneDanger).Render("x")},
		"badge":  {dark.Badge("OK", ToneOK), light.Badge("OK", ToneOK)},
	} {
		if pair[0] == pair[1] {
			t.Errorf("%s renders the same on dark and light backgrounds: %q", name, pair[0])
		}
		if !colourSGR.MatchString(pair[0]) || !colourSGR.MatchString(pair[1]) {
			t.Errorf("%s sets no colour: %q / %q", name, pair[0], pair[1])
		}
	}
}

func TestEveryToneIsDistinct(t *testing.T) {
	s := New(true, false)
	seen := map[string]Tone{}
	for tone := ToneNeutral; tone <= ToneDanger; tone++ {
		b := s.Badge("X", tone)
		if prev, dup := seen[b]; dup {
			t.Fatalf("tones %d and %d render the same badge", prev, tone)
		}
		seen[b] = tone
	}
}
