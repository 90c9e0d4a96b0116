#!/bin/sh
# test_hazard_oracle.sh -- the hazard engine against LLVM 22's hazard
# recognizer on the small cases of tests/analyze/inputs/hz_cases.txt, for
# gfx942 and gfx950: llc-22 runs the post-RA hazard recognizer on each case
# (-start-before, GOOD) or skips it (-start-after, BAD); test_hazard_cmp --llvm
# (the llvm-conservative rows enabled: LLVM's rules) checks that the engine
# finds no hazard in GOOD and exactly the wait states LLVM inserted (and one
# short: exactly 1) in BAD, and that with the default flags the sites an
# llvm-conservative row decides are not reported as LLVM has them (the
# expected number of such "relaxed" sites is checked below) while the others
# are, exactly.  Every LLVM rule of hazards.def that applies to a target must
# be the deciding rule of at least one case (the rows LLVM does not have are
# tested by test_hazard_unit), and the rule table of docs/hazards.md must be
# the one tools/hazards_doc.py generates.
set -e
: "${top_srcdir:=.}" "${top_builddir:=.}" "${LLC22:=llc-22}" "${PYTHON3:=python3}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# rules no case can exercise, with the reason
uncoverable="SMFMA_XDL_SRCC:0 DGEMM16_XDL_SRCC:0 DGEMM4_XDL_SRCC:0 MFMA_SAME_SRCC:0 DOT_SAME_SRCC:0 DOT_SAME_WAW:0"
for cpu in gfx942 gfx950; do
    "$PYTHON3" "$top_srcdir/tests/analyze/hz_mir.py" --mcpu $cpu \
        "$top_srcdir/tests/analyze/inputs/hz_cases.txt" > "$T/c.mir"
    "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -start-before=post-RA-hazard-rec \
        -filetype=obj "$T/c.mir" -o "$T/good.o"
    "$LLC22" -mtriple=amdgcn-amd-amdhsa -mcpu=$cpu -start-after=post-RA-hazard-rec \
        -filetype=obj "$T/c.mir" -o "$T/bad.o"
    if ! "$top_builddir/tests/analyze/test_hazard_cmp" --llvm --cover "$T/good.o" "$T/bad.o" > "$T/out"; then
        fail=1
    fi
    grep -v '^cover \|^relaxed \|^stricter ' "$T/out"
    # the cases an llvm-conservative row decides: exactly those marked
    # "# relaxed: RULE" in hz_cases.txt (for this target), by that row
    grep '^case .*# relaxed: ' "$top_srcdir/tests/analyze/inputs/hz_cases.txt" |
        awk -v cpu=$cpu '{ t = ($3 == "gfx942" || $3 == "gfx950") ? $3 : cpu
                           r = $0; sub(/.*# relaxed: /, "", r); sub(/[^A-Z0-9_].*/, "", r)
                           if (t == cpu) print $2, r }' | sort > "$T/want"
    grep '^relaxed ' "$T/out" | awk '{ print $2, $3 }' | sort > "$T/got"
    if ! cmp -s "$T/want" "$T/got"; then
        echo "$cpu: sites relaxed by the default flags differ from the cases marked # relaxed:"
        diff "$T/want" "$T/got" | sed -n 's/^[<>]/ &/p'
        fail=1
    fi
    # rows LLVM lacks that ask for more than LLVM inserted: the cases marked
    # "# stricter: RULE"
    sed -n 's/^case \([a-z0-9_]*\).*# stricter: \([A-Z0-9_]*\).*/\1 \2/p' \
        "$top_srcdir/tests/analyze/inputs/hz_cases.txt" | sort > "$T/want"
    grep '^stricter ' "$T/out" | awk '{ print $2, $3 }' | sort -u > "$T/got"
    if ! cmp -s "$T/want" "$T/got"; then
        echo "$cpu: findings of rows LLVM lacks differ from the cases marked # stricter:"
        diff "$T/want" "$T/got" | sed -n 's/^[<>]/ &/p'
        fail=1
    fi
    # coverage
    while read -r _ name n tg src; do
        case " $uncoverable " in *" $name:0 "*) continue;; esac
        bit=1; [ $cpu = gfx950 ] && bit=2
        [ $((tg & bit)) -eq 0 ] && continue
        [ $((src & 4)) -eq 0 ] && continue    # not an LLVM rule: test_hazard_unit
        if [ "$n" = 0 ]; then
            echo "$cpu: rule $name is exercised by no case"
            fail=1
        fi
    done <<EOT
$(grep '^cover ' "$T/out")
EOT
done
# docs/hazards.md's rule table is generated from hazards.def
if ! "$PYTHON3" "$top_srcdir/tools/hazards_doc.py" --def "$top_srcdir/src/analyze/hazards.def" \
        --check "$top_srcdir/docs/hazards.md"; then
    fail=1
fi
exit $fail
