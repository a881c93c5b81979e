package layer_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui/layer"
)

// probe is a layer that records what reached it; esc closes it.
type probe struct {
	name          string
	got           []string
	width, height int
	done          bool
}

func (p *probe) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		p.got = append(p.got, k.String())
		p.done = p.done || k.String() == "esc"
	}
	return nil
}
func (p *probe) SetSize(w, h int)    { p.width, p.height = w, h }
func (p *probe) View() string        { return p.name }
func (p *probe) KeyMap() help.KeyMap { return keys{} }
func (p *probe) Done() bool          { return p.done }

type keys struct{}

func (keys) ShortHelp() []key.Binding  { return nil }
func (keys) FullHelp() [][]key.Binding { return nil }

// floating is a probe drawn as a box over what is under it.
type floating struct{ *probe }

func (floating) Floats() {}

func press(s string) tea.KeyPressMsg {
	if s == "esc" {
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func names(ls []layer.Layer) string {
	var out []string
	for _, l := range ls {
		out = append(out, l.View())
	}
	return strings.Join(out, ",")
}

func TestAPushedLayerGoesAboveItsRankAndBelowHigherOnes(t *testing.T) {
	tests := []struct {
		name  string
		push  []layer.Rank
		order string // bottom first
	}{
		{"in the order opened", []layer.Rank{layer.Panel, layer.Panel}, "0,1"},
		{"a panel under the help", []layer.Rank{layer.Sheet, layer.Panel}, "1,0"},
		{"a dialog over the help", []layer.Rank{layer.Sheet, layer.Dialog}, "0,1"},
		{"a panel under a dialog and a prompt", []layer.Rank{layer.Prompt, layer.Dialog, layer.Panel}, "2,1,0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s layer.Stack
			for i, rank := range tt.push {
				s.Push(floating{&probe{name: string(rune('0' + i))}}, rank, "")
			}
			var got []string
			s.Each("", func(l layer.Layer, _ layer.Rank) bool {
				got = append([]string{l.View()}, got...)
				return true
			})
			if strings.Join(got, ",") != tt.order {
				t.Fatalf("order %v, want %s", got, tt.order)
			}
		})
	}
}

func TestOnlyTheTopLayerGetsKeysAndEscClosesOne(t *testing.T) {
	var s layer.Stack
	under, over := &probe{name: "under"}, &probe{name: "over"}
	s.Push(under, layer.Panel, "cards")
	s.Push(over, layer.Panel, "cards")
	s.Update("cards", press("j"))
	if len(under.got) != 0 || strings.Join(over.got, " ") != "j" {
		t.Fatalf("under got %v, over got %v", under.got, over.got)
	}
	s.Update("cards", press("esc"))
	if top, _, _ := s.Top("cards"); top != under || s.Len() != 1 {
		t.Fatalf("esc left %d layers, top %v", s.Len(), top)
	}
	if _, ok := s.Update("cards", press("esc")); !ok || s.Len() != 0 {
		t.Fatalf("the second esc left %d layers", s.Len())
	}
	if _, ok := s.Update("cards", press("j")); ok {
		t.Fatal("a key went to a layer with none open")
	}
}

func TestAScreensLayersShowOnlyOverIt(t *testing.T) {
	var s layer.Stack
	s.Push(&probe{name: "form"}, layer.Panel, "cards")
	s.Push(floating{&probe{name: "dialog"}}, layer.Dialog, "")
	if got := names(s.Shown("cards")); got != "form,dialog" {
		t.Fatalf("over cards: %s", got)
	}
	if got := names(s.Shown("wallets")); got != "dialog" {
		t.Fatalf("over wallets: %s", got)
	}
	if _, _, ok := s.Top("events"); !ok {
		t.Fatal("the root's dialog is not on top over every screen")
	}
}

func TestAWholeBodyLayerHidesWhatIsUnder(t *testing.T) {
	var s layer.Stack
	s.Push(&probe{name: "panel"}, layer.Panel, "")
	s.Push(&probe{name: "help"}, layer.Sheet, "")
	s.Push(floating{&probe{name: "dialog"}}, layer.Dialog, "")
	if got := names(s.Shown("")); got != "help,dialog" {
		t.Fatalf("shown %s: the panel under the help is not drawn", got)
	}
}

func TestTheStackSizesALayerBeforeItDraws(t *testing.T) {
	var s layer.Stack
	s.SetSize(80, 20)
	p := &probe{name: "p"}
	s.Push(p, layer.Panel, "")
	if p.width != 80 || p.height != 20 {
		t.Fatalf("pushed at %dx%d", p.width, p.height)
	}
	s.SetSize(120, 30)
	if p.width != 120 || p.height != 30 {
		t.Fatalf("resized to %dx%d", p.width, p.height)
	}
}

func TestALayerThatIsDoneIsNeitherShownNorGivenKeys(t *testing.T) {
	var s layer.Stack
	under, over := &probe{name: "under"}, &probe{name: "over"}
	s.Push(under, layer.Panel, "")
	s.Push(over, layer.Panel, "")
	over.done = true // closed by something else than a key (its case closed)
	s.Update("", press("k"))
	if len(over.got) != 0 || len(under.got) != 1 || s.Len() != 1 {
		t.Fatalf("over got %v, under got %v, %d left", over.got, under.got, s.Len())
	}
}

func TestFindIsTheTopmostOfAType(t *testing.T) {
	var s layer.Stack
	s.Push(&probe{name: "a"}, layer.Panel, "")
	s.Push(floating{&probe{name: "b"}}, layer.Dialog, "")
	if p, ok := layer.Find[*probe](&s, ""); !ok || p.name != "a" {
		t.Fatalf("found %v, %v", p, ok)
	}
	if f, ok := layer.Find[floating](&s, ""); !ok || f.name != "b" {
		t.Fatalf("found %v, %v", f, ok)
	}
}
