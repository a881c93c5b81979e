package support

import (
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// A gateway that pages its audit trail oldest first: the timeline and the
// export still read newest first, and v reverses the timeline.
func TestTimelineSortsAnOldestFirstGatewayNewestFirst(t *testing.T) {
	records := []apiclient.AuditRecord{
		{AuditID: "a1", Timestamp: "2026-01-01T09:00:00Z"},
		{AuditID: "a2", Timestamp: "2026-01-02T09:00:00+02:00"},
		{AuditID: "a3", Timestamp: "2026-01-03T09:00:00.5Z"},
	}
	if got := sortedRecords(records); got[0].AuditID != "a3" || got[2].AuditID != "a1" {
		t.Fatalf("export order %s %s %s", got[0].AuditID, got[1].AuditID, got[2].AuditID)
	}
	st := theme.New(true, false)
	deps := screenkit.Deps{Styles: &st, Requests: ui.NewRequests()}
	a := newAuditView(deps, deps.Requests.For(ui.ScreenSupport), nil, "user")
	a.SetSize(120, 30)
	a.records, a.times, a.cells = records, recordTimes(records), recordCells(records)
	a.refilter()
	if r, _ := a.selected(); r.AuditID != "a3" {
		t.Fatalf("the timeline starts at %s", r.AuditID)
	}
	a.oldestFirst = true
	a.refilter()
	if r, _ := a.selected(); r.AuditID != "a1" {
		t.Fatalf("reversed, the timeline starts at %s", r.AuditID)
	}
}
