package theme

import (
	"strings"
	"testing"
)

// A theme file is refused with its line when a colour, a role or the base
// is wrong.
func TestThemeFileRefusals(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"bad colour", "base: dark\naccent: \"#GG0000\"\n", `theme.yaml:2: accent: "#GG0000" is not a colour`},
		{"ANSI out of range", "danger: 256\n", `theme.yaml:1: danger: "256" is not a colour`},
		{"a colour name", "ok: green\n", `theme.yaml:1: ok: "green" is not a colour`},
		{"unknown role", "text: \"#fff\"\nbackground: \"#000\"\n", `theme.yaml:2: "background" is not a role`},
		{"unknown base", "base: neon\n", `theme.yaml:1: base: "neon" is not a built-in theme`},
		{"not lines", "- accent\n", "theme.yaml:1: expected lines of role: colour"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("theme.yaml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse: %v, want %q", err, tc.want)
			}
		})
	}
}

// A theme file's colours go over its base's; NO_COLOR still wins over any
// theme.
func TestThemeFileColoursAndNoColor(t *testing.T) {
	custom, err := Parse("mine.yaml", []byte("base: high-contrast\naccent: \"#C2185B\"\ndanger: 160\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := NewWith(custom, true, false)
	if got := s.Title.Render("x"); !strings.Contains(got, "194;24;91") {
		t.Fatalf("accent not the file's: %q", got)
	}
	if got := s.Text(ToneOK).Render("x"); !strings.Contains(got, "0;255;0") {
		t.Fatalf("ok not the base's: %q", got)
	}
	for _, th := range append(BuiltIn, custom) {
		plain := NewWith(th, true, true)
		for _, out := range []string{plain.Title.Render("x"), plain.Text(ToneDanger).Render("x"), plain.Badge("ACTIVE", ToneOK), plain.StatusBar.Render("x")} {
			if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
				t.Errorf("%s under NO_COLOR has a colour: %q", th.Name, out)
			}
		}
	}
}

func TestNamedThemes(t *testing.T) {
	for _, name := range []string{"auto", "dark", "light", "high-contrast", "colour-blind", "color-blind", "okabe-ito"} {
		if _, ok := Named(name); !ok {
			t.Errorf("%s is not a theme", name)
		}
	}
}
