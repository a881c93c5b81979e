package keymap

// The registry: every action a key runs, by its stable name, with its
// default keys and its words. A screen builds its key map from here
// (Bind), and a keys.yaml names these actions. A new action is one row
// in its context's table; a new context is one more table in contexts.

// global is what the root handles on every screen.
var global = []Action{
	{Name: "global.help", Keys: []string{"?"}, Help: "help", Title: "show the help"},
	{Name: "global.help-anywhere", Keys: []string{"f1"}, Help: "help", Title: "show the help, from a text field too"},
	{Name: "global.interrupt", Keys: []string{"ctrl+c"}, Help: "quit", Title: "quit at once"},
	{Name: "global.suspend", Keys: []string{"ctrl+z"}, Help: "suspend", Title: "suspend to the shell"},
	{Name: "global.notices", Keys: []string{"m"}, Help: "notice log", Title: "open the notice log"},
	{Name: "global.nav", Keys: []string{"\\"}, Help: "hide/show navigation", Title: "hide or show the navigation"},
	{Name: "global.inspect", Keys: []string{"i"}, Help: "inspect the gateway's JSON", Title: "inspect the gateway's JSON"},
	{Name: "global.quit", Keys: []string{"q", "ctrl+c"}, HelpKeys: "q", Help: "quit", Title: "quit"},
	{Name: "global.focus", Keys: []string{"tab", "shift+tab"}, HelpKeys: "tab", Help: "focus", Title: "move the focus"},
	{Name: "global.back", Keys: []string{"esc"}, Help: "back/cancel", Title: "go back or cancel"},
	{Name: "global.refresh", Keys: []string{"r"}, Help: "refresh", Title: "refresh the screen"},
	{Name: "global.copy", Keys: []string{"y"}, Help: "copy", Title: "copy the selected value"},
	{Name: "global.open", Keys: []string{"o"}, Help: "open link", Title: "open the link in a browser"},
	{Name: "global.filter", Keys: []string{"/"}, Help: "filter", Title: "filter the list"},
	{Name: "global.sign-out", Keys: []string{"S"}, Help: "sign out", Title: "sign out"},
	{Name: "global.profiles", Keys: []string{"ctrl+p"}, Help: "switch profile", Title: "switch profile"},
	{Name: "global.presenter", Keys: []string{"f2"}, Help: "hide/show keys pressed", Title: "hide or show the keys pressed"},
	{Name: "global.keep", Keys: []string{"ctrl+k"}, Help: "keep in the support case", Title: "keep in the support case"},
	{Name: "global.run", Keys: []string{"!"}, Help: "run a command", Title: "run one of your commands on the record"},
	{Name: "global.jump", Keys: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}, HelpKeys: "0-9", Help: "jump to screen", Title: "jump to a screen by number"},
	{Name: "global.goto", Keys: []string{":"}, Help: "go to screen", Title: "go to a screen or run an action"},
}

// nav is the navigation pane's, while it has the focus (tab): the keys
// move in it and open its entry there, not on the screen beside it.
var nav = []Action{
	{Name: "nav.up", Keys: []string{"up", "k"}, HelpKeys: "↑/k", Help: "up", Title: "move up in the navigation"},
	{Name: "nav.down", Keys: []string{"down", "j"}, HelpKeys: "↓/j", Help: "down", Title: "move down in the navigation"},
	{Name: "nav.open", Keys: []string{"enter"}, Help: "open", Title: "open the screen chosen in the navigation"},
}

// card is the Card screen's.
var card = []Action{
	{Name: "card.freeze", Keys: []string{"f"}, Help: "freeze/unfreeze", Title: "freeze the card (or unfreeze it)"},
	{Name: "card.order", Keys: []string{"n"}, Help: "order a new card", Title: "order a new card"},
	{Name: "card.set-pin", Keys: []string{"p"}, Help: "set PIN", Title: "set the card's PIN"},
	{Name: "card.set-pin-style", Keys: []string{"s"}, Help: "set-PIN page style", Title: "style the set-PIN page"},
	{Name: "card.view-pin", Keys: []string{"v"}, Help: "view PIN", Title: "view the card's PIN"},
	{Name: "card.details", Keys: []string{"d"}, Help: "card details", Title: "view the card's details"},
	{Name: "card.reload", Keys: []string{"r"}, Help: "reload card", Title: "reload the card"},
	{Name: "card.view-pin-colours", Keys: []string{"V"}, Help: "PIN image colours", Title: "colours of the PIN image"},
	{Name: "card.details-colours", Keys: []string{"D"}, Help: "details image colours", Title: "colours of the details image"},
	{Name: "card.guard", Keys: []string{"g"}, Help: "guard rules", Title: "the guard rules: their log, a dry run, the editor"},
}

// transactions is the Transactions screen's.
var transactions = []Action{
	{Name: "transactions.filters", Keys: []string{"f"}, Help: "filters", Title: "filter the transactions"},
	{Name: "transactions.clear", Keys: []string{"c"}, Help: "clear filters", Title: "clear the transaction filters"},
	{Name: "transactions.next", Keys: []string{"n"}, Help: "next page", Title: "next page of transactions"},
	{Name: "transactions.previous", Keys: []string{"p"}, Help: "previous page", Title: "previous page of transactions"},
	{Name: "transactions.reload", Keys: []string{"r"}, Help: "reload page", Title: "reload the transactions"},
	{Name: "transactions.save-view", Keys: []string{"V"}, Help: "save a view", Title: "save the filters as a view"},
	{Name: "transactions.export", Keys: []string{"x"}, Help: "export", Title: "export the transactions"},
	{Name: "transactions.note", Keys: []string{"t"}, Help: "note and tags", Title: "write a note and tags on the transaction"},
	{Name: "transactions.tag", Keys: []string{"#"}, Help: "list a tag", Title: "list the transactions of a tag"},
}

// events is the Events screen's.
var events = []Action{
	{Name: "events.test", Keys: []string{"t"}, Help: "send a test event", Title: "send a test event"},
	{Name: "events.resend", Keys: []string{"R"}, Help: "deliver this event again", Title: "deliver this event again"},
	{Name: "events.simulate", Keys: []string{"s"}, Help: "simulate card activity", Title: "simulate card activity"},
	{Name: "events.scroll-down", Keys: []string{"J", "shift+down"}, HelpKeys: "J", Help: "scroll the detail down", Title: "scroll the event's detail down"},
	{Name: "events.save-view", Keys: []string{"V"}, Help: "save a view", Title: "save the events' filter as a view"},
	{Name: "events.scroll-up", Keys: []string{"K", "shift+up"}, HelpKeys: "K", Help: "scroll the detail up", Title: "scroll the event's detail up"},
}

// whitelist is the Whitelist screen's.
var whitelist = []Action{
	{Name: "whitelist.currency", Keys: []string{"c"}, Help: "currency", Title: "choose the whitelist's currency"},
	{Name: "whitelist.add", Keys: []string{"a"}, Help: "add entries", Title: "add whitelist entries"},
	{Name: "whitelist.delete", Keys: []string{"x"}, Help: "delete marked/selected", Title: "delete the marked or selected entries"},
	{Name: "whitelist.save-view", Keys: []string{"V"}, Help: "save a view", Title: "save the currency and filter as a view"},
}

// contexts is every table: a context is a screen, the root or a widget,
// and two actions of one context may not share a key. One literal, which
// the compiler lays out (an append would run before main on every start).
var contexts = [][]Action{
	global, nav, card, transactions, events, whitelist,
	screenWhitelist, screenWallets, screenOrders, screenAccount, screenScreenkit, screenSignin, screenSupport,
	screenQueue, screenDelegation, screenWebhooks, screenConsent, screenInsights, guardPanel, receiveView,
}
