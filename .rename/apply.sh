#!/usr/bin/env bash
# apply.sh rewrites uses of the names that moved out of package ui (the
# text sanitiser, the form, the table) to their new packages, in every Go
# file under the current directory: run it at the root of a cardterm tree
# that has the new packages (ui/sanitize, ui/form, ui/table).
#
# `ui.Sanitize(x)` becomes `sanitize.Text(x)`, and so on for each line of
# renames.txt; inside package ui itself (files directly in ui/) the bare
# names marked "yes" are rewritten too. The new package is added to the
# imports of each changed file, then goimports drops "cardterm/ui" where it
# is no longer used and sorts the block.
#
# A local variable named like a new package (a parameter `form *ui.Form`)
# hides it: when `go vet ./...` then fails on such a file, the file is
# rewritten again from its original text with the package imported under
# an alias (uiform, uitable, uisanitize), and the file is listed so that
# someone can rename the variable instead. Markdown files and .ci/ get the
# same qualified renames, the moved files' new paths and fuzz targets. Running it twice
# changes nothing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
table="$here/renames.txt"
goimports="${GOIMPORTS:-$(command -v goimports || echo /root/go/bin/goimports)}"

if ! grep -q '^module cardterm$' go.mod 2>/dev/null; then
	echo "apply.sh: run me at the root of the cardterm module" >&2
	exit 2
fi

# One perl program rewrites one file: qualified renames everywhere, bare
# ones only in package ui's own directory, then the imports the file now
# needs. $ALIASED lists "file:package" pairs whose package gets an alias.
program='
BEGIN {
	local $/ = "\n";
	open(my $t, "<", $ENV{RENAMES}) or die "renames: $!";
	while (<$t>) {
		next if /^\s*(#|$)/;
		my ($old, $new, $path, $bare) = split;
		push @R, [$old, $new, $path, $bare eq "yes"];
	}
	%ALIAS = map { $_ => 1 } split / /, ($ENV{ALIASED} // "");
}
(my $file = $ARGV) =~ s{^\./}{};
my $inUI = ($file =~ m{^ui/[^/]+\.go$});
my %used; # import path => the name the file calls it by
for my $r (@R) {
	my ($old, $new, $path, $bare) = @$r;
	# A new name without a package is a rename inside package ui only.
	my ($pkg, $name) = $new =~ /^(\w+)\.(\w+)$/ ? ($1, $2) : ("", $new);
	my $as = $pkg && $ALIAS{"$file:$pkg"} ? "ui$pkg" : $pkg;
	my $to = $pkg ? "$as.$name" : $name;
	my $n = 0;
	$n += s/\bui\.\Q$old\E\b/$to/g if $pkg;
	# A bare name: not a field or method (no dot before it).
	$n += s/(?<![.\w])\Q$old\E\b/$to/g if $inUI && $bare;
	$used{$path} = $as if $n && $pkg;
}
for my $path (sort keys %used) {
	next if /^\s*(\w+\s+)?"\Q$path\E"\s*$/m;
	my $spec = ($path =~ m{/\Q$used{$path}\E$}) ? "\"$path\"" : "$used{$path} \"$path\"";
	if (/^\t(\w+ )?"cardterm\/ui"\n/m) {
		# Beside the import it replaces, in the module group.
		s/^(\t(\w+ )?"cardterm\/ui"\n)/$1\t$spec\n/m;
	} elsif (/^\t(\w+ )?"cardterm\//m) {
		s/^(\t(\w+ )?"cardterm\/)/\t$spec\n$1/m;
	} elsif (/^import \(\n/m) {
		# A group of its own, last, where the module imports go.
		s/^(import \(\n(?:.*\n)*?)\)\n/$1\n\t$spec\n)\n/m;
	} else {
		s/^(package \w+\n)/$1\nimport $spec\n/m;
	}
}
'

# rewrite FILE...: the program over each file, then goimports over them.
rewrite() {
	for file in "$@"; do
		RENAMES="$table" ALIASED="${aliased[*]:-}" perl -0777 -i -pe "$program" "$file"
	done
	"$goimports" -local cardterm -w "$@"
}

backup="$(mktemp -d)"
trap 'rm -rf "$backup"' EXIT

changed=()
aliased=()
while IFS= read -r -d '' file; do
	file="${file#./}"
	mkdir -p "$backup/$(dirname "$file")"
	cp "$file" "$backup/$file"
	RENAMES="$table" perl -0777 -i -pe "$program" "$file"
	if ! cmp -s "$file" "$backup/$file"; then
		changed+=("$file")
	fi
done < <(find . -name '*.go' -not -path './.rename/*' -not -path './.git/*' -print0)

if [ ${#changed[@]} -gt 0 ]; then
	"$goimports" -local cardterm -w "${changed[@]}"
fi
echo "apply.sh: ${#changed[@]} files rewritten"
if [ ${#changed[@]} -gt 0 ]; then
	printf '  %s\n' "${changed[@]}"
fi

# Markdown and the CI script name the moved things too: the qualified
# names, the files by their new paths (ui/table_view.go is
# ui/table/view.go) and the sanitiser's fuzz targets by their package.
docs='
BEGIN {
	local $/ = "\n";
	open(my $t, "<", $ENV{RENAMES}) or die "renames: $!";
	while (<$t>) {
		next if /^\s*(#|$)/;
		my ($old, $new) = split;
		push @R, [$old, $new] if $new =~ /\./;
	}
}
for my $r (@R) {
	my ($old, $new) = @$r;
	s/\bui\.\Q$old\E\b/$new/g;
}
s{\bui/(table|form)_(\w+)\.go\b}{ui/$1/$2.go}g;
s{\bui/(table|form)\.go\b}{ui/$1/$1.go}g;
s{\bui/sanitize\.go\b}{ui/sanitize/sanitize.go}g;
s{\bui/paste\.go\b}{ui/sanitize/paste.go}g;
s{\bui/escape_invisible\.go\b}{ui/sanitize/json.go}g;
s{\bui/fuzz_test\.go\b}{ui/sanitize/*_test.go}g;
s{-benchmem \./ui/ }{-benchmem ./ui/... }g;
s{\./ui:FuzzCleanPaste\b}{./ui/sanitize:FuzzPaste}g;
s{\./ui:FuzzSanitize\b}{./ui/sanitize:FuzzText}g;
s{\./ui:FuzzEscapeInvisible\b}{./ui/sanitize:FuzzJSON}g;
'
documents=()
while IFS= read -r -d '' file; do
	file="${file#./}"
	before="$(cksum <"$file")"
	RENAMES="$table" perl -0777 -i -pe "$docs" "$file"
	[ "$(cksum <"$file")" = "$before" ] || documents+=("$file")
done < <(find . -type f \( -name '*.md' -o -path './.ci/*' -not -name '*.go' \) -not -path './.rename/*' -not -path './.git/*' -print0)
if [ ${#documents[@]} -gt 0 ]; then
	echo "apply.sh: ${#documents[@]} documents rewritten"
	printf '  %s\n' "${documents[@]}"
fi

# The new packages' names, and the files where a local variable hides one:
# the compiler says "form.FieldError is not a type" or "form.New undefined
# (type *form.Form has ...)" there. Each round redoes those files with an
# alias; a few rounds cover what one vet run does not report.
packages="$(awk '!/^#/ && $2 ~ /\./ { split($2, p, "."); print p[1] }' "$table" | sort -u | paste -sd'|')"
[ ${#changed[@]} -gt 0 ] || exit 0
for round in 1 2 3 4 5; do
	errors="$(go vet ./... 2>&1 || true)"
	mapfile -t hidden < <(printf '%s\n' "$errors" |
		perl -ne 'print "$1:$2\n" if m{^(?:vet: )?(?:\./)?([\w./-]+\.go):\d+:\d+: .*?\b('"$packages"')\.\w}' | sort -u)
	redo=()
	for pair in "${hidden[@]}"; do
		file="${pair%%:*}"
		[ -f "$backup/$file" ] || continue
		case " ${aliased[*]:-} " in *" $pair "*) continue ;; esac
		aliased+=("$pair")
		cp "$backup/$file" "$file"
		redo+=("$file")
	done
	[ ${#redo[@]} -gt 0 ] || break
	mapfile -t redo < <(printf '%s\n' "${redo[@]}" | sort -u)
	rewrite "${redo[@]}"
done

if [ ${#aliased[@]} -gt 0 ]; then
	echo "apply.sh: a local variable hides the package in these files, imported under an alias (rename the variable to drop it):"
	printf '  %s\n' "${aliased[@]}"
fi
if ! go vet ./... >/dev/null 2>&1; then
	echo "apply.sh: go vet ./... still fails; see its errors" >&2
	exit 1
fi
echo "apply.sh: go vet ./... passes"
