package keymap

// The screens' actions beyond those of registry.go, one table per screen,
// named after the key map field they fill. Their palette title is their
// help's words.

var screenWhitelist = []Action{
	{Name: "whitelist.add-entry", Keys: []string{"ctrl+n"}, Help: "add another entry", Title: "add another entry"},
	{Name: "whitelist.remove-entry", Keys: []string{"ctrl+x"}, Help: "remove this entry", Title: "remove this entry"},
	{Name: "whitelist.up", Keys: []string{"up"}, HelpKeys: "↑/↓", Help: "choose", Title: "choose"},
	{Name: "whitelist.select", Keys: []string{"enter"}, Help: "select", Title: "select"},
	{Name: "whitelist.erase", Keys: []string{"backspace"}, Help: "erase", Title: "erase"},
	{Name: "whitelist.cancel", Keys: []string{"esc"}, Help: "cancel", Title: "cancel"},
}

var screenWallets = []Action{
	{Name: "wallets.link", Keys: []string{"l"}, Help: "link to card", Title: "link to card"},
	{Name: "wallets.unlink", Keys: []string{"u"}, Help: "unlink", Title: "unlink"},
	{Name: "wallets.up", Keys: []string{"K"}, Help: "priority up", Title: "priority up"},
	{Name: "wallets.down", Keys: []string{"J"}, Help: "priority down", Title: "priority down"},
	{Name: "wallets.withdraw", Keys: []string{"w"}, Help: "withdraw credit", Title: "withdraw credit"},
	{Name: "wallets.history", Keys: []string{"h"}, Help: "history", Title: "history"},
	{Name: "wallets.receive", Keys: []string{"R"}, Help: "receive (address, QR)", Title: "receive money: the address as a QR code"},
	{Name: "wallets.next", Keys: []string{"n"}, Help: "next page", Title: "next page"},
	{Name: "wallets.prev", Keys: []string{"p"}, Help: "previous page", Title: "previous page"},
	{Name: "wallets.credit", Keys: []string{"c"}, Help: "credit/internal wallet", Title: "credit/internal wallet"},
	{Name: "wallets.back", Keys: []string{"esc"}, Help: "back", Title: "back"},
}

var screenOrders = []Action{
	{Name: "orders.again", Keys: []string{"f"}, Help: "find an order by id", Title: "find an order by id"},
	{Name: "orders.back", Keys: []string{"esc"}, Help: "back to the products", Title: "back to the products"},
	{Name: "orders.recheck", Keys: []string{"r"}, Help: "check status now", Title: "check status now"},
	{Name: "orders.copy", Keys: []string{"y"}, Help: "copy address", Title: "copy address"},
	{Name: "orders.qr", Keys: []string{"v"}, Help: "QR code alone", Title: "QR code alone"},
	{Name: "orders.close", Keys: []string{"esc"}, Help: "close payment", Title: "close payment"},
}

var screenAccount = []Action{
	{Name: "account.refresh", Keys: []string{"r"}, Help: "reload profile", Title: "reload profile"},
	{Name: "account.copy", Keys: []string{"y"}, Help: "copy user id", Title: "copy user id"},
}

var screenScreenkit = []Action{
	{Name: "screenkit.submit", Keys: []string{"enter"}, Help: "use the typed code", Title: "use the typed code"},
	{Name: "screenkit.reopen", Keys: []string{"ctrl+o"}, Help: "open the link again", Title: "open the link again"},
	{Name: "screenkit.copy", Keys: []string{"ctrl+y"}, Help: "copy the link", Title: "copy the link"},
}

var screenSignin = []Action{
	{Name: "signin.next", Keys: []string{"tab"}, Help: "next field", Title: "next field"},
	{Name: "signin.prev", Keys: []string{"shift+tab"}, Help: "previous field", Title: "previous field"},
	{Name: "signin.enter", Keys: []string{"enter"}, Help: "sign in", Title: "sign in"},
	{Name: "signin.submit", Keys: []string{"ctrl+s"}, Help: "sign in", Title: "sign in"},
	{Name: "signin.cancel", Keys: []string{"esc"}, Help: "cancel sign-in", Title: "cancel sign-in"},
	{Name: "signin.o-auth", Keys: []string{"ctrl+o"}, Help: "browser/phone sign-in", Title: "browser/phone sign-in"},
}

var screenSupport = []Action{
	{Name: "support.type", Keys: []string{"t"}, Help: "filter by consent type", Title: "filter by consent type"},
	{Name: "support.status", Keys: []string{"s"}, Help: "filter by status", Title: "filter by status"},
	{Name: "support.reverse", Keys: []string{"v"}, Help: "reverse the order", Title: "reverse the order"},
	{Name: "support.stop", Keys: []string{"esc"}, Help: "stop loading", Title: "stop loading"},
	{Name: "support.close", Keys: []string{"esc"}, Help: "back to the case", Title: "back to the case"},
	{Name: "support.back", Keys: []string{"esc"}, Help: "back", Title: "back"},
	{Name: "support.user", Keys: []string{"u"}, Help: "look up a user id", Title: "look up a user id"},
	{Name: "support.onboarding", Keys: []string{"b"}, Help: "look up an onboarding id", Title: "look up an onboarding id"},
	{Name: "support.desk", Keys: []string{"D"}, Help: "the desk's queue", Title: "open the desk's queue of cases"},
	{Name: "support.open", Keys: []string{"enter"}, Help: "open look-up", Title: "open look-up"},
	{Name: "support.region", Keys: []string{"R"}, Help: "switch region (EU/US)", Title: "switch region (EU/US)"},
	{Name: "support.ticket", Keys: []string{"T"}, Help: "set the ticket", Title: "set the ticket"},
	{Name: "support.audit", Keys: []string{"a"}, Help: "audit trail", Title: "audit trail"},
	{Name: "support.revoke", Keys: []string{"x"}, Help: "revoke consent", Title: "revoke consent"},
	{Name: "support.link", Keys: []string{"L"}, Help: "link set to a user", Title: "link set to a user"},
	{Name: "support.export", Keys: []string{"e"}, Help: "export case", Title: "export case"},
	{Name: "support.export-full", Keys: []string{"E"}, Help: "export with IPs and user agents", Title: "export with IPs and user agents"},
	{Name: "support.copy", Keys: []string{"c"}, Help: "copy case as Markdown", Title: "copy case as Markdown"},
	{Name: "support.approve", Keys: []string{"ctrl+o"}, Help: "customer-approved session", Title: "customer-approved session"},
	{Name: "support.keep", Keys: []string{"ctrl+k"}, Help: "keep selection in the case", Title: "keep selection in the case"},
	{Name: "support.note", Keys: []string{"n"}, Help: "add a note", Title: "add a note"},
	{Name: "support.panel", Keys: []string{"N"}, Help: "the case: notes, evidence", Title: "the case: notes, evidence"},
	{Name: "support.runbook", Keys: []string{"B"}, Help: "run a runbook", Title: "run a runbook"},
	{Name: "support.timeline", Keys: []string{"t"}, Help: "timeline", Title: "timeline"},
	{Name: "support.follow", Keys: []string{"enter"}, Help: "open the set's onboarding/user", Title: "open the set's onboarding/user"},
	{Name: "support.detail", Keys: []string{"d"}, Help: "consent detail", Title: "consent detail"},
	{Name: "support.up", Keys: []string{"up", "k"}, HelpKeys: "↑/k", Help: "previous note", Title: "previous note"},
	{Name: "support.down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "next note", Title: "next note"},
	{Name: "support.edit", Keys: []string{"enter"}, Help: "edit the note", Title: "edit the note"},
	{Name: "support.add", Keys: []string{"n"}, Help: "add a note", Title: "add a note"},
	{Name: "support.open-panel-export", Keys: []string{"e"}, Help: "export the case", Title: "export the case"},
	{Name: "support.open-runbooks-up", Keys: []string{"up", "k"}, HelpKeys: "↑/k", Help: "up", Title: "up"},
	{Name: "support.open-runbooks-down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "down", Title: "down"},
	{Name: "support.run", Keys: []string{"enter"}, Help: "run on this case", Title: "run on this case"},
	{Name: "support.open-timeline-keep", Keys: []string{"ctrl+k"}, Help: "keep the timeline in the case", Title: "keep the timeline in the case"},
	{Name: "support.refresh", Keys: []string{"r"}, Help: "read again", Title: "read again"},
}

// screenQueue is the support desk's queue of cases.
var screenQueue = []Action{
	{Name: "queue.open", Keys: []string{"enter"}, Help: "open the case", Title: "open the case in the console"},
	{Name: "queue.take", Keys: []string{"t"}, Help: "take it", Title: "take the case"},
	{Name: "queue.hand-over", Keys: []string{"h"}, Help: "hand over", Title: "hand the case over to an agent"},
	{Name: "queue.status", Keys: []string{"s"}, Help: "next status", Title: "move the case to its next status"},
	{Name: "queue.priority", Keys: []string{"p"}, Help: "next priority", Title: "move the case to its next priority"},
	{Name: "queue.filter", Keys: []string{"f"}, Help: "filter: mine, unassigned, overdue, waiting", Title: "show mine, unassigned, overdue or waiting cases"},
	{Name: "queue.sort", Keys: []string{"d"}, Help: "sort by due or by age", Title: "sort the cases by due or by age"},
}

var screenDelegation = []Action{
	{Name: "delegation.open", Keys: []string{"enter"}, Help: "tokens", Title: "tokens"},
	{Name: "delegation.network", Keys: []string{"n"}, Help: "ask for one network", Title: "ask for one network"},
	{Name: "delegation.back", Keys: []string{"esc"}, Help: "back", Title: "back"},
	{Name: "delegation.token", Keys: []string{"t"}, Help: "request token", Title: "request token"},
	{Name: "delegation.chain", Keys: []string{"c"}, Help: "chain config", Title: "chain config"},
	{Name: "delegation.approve", Keys: []string{"a"}, Help: "post-approval", Title: "post-approval"},
	{Name: "delegation.up", Keys: []string{"up", "k"}, HelpKeys: "↑/↓", Help: "select value to copy", Title: "select value to copy"},
	{Name: "delegation.down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "next value to copy", Title: "next value to copy"},
}

var screenWebhooks = []Action{
	{Name: "webhooks.details", Keys: []string{"enter"}, Help: "open", Title: "open"},
	{Name: "webhooks.add", Keys: []string{"a"}, Help: "add", Title: "add"},
	{Name: "webhooks.edit", Keys: []string{"e"}, Help: "edit", Title: "edit"},
	{Name: "webhooks.toggle", Keys: []string{"t"}, Help: "toggle active", Title: "toggle active"},
	{Name: "webhooks.rotate", Keys: []string{"R"}, Help: "rotate key", Title: "rotate key"},
	{Name: "webhooks.delete", Keys: []string{"x"}, Help: "delete", Title: "delete"},
	{Name: "webhooks.close", Keys: []string{"esc", "enter"}, HelpKeys: "enter/esc", Help: "close", Title: "close"},
	{Name: "webhooks.copy-key", Keys: []string{"y"}, Help: "copy the key", Title: "copy the key"},
	{Name: "webhooks.listen", Keys: []string{"l"}, Help: "point at the in-app listener", Title: "point at the in-app listener"},
	{Name: "webhooks.listen-new", Keys: []string{"L"}, Help: "new webhook for the in-app listener", Title: "new webhook for the in-app listener"},
	{Name: "webhooks.open-by-id", Keys: []string{"f"}, Help: "find a webhook by id", Title: "find a webhook by id"},
}

var screenConsent = []Action{
	{Name: "consent.user", Keys: []string{"u"}, Help: "look up a user id", Title: "look up a user id"},
	{Name: "consent.onboarding", Keys: []string{"b"}, Help: "look up an onboarding id", Title: "look up an onboarding id"},
	{Name: "consent.open", Keys: []string{"enter"}, Help: "open set", Title: "open set"},
	{Name: "consent.audit", Keys: []string{"a"}, Help: "audit trail", Title: "audit trail"},
	{Name: "consent.save-view", Keys: []string{"V"}, Help: "save a view", Title: "save the look-up as a view"},
	{Name: "consent.revoke", Keys: []string{"x"}, Help: "revoke consent", Title: "revoke consent"},
	{Name: "consent.link", Keys: []string{"L"}, Help: "link set to a user", Title: "link set to a user"},
	{Name: "consent.new", Keys: []string{"N"}, Help: "new consent set", Title: "new consent set"},
	{Name: "consent.up", Keys: []string{"up", "k"}, HelpKeys: "↑/k", Help: "scroll up", Title: "scroll up"},
	{Name: "consent.down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "scroll down", Title: "scroll down"},
	{Name: "consent.page-up", Keys: []string{"pgup"}, Help: "page up", Title: "page up"},
	{Name: "consent.page-down", Keys: []string{"pgdown", "space"}, HelpKeys: "pgdn/space", Help: "page down", Title: "page down"},
	{Name: "consent.top", Keys: []string{"home", "g"}, HelpKeys: "g/home", Help: "top", Title: "top"},
	{Name: "consent.bottom", Keys: []string{"end", "G"}, HelpKeys: "G/end", Help: "bottom", Title: "bottom"},
	{Name: "consent.back", Keys: []string{"esc"}, Help: "back", Title: "back"},
	{Name: "consent.next", Keys: []string{"n"}, Help: "next page", Title: "next page"},
	{Name: "consent.prev", Keys: []string{"p"}, Help: "previous page", Title: "previous page"},
}

var screenInsights = []Action{
	{Name: "insights.up", Keys: []string{"up", "k"}, HelpKeys: "↑/k", Help: "up", Title: "up"},
	{Name: "insights.down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "down", Title: "down"},
	{Name: "insights.open", Keys: []string{"enter"}, Help: "its transactions", Title: "its transactions"},
	{Name: "insights.chart", Keys: []string{"v"}, Help: "next view", Title: "next view: months, categories, merchants, tags, budgets, recurring"},
	{Name: "insights.currency", Keys: []string{"c"}, Help: "next currency", Title: "next currency"},
	{Name: "insights.budget", Keys: []string{"b"}, Help: "set a budget", Title: "set a monthly budget"},
}

// guardPanel is the Card screen's guard-rules panel (g), a layer of its
// own keys.
var guardPanel = []Action{
	{Name: "guard.edit", Keys: []string{"e"}, Help: "edit the rules", Title: "edit the guard rules"},
	{Name: "guard.dry-run", Keys: []string{"d"}, Help: "dry run over the history", Title: "dry-run the guard rules over the history"},
}

// receiveView is the Wallets screen's receive view (R).
var receiveView = []Action{
	{Name: "receive.copy-address", Keys: []string{"c"}, Help: "copy the address", Title: "copy the receiving address"},
	{Name: "receive.copy-memo", Keys: []string{"t"}, Help: "copy the memo", Title: "copy the memo or tag to send with"},
}
