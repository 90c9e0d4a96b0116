#!/bin/sh
# test_man_findings.sh -- every finding kind gcnsim can emit (the names returned by
# gcn_sim_finding_name in src/sim/findings.c) is named in gcnsim's man page (docs/man/gcnsim.1)
# and in docs/gcnsim.md.  A self-check first: a page with one name removed must be reported.
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# the names: the string literals of the switch in gcn_sim_finding_name, except its default
sed -n '/^const char \*gcn_sim_finding_name/,/^}/p' "$srcdir/src/sim/findings.c" |
    sed -n 's/.*case GCN_FIND_[A-Z_]*: *return "\([^"]*\)".*/\1/p' > "$T/names"
n=$(wc -l < "$T/names")
[ "$n" -ge 5 ] || { echo "FAIL: found only $n finding names in src/sim/findings.c (parser broken?)"; exit 1; }
# names as they appear in a page (roff escapes '-' as '\-'), as whole words: not
# read-before-retire inside lds-dma-read-before-retire
missing() {   # $1 = page; prints the names it lacks
    sed 's/\\-/-/g' "$1" > "$T/page"
    while read -r name; do
        grep -Eq -- "(^|[^a-z-])$name([^a-z-]|\$)" "$T/page" || echo "$name"
    done < "$T/names"
}
fail=0
first=$(head -n 1 "$T/names")
sed 's/\\-/-/g' "$srcdir/docs/man/gcnsim.1" | grep -Ev -- "(^|[^a-z-])$first([^a-z-]|\$)" > "$T/mutant.1"
missing "$T/mutant.1" | grep -qx -- "$first" ||
    { echo "FAIL: self-check: a man page without '$first' was not reported"; fail=1; }
for page in docs/man/gcnsim.1 docs/gcnsim.md; do
    m=$(missing "$srcdir/$page")
    if [ -n "$m" ]; then
        echo "FAIL: $page does not name these finding kinds of gcnsim:" $m; fail=1
    else
        echo "ok: $page names all $n finding kinds:" $(cat "$T/names")
    fi
done
exit $fail
