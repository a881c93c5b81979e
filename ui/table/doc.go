// Package table is the big-data table every list screen uses: it draws only
// the visible rows, filters 100,000 rows within a key press, keeps marks, and
// lays its columns out to their content. It builds on ui's layout helpers
// (cell widths, fitting, the one truncation rule) and keys, and on
// ui/sanitize for what a cell draws; ui never imports it.
package table
