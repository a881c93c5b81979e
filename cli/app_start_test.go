package cli

import (
	"errors"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// recordingModel is an app root that notes what reached it.
type recordingModel struct {
	initialised bool
	got         []tea.Msg
}

func (m *recordingModel) Init() tea.Cmd { m.initialised = true; return nil }

func (m *recordingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.got = append(m.got, msg)
	return m, nil
}

func (m *recordingModel) View() tea.View { return tea.NewView("app") }

// What arrives while the app is being built (the size, a key typed at
// once) reaches it, in order, after its Init; then the program talks to
// the app alone.
func TestStartingModelHandsOverWhatArrivedMeanwhile(t *testing.T) {
	release := make(chan struct{})
	root := &recordingModel{}
	starting := newStartingModel(func() (*app, error) {
		<-release
		return &app{root: root}, nil
	})
	waitForApp := starting.Init()
	early := []tea.Msg{tea.WindowSizeMsg{Width: 80, Height: 24}, tea.KeyPressMsg{Code: 'q', Text: "q"}}
	for _, msg := range early {
		if model, cmd := starting.Update(msg); model != starting || cmd != nil {
			t.Fatalf("before the app is built, %T was not kept", msg)
		}
	}
	if root.initialised || len(root.got) > 0 {
		t.Fatal("the app was reached before it was built")
	}
	close(release)
	msg := waitForApp() // waits for the build
	model, _ := starting.Update(msg)
	if model != tea.Model(root) {
		t.Fatalf("after the build the program's model is %T, not the app's root", model)
	}
	if !root.initialised || !reflect.DeepEqual(root.got, early) {
		t.Fatalf("the app got init=%v and %#v, want its Init and %#v", root.initialised, root.got, early)
	}
	if a, err := starting.built(); err != nil || a.root != tea.Model(root) {
		t.Fatalf("built() = %v, %v", a, err)
	}
}

// A build that fails ends the program; the error is the run's.
func TestStartingModelQuitsWhenTheBuildFails(t *testing.T) {
	failure := errors.New("the sandbox could not listen")
	starting := newStartingModel(func() (*app, error) { return nil, failure })
	_, cmd := starting.Update(starting.Init()())
	if cmd == nil {
		t.Fatal("a failed build did not end the program")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a failed build did not quit")
	}
	if _, err := starting.built(); !errors.Is(err, failure) {
		t.Fatalf("built() error = %v, want %v", err, failure)
	}
}

// The build is Init's command, which Bubble Tea runs once its renderer has
// started, so it takes no core from the program's set-up; a program that
// ended before that command ran (a terminal that could not be set up)
// built nothing.
func TestStartingModelBuildsFromInitOnly(t *testing.T) {
	builds := 0
	starting := newStartingModel(func() (*app, error) { builds++; return &app{root: &recordingModel{}}, nil })
	starting.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if a, err := starting.built(); a != nil || err != nil || builds != 0 {
		t.Fatalf("a program that never reached Init built %d apps (%v, %v)", builds, a, err)
	}
	starting = newStartingModel(func() (*app, error) { builds++; return &app{root: &recordingModel{}}, nil })
	starting.Update(starting.Init()())
	if a, _ := starting.built(); a == nil || builds != 1 {
		t.Fatalf("after Init, %d builds and app %v", builds, a)
	}
}
