package support

import (
	"fmt"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// BenchmarkAuditTimelineReverse is v on a timeline of 5,000 records: the
// records sorted again by time (their times read and their rows formatted
// once, when they arrived).
func BenchmarkAuditTimelineReverse(b *testing.B) {
	st := theme.New(true, false)
	deps := screenkit.Deps{Styles: &st, Requests: ui.NewRequests()}
	a := newAuditView(deps, deps.Requests.For(ui.ScreenSupport), nil, "user")
	a.SetSize(120, 40)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	records := make([]apiclient.AuditRecord, 5000)
	for i := range records {
		records[i] = apiclient.AuditRecord{AuditID: fmt.Sprint(i), Action: "updated",
			Timestamp:    at.Add(time.Duration((i*7919)%5000) * time.Minute).Format(time.RFC3339),
			ConsentSetID: "set", Changes: apiclient.AuditChanges{After: apiclient.ConsentState{ConsentType: "smsNotifications", ConsentStatus: "granted"}}}
	}
	a.records, a.times, a.cells = records, recordTimes(records), recordCells(records)
	b.ReportAllocs()
	for b.Loop() {
		a.oldestFirst = !a.oldestFirst
		a.refilter()
	}
}
