package statement

import "testing"

func TestDayOfRefusesWhatIsNotADay(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"2026-10-29T10:00:00Z", "2026-10-29", true},
		{"2026-10-29", "2026-10-29", true},
		{"\x1b]0;x\x07aaaaaaaaaaaa", "", false},
		{"2026-1\x1b[31m0-29", "", false},
		{"short", "", false},
	} {
		if got, ok := dayOf(c.in); got != c.want || ok != c.ok {
			t.Errorf("dayOf(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
