package cli

import (
	"io"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// The app is built while Bubble Tea starts. Building it takes a few
// milliseconds (the embedded sandbox seeds and listens, the screens are
// made), and Bubble Tea draws its first frame only at its first tick, a
// sixtieth of a second after its renderer starts: built in that wait, on
// another core, the app is what the first frame shows, with no wait of
// its own before Run. The build is the starting model's Init command,
// which Bubble Tea runs once its renderer has started, so that it takes
// no core from the program's own set-up (the terminal's modes, the input
// reader). docs/performance.md has the figures.

// startingModel stands for the app until it is built: it keeps what
// arrives meanwhile (the window's size, the colour profile, keys typed
// already) and hands all of it to the app, in order, once it is there.
// From then on the program talks to the app's root alone.
type startingModel struct {
	build func() (*app, error)
	once  sync.Once // the build, or the mark that none will run
	app   *app      // nil when err is set, or when no build ran
	err   error
	early []tea.Msg
}

// appBuiltMsg says the build has ended (startingModel.app or err).
type appBuiltMsg struct{}

// newStartingModel is the model to run until build has built the app.
func newStartingModel(build func() (*app, error)) *startingModel {
	return &startingModel{build: build}
}

// built waits for a build under way and returns its result: after the
// program ends, the app it built is closed even if it never showed. A
// program that ended before its Init command ran built nothing.
func (m *startingModel) built() (*app, error) {
	m.once.Do(func() {})
	return m.app, m.err
}

// Init builds the app, then warms the renderer while the program waits
// for its first tick.
func (m *startingModel) Init() tea.Cmd {
	return func() tea.Msg {
		m.once.Do(func() { m.app, m.err = m.build() })
		if m.app != nil {
			go warmRenderer()
		}
		return appBuiltMsg{}
	}
}

func (m *startingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(appBuiltMsg); !ok {
		m.early = append(m.early, msg)
		return m, nil
	}
	if m.app == nil { // the build failed: m.err is the run's
		return m, tea.Quit
	}
	var root tea.Model = m.app.root
	commands := []tea.Cmd{root.Init()}
	for _, early := range m.early {
		var command tea.Cmd
		root, command = root.Update(early)
		commands = append(commands, command)
	}
	m.early = nil
	return root, tea.Batch(commands...)
}

// View is an empty alternate screen: the app's own first frame follows
// it within the same tick when the build is as quick as usual.
func (m *startingModel) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	return v
}

// warmRenderer draws a sample frame off screen as Bubble Tea's renderer
// draws one: parsing styled text into cells, measuring graphemes and
// encoding the cells for the terminal. The first frame would otherwise
// pay for bringing that code and its Unicode tables into memory, at the
// tick, in front of the user (the sign-in frame came 4-5 ms after the
// bytes before it; 1-2 ms once warm). It runs on the build's goroutine
// while the program waits for its first tick. The buffer is a whole
// screen's: a sample of a few lines left the first frame slower.
func warmRenderer() {
	sample := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("141")).
		Border(lipgloss.RoundedBorder()).Render("Sign in › ↑/↓ • … ✓ — é")
	cells := uv.NewScreenBuffer(120, 40)
	uv.NewStyledString(sample).Draw(cells, cells.Bounds())
	screen := uv.NewTerminalRenderer(io.Discard, os.Environ())
	screen.SetColorProfile(colorprofile.ANSI256)
	screen.Render(cells.RenderBuffer)
	_ = screen.Flush()
}
