package card

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/guard"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The guard rules run here while the app runs: the Card screen owns the
// freeze, so a rule's freeze goes through the same declared request
// (apiclient.FreezeCardCall) and, unless the rule acts alone, the same
// confirmation as f. The transactions come from the alerts' reads
// (screenkit.FreshTransactionsMsg). After a rule froze the card, an
// unfreeze is offered only once its cool-down is over. Every action goes
// to the profile's guard-actions.jsonl, written in a command.

// guardState is the rules in force and what they did.
type guardState struct {
	rules  guard.Rules
	engine *guard.Engine
	// frozenBy is the rule that froze the card last; until is when its
	// cool-down ends.
	frozenBy string
	until    time.Time
}

// Messages of the guard.
type (
	// guardRulesMsg is the rules file read (at sign-in, after a save).
	guardRulesMsg struct {
		rules guard.Rules
		err   error
	}
	// ruleFrozen is the answer of a freeze a rule sent alone.
	ruleFrozen struct{ decision guard.Decision }
	// cooldownOverMsg says a rule's cool-down ended.
	cooldownOverMsg struct{ until time.Time }
)

// loadGuardRules reads the rules in a command.
func (c *Screen) loadGuardRules() tea.Cmd {
	dir := c.Deps.HolderDir
	if dir == "" {
		return nil
	}
	return func() tea.Msg {
		rules, err := guard.Load(guard.File(dir))
		return guardRulesMsg{rules: rules, err: err}
	}
}

// guardUpdate takes the guard's messages; ok is false for any other.
func (c *Screen) guardUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ui.SessionStartedMsg:
		c.guard = guardState{}
		return c.loadGuardRules(), true
	case guardRulesMsg:
		if msg.err != nil {
			return ui.NotifyEverywhere(theme.ToneWarn, "guard rules not in force: "+msg.err.Error()), true
		}
		c.guard.rules, c.guard.engine = msg.rules, guard.NewEngine(msg.rules, c.Deps.ReadOnly)
		return nil, true
	case screenkit.FreshTransactionsMsg:
		return c.guardObserve(msg.List), true
	case ui.Result[ruleFrozen]:
		return c.ruleFroze(msg), true
	case ruleTextMsg:
		return c.editRules(msg), true
	case cooldownOverMsg:
		if !msg.until.Equal(c.guard.until) {
			return nil, true
		}
		return ui.NotifyEverywhere(theme.ToneInfo, "guard: the cool-down of "+sanitize.Text(c.guard.frozenBy)+" is over; f on the Card screen unfreezes"), true
	}
	return nil, false
}

// guardObserve runs the rules over what is new and acts on each decision.
func (c *Screen) guardObserve(list []apiclient.Transaction) tea.Cmd {
	if c.guard.engine == nil {
		return nil
	}
	var cmds []tea.Cmd
	for i := range list {
		for _, d := range c.guard.engine.Observe(&list[i]) {
			cmds = append(cmds, c.guardAct(d))
		}
	}
	return tea.Batch(cmds...)
}

// guardAct does one decision: a notice, or a freeze (alone, or asked).
func (c *Screen) guardAct(d guard.Decision) tea.Cmd {
	what := d.Rule.Name + ": " + d.Transaction.Amount + " " + d.Transaction.Merchant
	if d.Why != "" {
		what += " (" + d.Why + ")"
	}
	if d.Action != guard.Freeze {
		return tea.Batch(c.guardTell(theme.ToneWarn, "Guard", what), c.guardLog(d, "notified"))
	}
	switch {
	case c.card != nil && c.card.Status == apiclient.CardFrozen:
		return c.guardLog(d, "not sent: the card is already frozen")
	case d.Alone:
		_, cmd := ui.Go(c.Requests, func(ctx context.Context) (ruleFrozen, error) {
			return ruleFrozen{decision: d}, c.Deps.Client.FreezeCard(ctx)
		})
		return cmd
	}
	ask := c.confirmRuleFreeze(d)
	if ask == nil {
		return c.guardLog(d, "not asked: another change is being confirmed")
	}
	return tea.Batch(ask, c.guardTell(theme.ToneWarn, "Guard asks to freeze", what), c.guardLog(d, "asked to freeze"))
}

// confirmRuleFreeze asks, as f does, with the rule's reason.
func (c *Screen) confirmRuleFreeze(d guard.Decision) tea.Cmd {
	client := c.Deps.Client
	c.guard.frozenBy = d.Rule.Name
	spec := ui.ChangeSpec[cardAction]{What: "freeze", Done: "card frozen by the guard rule " + sanitize.Text(d.Rule.Name),
		Title:   "Guard rule: freeze the card?",
		Request: apiclient.FreezeCardCall().Lines(),
		Lines: []string{sanitize.Text(d.Rule.Name + ": " + d.Transaction.Amount + " at " + d.Transaction.Merchant + " " + d.Why),
			"All transaction attempts will be declined until you unfreeze it."},
		ConfirmLabel: "freeze", Tone: theme.ToneWarn,
		Run: func(ctx context.Context) (cardAction, error) { return actionRuleFreeze, client.FreezeCard(ctx) }}
	return c.change.Ask(spec)
}

// ruleFroze takes the answer of a freeze sent alone.
func (c *Screen) ruleFroze(msg ui.Result[ruleFrozen]) tea.Cmd {
	d := msg.Value.decision
	if msg.Err != nil {
		return tea.Batch(c.guardLog(d, "failed: "+apiclient.ErrorMessage(msg.Err)), screenkit.Failed("guard freeze", msg.Err))
	}
	c.guard.frozenBy = d.Rule.Name
	return tea.Batch(c.startCooldown(d.Rule.Cooldown), c.load(), c.guardLog(d, "froze the card"),
		c.guardTell(theme.ToneDanger, "Card frozen by a guard rule", d.Rule.Name+": "+d.Transaction.Merchant+" ("+d.Why+")"))
}

// startCooldown keeps an unfreeze from being offered for d.
func (c *Screen) startCooldown(d time.Duration) tea.Cmd {
	if d <= 0 {
		d = guard.DefaultCooldown
	}
	until := c.Deps.Clock().Add(d)
	c.guard.until = until
	return tea.Tick(d, func(time.Time) tea.Msg { return cooldownOverMsg{until: until} })
}

// inCooldown is the notice that refuses an unfreeze during a cool-down,
// nil when none runs.
func (c *Screen) inCooldown() tea.Cmd {
	if c.guard.until.IsZero() || !c.Deps.Clock().Before(c.guard.until) {
		return nil
	}
	return ui.Notify(theme.ToneWarn, "the guard rule "+sanitize.Text(c.guard.frozenBy)+" froze the card: unfreeze is offered from "+
		c.guard.until.Local().Format("15:04:05")+" (its cool-down)")
}

// guardTell is a notice everywhere and a desktop notification where the
// terminal shows one, as the decline alerts.
func (c *Screen) guardTell(tone theme.Tone, title, body string) tea.Cmd {
	return tea.Batch(ui.NotifyEverywhere(tone, title+": "+body), c.Deps.Alerts.Desktop.Notify("cardterm: "+title, sanitize.Text(body)))
}

// guardLog appends the decision's outcome to the profile's log, in a
// command.
func (c *Screen) guardLog(d guard.Decision, outcome string) tea.Cmd {
	dir, at := c.Deps.HolderDir, c.Deps.Clock()
	if dir == "" {
		return nil
	}
	return func() tea.Msg {
		if err := guard.Append(guard.LogFile(dir), guard.EntryOf(d, at, outcome)); err != nil {
			return ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneWarn, Text: "the guard's log could not be written: " + sanitize.Text(err.Error()), Everywhere: true}}
		}
		return guardLoggedMsg{}
	}
}

// guardLoggedMsg says an action was logged: an open guard panel reads
// the log again.
type guardLoggedMsg struct{}

// afterRuleFreeze starts the cool-down and logs a freeze a rule asked
// for and the holder confirmed.
func (c *Screen) afterRuleFreeze(res ui.ChangeResult[cardAction]) tea.Cmd {
	if res.Value != actionRuleFreeze || res.Err != nil {
		return nil
	}
	d := guard.Decision{Rule: guard.Rule{Name: c.guard.frozenBy}, Action: guard.Freeze}
	for _, r := range c.guard.rules.Rules {
		if r.Name == c.guard.frozenBy {
			d.Rule = r
		}
	}
	return tea.Batch(c.startCooldown(d.Rule.Cooldown), c.guardLog(d, "froze the card (confirmed)"))
}
