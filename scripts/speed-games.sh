#!/bin/bash
# scripts/speed-games.sh [SPEC…] — every game at 500 000 tickets or more, against openssl.
#
# Run from the project root: scripts/speed-games.sh (default: every spec of game_specs/ and
# game_specs/examples/). It builds the release binary (or takes BIN=path), then for each spec
# writes a copy scaled to at least 500 000 tickets (MIN=n to ask another size): `block_size`,
# every tier's and way's `count`, every tier's `total` and the `[published]` `lots` and
# `payout` times the same whole factor, so the odds do not move. Then PAIRS (default 1)
# alternated rounds on THREADS (default 2) threads, the same seed each time:
#
#   generate in clear                 (--validation-key, no --sign, no --recipient)
#   openssl dgst -sha256              over the block's three ticket files, read once before
#                                     (generate writes them past the page cache), so that
#                                     openssl and verify read them from memory
#   verify, no replay, no audit       (--unauthenticated --no-audit)
#
# and one line per game with the medians: tickets, generate wall (CPU) seconds, openssl wall
# (CPU), the ratio of the wall times, verify wall (CPU), its ratio, and the peak RSS of
# generate and verify. CPU is user + system: on a machine others share, the wall times swell
# with the wait for a core and for the disk, the CPU times much less. A spec the scale makes
# invalid (`tirage check` refuses the copy) or whose block fails is named with the reason.
# Each block is deleted once its game is measured: only one exists at a time. Needs openssl
# and GNU time.
#
# BASE=path compares two builds: each round runs BASE's generate and BIN's, then openssl
# over BIN's files, then BASE's verify of its block and BIN's of its own, so that both
# builds meet the same state of the machine; each line then gives the medians of both,
# BASE → BIN, with their ratios to the one openssl median, and BIN's peak RSS. Two blocks
# exist at a time.
set -uo pipefail
pairs=${PAIRS:-1}
base=${BASE:-}
threads=${THREADS:-2}
min=${MIN:-500000}
for c in openssl awk /usr/bin/time; do
  command -v $c >/dev/null || { echo "speed-games: needs $c" >&2; exit 2; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked -q || { echo "speed-games: release build fails" >&2; exit 2; }
  BIN=$PWD/target/release/tirage
fi
if [ $# -gt 0 ]; then specs=("$@"); else specs=(game_specs/*.toml game_specs/examples/*.toml); fi
t=$(mktemp -d -t tirage-speed-games.XXXX); trap 'rm -rf "$t"' EXIT
$BIN seed new --out "$t/seed" >/dev/null 2>&1 && $BIN seed new --out "$t/vk" >/dev/null 2>&1 ||
  { echo "speed-games: keys" >&2; exit 2; }

source "$(dirname "$0")/scale.sh"
run() { /usr/bin/time -f "%e %M %U %S" -o "$t/tm" "$@" >/dev/null 2>"$t/err" || { echo FAILED; return; }; awk '{print $1, $2, $3 + $4}' "$t/tm"; }
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a/b}'; }

echo "$threads threads, median of $pairs alternated rounds, each game scaled to at least $min tickets"
echo
if [ -n "$base" ]; then
  echo "BASE $base → BIN $BIN"
  echo
  echo "| game | tickets | openssl: wall (CPU) | generate: wall (CPU), BASE → BIN | ratio | verify: wall (CPU), BASE → BIN | ratio | peak RSS |"
  echo "|---|---:|---|---|---:|---|---:|---:|"
else
  echo "| game | tickets | generate: wall (CPU) | openssl: wall (CPU) | ratio | verify: wall (CPU) | ratio | peak RSS |"
  echo "|---|---:|---|---|---:|---|---:|---:|"
fi
skipped=()
for spec in "${specs[@]}"; do
  name=$(basename "$spec" .toml)
  size=$(awk '/^[ \t]*\[/ { s = $1 } s == "[game]" && $1 == "block_size" { v = $3; gsub(/_/, "", v); print v; exit }' "$spec")
  [ -n "$size" ] || { skipped+=("$name: no block_size"); continue; }
  k=$(( (min + size - 1) / size ))
  scaled="$t/$name.toml"
  scale "$k" < "$spec" > "$scaled"
  if ! $BIN check "$scaled" >/dev/null 2>"$t/err"; then
    skipped+=("$name (× $k): check refuses the scaled copy: $(grep -m1 . "$t/err")"); continue
  fi
  g=() gc=() o=() oc=() v=() vc=() peak=0 failed=
  bg=() bgc=() bv=() bvc=()
  for i in $(seq "$pairs"); do
    if [ -n "$base" ]; then
      r=($(run $base generate "$scaled" --insecure-seed --seed-file "$t/seed" --validation-key \
        "$t/vk" --out "$t/blkb" --threads "$threads" --force -q))
      [ "${r[0]}" = FAILED ] && { failed="BASE's generate: $(tail -1 "$t/err")"; break; }
      bg+=("${r[0]}"); bgc+=("${r[2]}")
    fi
    r=($(run $BIN generate "$scaled" --insecure-seed --seed-file "$t/seed" --validation-key "$t/vk" \
      --out "$t/blk" --threads "$threads" --force -q))
    [ "${r[0]}" = FAILED ] && { failed="generate: $(tail -1 "$t/err")"; break; }
    g+=("${r[0]}"); gc+=("${r[2]}"); [ "${r[1]}" -gt "$peak" ] && peak=${r[1]}
    # generate writes its ticket files past the page cache (O_DIRECT): read them once, so
    # that openssl and verify both read them from memory, as speed.sh's reference does.
    cat "$t/blk/tickets.csv" "$t/blk/tickets.bin" "$t/blk/validation.csv" >/dev/null
    [ -z "$base" ] || cat "$t/blkb/tickets.csv" "$t/blkb/tickets.bin" "$t/blkb/validation.csv" >/dev/null
    r=($(run openssl dgst -sha256 "$t/blk/tickets.csv" "$t/blk/tickets.bin" "$t/blk/validation.csv"))
    o+=("${r[0]}"); oc+=("${r[2]}")
    if [ -n "$base" ]; then
      r=($(run $base verify "$t/blkb" --unauthenticated --no-audit --threads "$threads" -q))
      [ "${r[0]}" = FAILED ] && { failed="BASE's verify: $(tail -1 "$t/err")"; break; }
      bv+=("${r[0]}"); bvc+=("${r[2]}")
    fi
    r=($(run $BIN verify "$t/blk" --unauthenticated --no-audit --threads "$threads" -q))
    [ "${r[0]}" = FAILED ] && { failed="verify: $(tail -1 "$t/err")"; break; }
    v+=("${r[0]}"); vc+=("${r[2]}"); [ "${r[1]}" -gt "$peak" ] && peak=${r[1]}
  done
  tickets=$(sed -n 's/^ *"tickets": *\([0-9]*\).*/\1/p' "$t/blk/manifest.json" 2>/dev/null | head -1)
  rm -rf "$t/blk" "$t/blkb"
  [ -n "$failed" ] && { skipped+=("$name (× $k): $failed"); continue; }
  G=$(med "${g[@]}"); O=$(med "${o[@]}"); V=$(med "${v[@]}")
  if [ -n "$base" ]; then
    BG=$(med "${bg[@]}"); BV=$(med "${bv[@]}")
    echo "| $name | $tickets | $O s ($(med "${oc[@]}") s) | $BG s ($(med "${bgc[@]}") s) → $G s ($(med "${gc[@]}") s) | $(ratio "$BG" "$O") → $(ratio "$G" "$O") | $BV s ($(med "${bvc[@]}") s) → $V s ($(med "${vc[@]}") s) | $(ratio "$BV" "$O") → $(ratio "$V" "$O") | $((peak / 1024)) MiB |"
    continue
  fi
  echo "| $name | $tickets | $G s ($(med "${gc[@]}") s) | $O s ($(med "${oc[@]}") s) | $(ratio "$G" "$O") | $V s ($(med "${vc[@]}") s) | $(ratio "$V" "$O") | $((peak / 1024)) MiB |"
done
for s in "${skipped[@]}"; do echo "not measured: $s"; done
