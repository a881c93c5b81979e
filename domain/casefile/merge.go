package casefile

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Merge is what two copies of one case hold together: every look-up,
// note, piece of evidence, activity and event of either, each once (an
// entry is known by who made it, when and what it is), in time order; of
// a note both edited, the later edit; of each state mark, the later. A
// case written by two agents at once therefore loses nothing either
// added. Neither argument is changed.
func Merge(a, b *Case) *Case {
	out := a.Clone()
	out.Lookups = union(a.Lookups, b.Lookups, lookupKey, func(x Lookup) time.Time { return x.Time }, nil)
	out.Notes = union(a.Notes, b.Notes, noteKey, func(x Note) time.Time { return x.Time }, func(x, y Note) Note {
		if y.Edited.After(x.Edited) {
			return y
		}
		return x
	})
	out.Evidence = union(a.Evidence, b.Evidence, itemKey, func(x Item) time.Time { return x.Time }, nil)
	out.Activity = union(a.Activity, b.Activity, activityKey, func(x Activity) time.Time { return x.Time }, nil)
	out.Events = union(a.Events, b.Events, func(e Event) string { return e.Key }, nil, nil)
	out.State = State{Owner: later(a.State.Owner, b.State.Owner), Status: later(a.State.Status, b.State.Status),
		Priority: later(a.State.Priority, b.State.Priority), NextStep: later(a.State.NextStep, b.State.NextStep)}
	if b.Created.Before(out.Created) && !b.Created.IsZero() {
		out.Created = b.Created
	}
	if out.Tenant == "" {
		out.Tenant = b.Tenant
	}
	out.Revision = max(a.Revision, b.Revision)
	if b.Updated.After(out.Updated) {
		out.Updated, out.UpdatedBy = b.Updated, b.UpdatedBy
	}
	return out
}

// union keeps each entry of a and b once (by key), choosing with pick
// when both hold it (nil keeps a's), sorted by time when given (stable:
// a's order first).
func union[T any](a, b []T, key func(T) string, at func(T) time.Time, pick func(x, y T) T) []T {
	out := slices.Clone(a)
	index := make(map[string]int, len(a))
	for i, x := range out {
		index[key(x)] = i
	}
	for _, y := range b {
		k := key(y)
		if i, ok := index[k]; ok {
			if pick != nil {
				out[i] = pick(out[i], y)
			}
			continue
		}
		index[k] = len(out)
		out = append(out, y)
	}
	if at != nil {
		slices.SortStableFunc(out, func(x, y T) int { return at(x).Compare(at(y)) })
	}
	return out
}

func stamp(t time.Time, agent string, more ...string) string {
	return t.UTC().Format(time.RFC3339Nano) + "\x00" + agent + "\x00" + strings.Join(more, "\x00")
}

func lookupKey(l Lookup) string { return stamp(l.Time, l.Agent, l.Kind, l.ID, l.Region) }

// noteKey names a note by its id (an edit keeps it); a note of a file
// written before ids by its author and time.
func noteKey(n Note) string {
	if n.ID != "" {
		return n.ID
	}
	return stamp(n.Time, n.Agent)
}

func itemKey(it Item) string { return stamp(it.Time, it.Agent, it.Title, it.SHA256) }

func activityKey(a Activity) string {
	if a.ID != "" {
		return a.ID
	}
	return stamp(a.Time, a.Agent, a.Action, a.Detail)
}

// News says what other agents added to a case: what theirs holds that
// mine does not, per agent ("dana: 1 note, status waiting on the
// customer"); nil when nothing.
func News(mine, theirs *Case, me string) []string {
	counts := map[string]map[string]int{}
	var order []string
	add := func(agent, what string) {
		if agent == me {
			return
		}
		if counts[agent] == nil {
			counts[agent] = map[string]int{}
			order = append(order, agent)
		}
		counts[agent][what]++
	}
	have := map[string]bool{}
	for _, n := range mine.Notes {
		have[noteKey(n)] = true
	}
	for _, n := range theirs.Notes {
		if !have[noteKey(n)] {
			add(n.Agent, "note")
		}
	}
	for _, it := range theirs.Evidence {
		if !slices.ContainsFunc(mine.Evidence, func(x Item) bool { return itemKey(x) == itemKey(it) }) {
			add(it.Agent, "piece of evidence")
		}
	}
	var out []string
	for _, agent := range order {
		var parts []string
		for _, what := range []string{"note", "piece of evidence"} {
			if n := counts[agent][what]; n > 0 {
				parts = append(parts, plural(n, what))
			}
		}
		out = append(out, agent+": "+strings.Join(parts, ", "))
	}
	for _, m := range []struct {
		name        string
		mine, their Mark
		label       func(string) string
	}{
		{"owner", mine.State.Owner, theirs.State.Owner, func(v string) string { return orDefault(v, "nobody") }},
		{"status", mine.State.Status, theirs.State.Status, StatusLabel},
		{"priority", mine.State.Priority, theirs.State.Priority, func(v string) string { return v }},
	} {
		if m.their.At.After(m.mine.At) && m.their.By != me {
			out = append(out, m.their.By+": "+m.name+" now "+m.label(m.their.Value))
		}
	}
	return out
}

// plural is n and a noun, "1 note", "2 notes", "3 pieces of evidence".
func plural(n int, what string) string {
	switch {
	case n == 1:
		return "1 " + what
	case strings.HasPrefix(what, "piece "):
		return strconv.Itoa(n) + " pieces " + strings.TrimPrefix(what, "piece ")
	}
	return strconv.Itoa(n) + " " + what + "s"
}
