package recordcommand

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestParseRefusesWithTheLine(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"no name", "transactions:\n  - run: [echo]\n", "commands.yaml:2: a command needs a name"},
		{"both", "transactions:\n  - name: a\n    run: [echo]\n    shell: echo\n", "commands.yaml:2: a: give run or shell, not both"},
		{"neither", "consent:\n  - name: a\n", "commands.yaml:2: a: give run: [program, args…] or shell: script"},
		{"program from a field", "events:\n  - name: a\n    run: ['{merchant}']\n", "the program itself cannot come from a field"},
		{"field spliced in a shell", "events:\n  - name: a\n    shell: 'echo {merchant}'\n", "reads the fields as $CARDTERM_FIELD_NAME"},
		{"not a list", "events: echo\n", "commands.yaml:1: events: expected a list of commands"},
		{"not a mapping", "- a\n", "commands.yaml:1: expected a kind of record"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("commands.yaml", []byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse: %v, want %q", err, tc.want)
			}
		})
	}
}

// A placeholder expands inside its argument only, whatever the value
// holds; a missing field is refused, naming those there are.
func TestPrepareKeepsEachFieldInItsArgument(t *testing.T) {
	fields := map[string]string{"merchant": `Joe's "Diner" $(touch pwned); rm -rf ~`, "amount": "7.10", "merchantNameLocation": "x"}
	c := Command{Name: "look", Argv: []string{"grep", "--", "{merchant} at {amount}", "notes.txt"}}
	p, err := c.Prepare(fields)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"grep", "--", `Joe's "Diner" $(touch pwned); rm -rf ~ at 7.10`, "notes.txt"}
	if !slices.Equal(p.Argv, want) {
		t.Fatalf("argv %q, want %q", p.Argv, want)
	}
	if !slices.Contains(p.Fields, "CARDTERM_FIELD_MERCHANT_NAME_LOCATION=x") {
		t.Fatalf("environment %q", p.Fields)
	}
	if got := p.Display(); got != `grep -- 'Joe'\''s "Diner" $(touch pwned); rm -rf ~ at 7.10' notes.txt` {
		t.Fatalf("display %s", got)
	}
	_, err = Command{Name: "x", Argv: []string{"echo", "{nope}"}}.Prepare(fields)
	if err == nil || !strings.Contains(err.Error(), "no field {nope} (it has amount, merchant, merchantNameLocation)") {
		t.Fatalf("missing field: %v", err)
	}
}

// Run keeps the exit status and the output, cut at MaxOutput; a program
// that is not there is an error, not a status.
func TestRunKeepsStatusAndOutput(t *testing.T) {
	r := Run(context.Background(), Prepared{Argv: []string{"/bin/sh", "-c", "printf out; printf err >&2; exit 4"}}, nil)
	if r.ExitCode != 4 || string(r.Output) != "outerr" || r.Err != nil {
		t.Fatalf("result %+v", r)
	}
	r = Run(context.Background(), Prepared{Argv: []string{"/bin/sh", "-c", "head -c 300000 /dev/zero"}}, nil)
	if !r.Cut || len(r.Output) != MaxOutput {
		t.Fatalf("cut %v, %d bytes", r.Cut, len(r.Output))
	}
	if r = Run(context.Background(), Prepared{Argv: []string{"no-such-program-here"}}, nil); r.Err == nil {
		t.Fatal("a missing program ran")
	}
}

func TestFieldsOfTheGatewaysJSON(t *testing.T) {
	got := FieldsOf([]byte(`{"id":"t1","amount":{"value":7.1,"currency":"EUR"},"tags":["a"],"ok":true,"reason":null}`))
	want := map[string]string{"id": "t1", "amount.value": "7.1", "amount.currency": "EUR", "tags.0": "a", "ok": "true", "reason": ""}
	for name, value := range want {
		if got[name] != value {
			t.Errorf("%s = %q, want %q", name, got[name], value)
		}
	}
}
