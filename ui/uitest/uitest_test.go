package uitest

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

type counter struct{ got []string }

type note string

func (c *counter) Init() tea.Cmd { return nil }
func (c *counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		c.got = append(c.got, "key:"+msg.String())
		switch msg.String() {
		case "b":
			return c, tea.Batch(func() tea.Msg { return note("b1") }, func() tea.Msg { return note("b2") })
		case "s":
			return c, tea.Sequence(func() tea.Msg { return note("s1") }, func() tea.Msg { return note("s2") })
		case "t":
			return c, tea.Batch(tea.Tick(time.Hour, func(time.Time) tea.Msg { return note("tick") }),
				spinner.New().Tick, func() tea.Msg { return note("after") })
		case "q":
			return c, tea.Quit
		}
	case note:
		c.got = append(c.got, string(msg))
		if msg == "b1" {
			return c, func() tea.Msg { return note("chained") }
		}
	}
	return c, nil
}
func (c *counter) View() tea.View { return tea.NewView(strings.Join(c.got, ",")) }

func TestDrive(t *testing.T) {
	start := time.Now()
	m := Drive(&counter{}, Key("b"), Key("s"), Key("t"), Key("q"), Key("a"))
	got := strings.Join(m.(*counter).got, ",")
	want := "key:b,b1,b2,chained,key:s,s1,s2,key:t,after,key:q,key:a"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if time.Since(start) > time.Second {
		t.Fatal("Drive waited for a timer")
	}
}

func TestDriveTimeout(t *testing.T) {
	old := CmdTimeout
	CmdTimeout = 50 * time.Millisecond
	defer func() { CmdTimeout = old }()
	block := make(chan struct{})
	defer close(block)
	msgs := Run(func() tea.Msg { <-block; return note("never") })
	if len(msgs) != 0 {
		t.Fatal("blocked command produced a message")
	}
}

func TestKey(t *testing.T) {
	for _, name := range []string{"enter", "esc", "tab", "shift+tab", "space", "ctrl+c", "ctrl+s", "a", "F", "?", "/", "1", "up", "pgdown", "backspace", "alt+x", "G", "K"} {
		if got := Key(name).String(); got != name {
			t.Errorf("Key(%q).String() = %q", name, got)
		}
	}
	if k := Key("F"); k.Text != "F" || k.Mod&tea.ModShift == 0 {
		t.Errorf("F: %+v", k)
	}
	if k := Key("space"); k.Text != " " {
		t.Errorf("space text %q", k.Text)
	}
	if len(Type("a b")) != 3 {
		t.Error("Type")
	}
	var filled []string
	for _, k := range Fill("a b", "c") {
		filled = append(filled, k.(tea.KeyPressMsg).String())
	}
	if got := strings.Join(filled, ","); got != "a,space,b,tab,c" {
		t.Errorf("Fill pressed %s", got)
	}
}

func TestPlainAndASCII(t *testing.T) {
	s := lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Bold(true).Render("hi")
	if got := Plain(s); got != "hi" {
		t.Errorf("Plain %q", got)
	}
	if got := Plain(tea.NewView(s)); got != "hi" {
		t.Errorf("Plain view %q", got)
	}
	a := ASCII(s)
	if strings.Contains(a, "38;2") || !strings.Contains(a, "hi") {
		t.Errorf("ASCII %q", a)
	}
}

func TestGolden(t *testing.T) {
	Golden(t, "sample", "line one\nline two")
}
