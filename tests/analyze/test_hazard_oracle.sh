#!/bin/sh
# test_hazard_oracle.sh -- the hazard engine against LLVM 22's hazard
# recognizer on the small cases of tests/analyze/inputs/hz_cases.txt, for
# gfx942 and gfx950: llc-22 runs the post-RA hazard recognizer on each case
# (-start-before, GOOD) or skips it (-start-after, BAD); test_hazard_cmp checks that
# the engine finds no hazard in GOOD and exactly the wait states LLVM inserted
# (and one short: exactly 1) in BAD.  Every rule of hazards.def that applies
# to a target must be the deciding rule of at least one case, and the rule
# table of docs/hazards.md must be the one tools/hazards_doc.py generates.
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
    if ! "$top_builddir/tests/analyze/test_hazard_cmp" --cover "$T/good.o" "$T/bad.o" > "$T/out"; then
        fail=1
    fi
    grep -v '^cover ' "$T/out"
    # coverage
    while read -r _ name n tg; do
        case " $uncoverable " in *" $name:0 "*) continue;; esac
        bit=1; [ $cpu = gfx950 ] && bit=2
        [ $((tg & bit)) -eq 0 ] && continue
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
