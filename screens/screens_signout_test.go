package screens_test

import (
	"reflect"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/theme"
	"cardterm/ui"
)

// The next user gets new screens: after alice visits every screen (a
// detail open where a list has one), signs out and frank signs in and
// visits every screen, no frame and no screen's state holds anything of
// alice's (her id, name, address, card, wallets, transactions, whitelist).
func TestNothingOfTheLastUserOutlivesASignOut(t *testing.T) {
	t.Run("sign-out", func(t *testing.T) { nothingOutlives(t, (*screentest.App).SignOut) })
	t.Run("expired session", func(t *testing.T) {
		nothingOutlives(t, func(app *screentest.App) { app.Drive(ui.SessionExpiredMsg{Reason: "the session expired"}) })
	})
}

// nothingOutlives visits every screen as alice, ends her session with
// end, and checks every screen after it and as frank.
func nothingOutlives(t *testing.T, end func(*screentest.App)) {
	app := allScreens(t)
	app.SignIn("alice@demo.test")
	traces := userTraces(t, app)
	held := map[string]bool{} // the traces alice's screens held
	for _, s := range screens.All(app.Deps) {
		app.Open(s.ID())
		app.Keys("enter") // a detail, where the screen has one
		if app.UI().DialogOpen() {
			app.Keys("n")
		}
		for _, trace := range tracesIn(screenState(app.UI().Active()), traces) {
			held[trace] = true
		}
		for range 3 { // back out of any form it opened
			if app.Front().CapturesKeys() {
				app.Keys("esc")
			}
		}
	}
	// The test would prove little if alice's data never reached her
	// screens: her name, card, wallets and transactions must have.
	if len(held) < 10 {
		t.Fatalf("alice's own screens held only %d of her traces: %v", len(held), held)
	}

	end(app)
	// The screens waiting for the next user hold nothing of alice's,
	// before any of them reads anything for frank.
	for _, s := range app.UI().Screens() {
		if found := tracesIn(screenState(s), traces); len(found) > 0 {
			t.Errorf("signed out, %s keeps %q of the last user in its state", s.Title(), found)
		}
	}
	app.SignIn("frank@demo.test")
	for _, s := range screens.All(app.Deps) {
		app.Open(s.ID())
		app.Keys("enter")
		if app.UI().DialogOpen() {
			app.Keys("n")
		}
		if found := tracesIn(app.Screen(), traces); len(found) > 0 {
			t.Errorf("%s shows %q of the last user:\n%s", s.Title(), found, app.Screen())
		}
		if found := tracesIn(screenState(app.UI().Active()), traces); len(found) > 0 {
			t.Errorf("%s keeps %q of the last user in its state", s.Title(), found)
		}
		for range 3 {
			if app.Front().CapturesKeys() {
				app.Keys("esc")
			}
		}
	}
}

// userTraces are strings only the signed-in user's data holds, read from
// the gateway as the screens read them.
func userTraces(t *testing.T, app *screentest.App) []string {
	t.Helper()
	ctx, c := t.Context(), app.Client
	user, err := c.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	traces := []string{user.ID, user.Email, user.FirstName + " " + user.LastName, user.AddressLine1, user.PhoneNumber}
	if card, err := c.CardStatus(ctx); err == nil {
		traces = append(traces, card.ID)
	}
	internal, _ := c.InternalWallets(ctx)
	for _, w := range internal {
		traces = append(traces, w.ID, w.Address)
	}
	linked, _ := c.LinkedWallets(ctx)
	for _, w := range linked {
		traces = append(traces, w.Address)
	}
	external, _ := c.ExternalWallets(ctx)
	for _, w := range external {
		traces = append(traces, w.Address)
	}
	if page, err := c.Transactions(ctx, apiclient.TransactionFilter{}); err == nil {
		for _, tr := range page.Transactions[:min(len(page.Transactions), 20)] {
			traces = append(traces, tr.ID)
		}
	}
	var kept []string
	for _, trace := range traces {
		if len(trace) >= 6 { // short values (a currency, a country) are anyone's
			kept = append(kept, trace)
		}
	}
	return kept
}

// tracesIn are the traces text holds.
func tracesIn(text string, traces []string) []string {
	var found []string
	for _, trace := range traces {
		if strings.Contains(text, trace) {
			found = append(found, trace)
		}
	}
	return found
}

// screenState is every string a screen holds, its sub-views, tables and
// inputs included, read by reflection through pointers, interfaces,
// slices and maps. What all screens share and no user owns (the client,
// the request registry, the styles, the in-app listener) is left out.
func screenState(s ui.Screen) string {
	var b strings.Builder
	seen := map[[2]uintptr]bool{}
	collectStrings(reflect.ValueOf(s), &b, seen, 0)
	return b.String()
}

var sharedTypes = map[reflect.Type]bool{
	reflect.TypeFor[screenkit.Deps]():            true,
	reflect.TypeFor[ui.Owner]():                  true,
	reflect.TypeFor[*apiclient.Client]():         true,
	reflect.TypeFor[*theme.Styles]():             true,
	reflect.TypeFor[*webhookreceiver.Receiver](): true,
	reflect.TypeFor[*ui.Requests]():              true,
}

func collectStrings(v reflect.Value, b *strings.Builder, seen map[[2]uintptr]bool, depth int) {
	if !v.IsValid() || depth > 40 || sharedTypes[v.Type()] {
		return
	}
	switch v.Kind() {
	case reflect.String:
		b.WriteString(v.String())
		b.WriteByte('\n')
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			key := [2]uintptr{v.Pointer(), uintptr(v.Type().Elem().Size())}
			if seen[key] {
				return
			}
			seen[key] = true
		}
		collectStrings(v.Elem(), b, seen, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			collectStrings(v.Field(i), b, seen, depth+1)
		}
	case reflect.Slice, reflect.Array:
		switch v.Type().Elem().Kind() {
		case reflect.Uint8: // text as bytes (a raw record, a builder)
			if v.Kind() == reflect.Slice {
				b.Write(v.Bytes())
				b.WriteByte('\n')
				return
			}
		case reflect.Int32: // text as runes (an input's value)
			runes := make([]rune, v.Len())
			for i := range runes {
				runes[i] = rune(v.Index(i).Int())
			}
			b.WriteString(string(runes))
			b.WriteByte('\n')
			return
		}
		for i := range v.Len() {
			collectStrings(v.Index(i), b, seen, depth+1)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			collectStrings(iter.Key(), b, seen, depth+1)
			collectStrings(iter.Value(), b, seen, depth+1)
		}
	}
	// Other kinds (numbers, bools, funcs, channels) hold no user's text.
}
