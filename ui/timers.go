package ui

import (
	"reflect"
	"time"

	"charm.land/bubbles/v2/cursor"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/lazy"
)

// timerCode holds the code pointers of commands that only wait: tea.Tick,
// tea.Every, a spinner's tick and a text cursor's blink. Every closure made
// by one function literal shares its code pointer, so one sample of each
// identifies them all. Made at first use: a cursor's blink sample starts
// a timer, which has no place in every start.
var timerCode = lazy.Value[map[uintptr]bool]{New: func() map[uintptr]bool {
	m := map[uintptr]bool{}
	blink := cursor.New()
	blink.BlinkSpeed = time.Hour
	for _, c := range []tea.Cmd{
		blink.Blink(),
		tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil }),
		tea.Every(time.Hour, func(time.Time) tea.Msg { return nil }),
		spinner.New().Tick,
	} {
		m[reflect.ValueOf(c).Pointer()] = true
	}
	return m
}}

// IsTimer reports whether cmd only waits and then sends a message (a tick,
// a blink). The root passes such commands on as they are; test drivers
// skip them instead of waiting.
func IsTimer(cmd tea.Cmd) bool {
	return cmd != nil && timerCode.Get()[reflect.ValueOf(cmd).Pointer()]
}
