#!/usr/bin/env bash
# apply.sh rewrites uses of the names that moved out of package ui (the
# text sanitiser, the form, the table) to their new packages, in every Go
# file under the current directory: run it at the root of a cardterm tree.
# `ui.Sanitize(x)` becomes `sanitize.Text(x)`, and so on for each line of
# renames.txt; inside package ui itself (files directly in ui/) the bare
# names marked "yes" are rewritten too. The new package is added to the
# imports of each changed file, then goimports drops "cardterm/ui" where it
# is no longer used and sorts the block. Running it twice changes nothing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
table="$here/renames.txt"
goimports="${GOIMPORTS:-$(command -v goimports || echo /root/go/bin/goimports)}"

[ -f go.mod ] && grep -q '^module cardterm$' go.mod || {
	echo "apply.sh: run me at the root of the cardterm module" >&2
	exit 2
}

# One perl program for all files: qualified renames everywhere, bare ones
# only in package ui's own directory, then the imports the file now needs.
program='
BEGIN {
	local $/ = "\n";
	open(my $t, "<", $ENV{RENAMES}) or die "renames: $!";
	while (<$t>) {
		next if /^\s*(#|$)/;
		my ($old, $new, $path, $bare) = split;
		push @R, [$old, $new, $path, $bare eq "yes"];
	}
}
my $inUI = ($ARGV =~ m{^(\./)?ui/[^/]+\.go$});
my $src = $_;
for my $r (@R) {
	my ($old, $new, $path, $bare) = @$r;
	# A new name without a package is a rename inside package ui only.
	s/\bui\.\Q$old\E\b/$new/g if $new =~ /\./;
	# A bare name, not a field or method (no dot before it) and not a
	# declaration of a local thing of the same name.
	s/(?<![.\w])\Q$old\E\b/$new/g if $inUI && $bare;
}
if ($_ ne $src) {
	my %need;
	for my $r (@R) {
		my ($old, $new, $path) = @$r;
		next unless $new =~ /\./;
		my ($pkg) = split /\./, $new;
		$need{$path} = 1 if /\b\Q$pkg\E\./;
	}
	for my $path (sort keys %need) {
		next if /^\s*(\w+\s+)?"\Q$path\E"\s*$/m;
		if (/^\t(\w+ )?"cardterm\/ui"\n/m) {
			# Beside the import it replaces, in the module group.
			s/^(\t(\w+ )?"cardterm\/ui"\n)/$1\t"$path"\n/m;
		} elsif (/^\t"cardterm\//m) {
			s/^(\t"cardterm\/)/\t"$path"\n$1/m;
		} elsif (/^import \(\n/m) {
			# A group of its own, last, where the module imports go.
			s/^(import \(\n(?:.*\n)*?)\)\n/$1\n\t"$path"\n)\n/m;
		} else {
			s/^(package \w+\n)/$1\nimport "$path"\n/m;
		}
	}
}
'

changed=()
while IFS= read -r -d '' file; do
	before="$(cksum <"$file")"
	RENAMES="$table" perl -0777 -i -pe "$program" "$file"
	if [ "$(cksum <"$file")" != "$before" ]; then
		changed+=("$file")
	fi
done < <(find . -name '*.go' -not -path './.rename/*' -not -path './.git/*' -print0)

if [ ${#changed[@]} -gt 0 ]; then
	"$goimports" -local cardterm -w "${changed[@]}"
fi
echo "apply.sh: ${#changed[@]} files rewritten"
printf '  %s\n' "${changed[@]}"
