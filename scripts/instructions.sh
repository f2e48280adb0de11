#!/bin/bash
# scripts/instructions.sh [SPEC] — the instructions generate and verify execute per ticket,
# function by function, counted by valgrind's cachegrind. The counts are the same on every
# run, so a change of 1 % shows; wall and CPU times on a shared machine vary by ±10 %.
#
# Run from the project root. SPEC (default tests/specs/coq_small.toml) is scaled as
# scripts/speed-games.sh scales it, to at least MIN tickets (default 300 000). Generate runs
# in clear on one thread, then verify without replay or audit (--unauthenticated --no-audit)
# on one thread, each under `valgrind --tool=cachegrind --cache-sim=no`. For each, one line
# per function above 0.3 % of the run (TOP=n lines at most, 25 by default) gives its
# instructions per ticket, and a last line the whole run's. BIN=path counts another build
# (default: the release build, built first); BASE=path counts a second build too, with the
# change per function.
#
# Valgrind's virtual CPU has no SHA, AVX-512 or VAES instructions: under it sha2 and aes run
# their portable code, so their lines count that code, not what runs natively, and sha2's
# compression outweighs the rest. A second total leaves sha2 out. Compare two builds by
# the lines of the functions a change touches and by that total. Needs valgrind.
set -uo pipefail
min=${MIN:-300000}
top=${TOP:-25}
base=${BASE:-}
spec=${1:-tests/specs/coq_small.toml}
for c in valgrind cg_annotate awk; do
  command -v $c >/dev/null || { echo "instructions: needs $c (valgrind)" >&2; exit 2; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked -q || { echo "instructions: release build fails" >&2; exit 2; }
  BIN=$PWD/target/release/tirage
fi
source "$(dirname "$0")/scale.sh"
t=$(mktemp -d -t tirage-instructions.XXXX); trap 'rm -rf "$t"' EXIT
$BIN seed new --out "$t/seed" >/dev/null 2>&1 && $BIN seed new --out "$t/vk" >/dev/null 2>&1 ||
  { echo "instructions: keys" >&2; exit 2; }
size=$(awk '/^[ \t]*\[/ { s = $1 } s == "[game]" && $1 == "block_size" { v = $3; gsub(/_/, "", v); print v; exit }' "$spec")
[ -n "$size" ] || { echo "instructions: $spec: no block_size" >&2; exit 2; }
k=$(( (min + size - 1) / size ))
tickets=$(( size * k ))
scale "$k" < "$spec" > "$t/spec.toml"
$BIN check "$t/spec.toml" >/dev/null 2>"$t/err" ||
  { echo "instructions: check refuses $spec scaled × $k: $(grep -m1 . "$t/err")" >&2; exit 2; }

# count NAME BIN ARGS…: runs BIN ARGS… under cachegrind into $t/NAME.out; stops on failure.
count() {
  local name=$1; shift
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$t/$name.out" "$@" \
    >/dev/null 2>"$t/err" || { echo "instructions: $name fails: $(tail -1 "$t/err")" >&2; exit 1; }
}
# table NAME: "instructions function" per line, summed over each function's source files.
table() {
  cg_annotate --auto=no --threshold=0 "$t/$1.out" 2>/dev/null |
    awk '/^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
      n = $1; gsub(/,/, "", n); f = $0; sub(/^[^)]*\) */, "", f); sub(/^[^:]*:/, "", f)
      sum[f] += n
    } END { for (f in sum) print sum[f], f }'
}
# block BIN LABEL: generate then verify that build's block, counted.
block() {
  count "$2-generate" "$1" generate "$t/spec.toml" --insecure-seed --seed-file "$t/seed" \
    --validation-key "$t/vk" --out "$t/$2-block" --threads 1 -q
  count "$2-verify" "$1" verify "$t/$2-block" --spec "$t/spec.toml" --unauthenticated --no-audit \
    --threads 1 -q
  rm -rf "$t/$2-block"
}
block "$BIN" bin
[ -n "$base" ] && block "$base" base

echo "Instructions per ticket, cachegrind, one thread: $(basename "$spec") scaled to $tickets tickets"
for stage in generate verify; do
  table "bin-$stage" > "$t/bin.tab"
  if [ -n "$base" ]; then table "base-$stage" > "$t/base.tab"; else : > "$t/base.tab"; fi
  echo
  if [ -n "$base" ]; then
    echo "| $stage: function | BASE | BIN | change |"
    echo "|---|---:|---:|---:|"
  else
    echo "| $stage: function | instructions per ticket |"
    echo "|---|---:|"
  fi
  awk -v n="$tickets" -v top="$top" -v both="$base" '
    FNR == 1 { file++ }
    { c = $1; $1 = ""; f = substr($0, 2); v[file, f] = c; seen[f] = 1; tot[file] += c
      if (f ~ /^sha2::/) sha[file] += c }
    END {
      for (f in seen) { m = v[1, f] > v[2, f] ? v[1, f] : v[2, f]; key[f] = m }
      k = 0
      for (f in seen) if (key[f] >= 0.003 * tot[1]) order[++k] = f
      # By count, descending (insertion sort: a few dozen lines).
      for (i = 2; i <= k; i++) { x = order[i]; j = i - 1
        while (j > 0 && key[order[j]] < key[x]) { order[j + 1] = order[j]; j-- }
        order[j + 1] = x }
      if (k > top) k = top
      for (i = 1; i <= k; i++) { f = order[i]; name = length(f) > 90 ? substr(f, 1, 87) "..." : f
        row(name, v[2, f], v[1, f]) }
      row("**the whole run**", tot[2], tot[1])
      row("**the whole run but sha2**", tot[2] - sha[2], tot[1] - sha[1])
    }
    function row(name, b, a) {
      if (both == "") printf "| %s | %.0f |\n", name, a / n
      else printf "| %s | %.0f | %.0f | %s |\n", name, b / n, a / n, (b > 0 ? sprintf("%+.1f %%", 100 * (a - b) / b) : "new")
    }' "$t/bin.tab" "$t/base.tab"
done
