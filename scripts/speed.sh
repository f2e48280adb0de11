#!/bin/bash
# scripts/speed.sh [SPEC] — whole-process speed of one block, with every protection on and off.
#
# Run from the project root: scripts/speed.sh (default game_specs/coq.toml). It builds the
# release binary (or takes BIN=path), makes keys and age recipients in a temporary
# directory, then runs PAIRS (default 3) alternated rounds on THREADS (default 2) threads,
# the same seed each time, and prints the median of each figure:
#
#   generate in clear            against `openssl dgst -sha256` over the block's files
#   generate signed              (--sign)
#   generate signed + encrypted  (--sign, three --recipient) against a script doing one after
#                                another `age -e` of each file to its recipient, then
#                                `openssl dgst -sha256` over the files and the .age files
#   verify, no audit             (--unauthenticated --no-audit) against openssl
#   verify with the audit        (--unauthenticated)
#   verify with the replay       (--seed-file, --validation-key, --no-audit) against the sum of
#                                generate's median and verify's
#   generate on one thread       (--threads 1): tickets per second
#
# Each with its CPU time (user + system): on a machine others share, the wall times swell
# with the wait for a core and for the disk, the CPU times much less.
# then the cost of signing, encryption and the audit on the block (the difference of two
# medians) and the peak RSS of every tirage run, and of each kind of run. EMISSION=n adds
# one generate and one verify of an emission of n blocks (n times the block's disk space),
# whose peak RSS should be a block's: memory flat over an emission. Needs openssl, age and age-keygen, GNU time.
# The cost of validation codes, claims and durable writes comes from `make bench` (their
# stages; docs/SPEED.md).
set -uo pipefail
spec=$(realpath "${1:-game_specs/coq.toml}")
pairs=${PAIRS:-3}
threads=${THREADS:-2}
for c in openssl age age-keygen /usr/bin/time; do
  command -v $c >/dev/null || { echo "speed: needs $c" >&2; exit 2; }
done
if [ -z "${BIN:-}" ]; then
  cargo build --release --locked -q || { echo "speed: release build fails" >&2; exit 2; }
  BIN=$PWD/target/release/tirage
fi
t=$(mktemp -d -t tirage-speed.XXXX); trap 'rm -rf "$t"' EXIT
$BIN seed new --out "$t/seed" >/dev/null 2>&1 && $BIN seed new --out "$t/vk" >/dev/null 2>&1 &&
  $BIN keygen --out "$t/op" --no-password >/dev/null 2>&1 || { echo "speed: keys" >&2; exit 2; }
for r in printer central auditor; do age-keygen -o "$t/$r.id" 2>/dev/null; done
P=$(age-keygen -y "$t/printer.id"); C=$(age-keygen -y "$t/central.id"); A=$(age-keygen -y "$t/auditor.id")
gen=($BIN generate "$spec" --seed-file "$t/seed" --validation-key "$t/vk" --force -q)
# Seconds, peak KiB and CPU seconds (user + system) of a command, "FAILED" if it fails.
run() { /usr/bin/time -f "%e %M %U %S" -o "$t/tm" "$@" >/dev/null 2>"$t/err" || { echo FAILED; return; }; awk '{print $1, $2, $3 + $4}' "$t/tm"; }
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
"${gen[@]}" --out "$t/blk" --threads "$threads" >/dev/null 2>&1 || { echo "speed: generate fails" >&2; exit 2; }
tickets=$(sed -n 's/^ *"tickets": *\([0-9]*\).*/\1/p' "$t/blk/manifest.json" | head -1)
files="$t/blk/tickets.csv $t/blk/tickets.bin $t/blk/validation.csv"
cat > "$t/ref.sh" <<REF
#!/bin/sh
age -e -r $P -o "$t/r1.age" "$t/blk/tickets.bin" && age -e -r $C -o "$t/r2.age" "$t/blk/validation.csv" &&
age -e -r $A -o "$t/r3.age" "$t/blk/tickets.csv" && openssl dgst -sha256 $files "$t/r1.age" "$t/r2.age" "$t/r3.age"
REF
chmod +x "$t/ref.sh"
declare -A s cpus peaks
peak=0
add() { # name, then the command
  local n=$1; shift
  set -- $(run "$@")
  [ "$1" = FAILED ] && { echo "speed: $n failed: $(tail -1 "$t/err")" >&2; exit 1; }
  s[$n]="${s[$n]:-} $1"
  cpus[$n]="${cpus[$n]:-} $3"
  [ "${2:-0}" -gt "$peak" ] && peak=$2
  [ "${2:-0}" -gt "${peaks[$n]:-0}" ] && peaks[$n]=$2
  return 0
}
for i in $(seq "$pairs"); do
  add gen "${gen[@]}" --out "$t/g" --threads "$threads"
  add ref openssl dgst -sha256 $files
  add sign "${gen[@]}" --out "$t/g" --threads "$threads" --sign "$t/op.key"
  add seal "${gen[@]}" --out "$t/g" --threads "$threads" --sign "$t/op.key" \
    --recipient printer=$P --recipient central=$C --recipient auditor=$A
  add sealref "$t/ref.sh"
  add verify $BIN verify "$t/blk" --unauthenticated --no-audit --threads "$threads" -q
  add vref openssl dgst -sha256 $files
  add audit $BIN verify "$t/blk" --unauthenticated --threads "$threads" -q
  add replay $BIN verify "$t/blk" --unauthenticated --no-audit --seed-file "$t/seed" \
    --validation-key "$t/vk" --threads "$threads" -q
  add one "${gen[@]}" --out "$t/g" --threads 1
done
m() { med ${s[$1]}; }
cpu() { med ${cpus[$1]}; }
ratio() { awk -v a="$(m $1)" -v b="$(m $2)" 'BEGIN{printf "%.2f", a/b}'; }
cost() { awk -v a="$(m $1)" -v b="$(m $2)" -v ca="$(cpu $1)" -v cb="$(cpu $2)" 'BEGIN{printf "%+.2f s wall (%+.0f %%), %+.2f s CPU (%+.0f %%)", a-b, 100*(a-b)/b, ca-cb, 100*(ca-cb)/cb}'; }
echo "$(basename "$spec") — $tickets tickets, $(du -cb $files | tail -1 | cut -f1) bytes of ticket files; $threads threads, median of $pairs alternated rounds"
echo
echo "| run | tirage: wall (CPU) | reference: wall (CPU) | ratio of wall times |"
echo "|---|---|---|---|"
echo "| generate, in clear | $(m gen) s ($(cpu gen) s) | openssl dgst -sha256: $(m ref) s ($(cpu ref) s) | $(ratio gen ref) |"
echo "| generate, signed | $(m sign) s ($(cpu sign) s) | | |"
echo "| generate, signed + encrypted to 3 recipients | $(m seal) s ($(cpu seal) s) | age -e + openssl: $(m sealref) s ($(cpu sealref) s) | $(ratio seal sealref) |"
echo "| verify, no replay, no audit | $(m verify) s ($(cpu verify) s) | openssl dgst -sha256: $(m vref) s ($(cpu vref) s) | $(ratio verify vref) |"
echo "| verify, no replay, with the audit | $(m audit) s ($(cpu audit) s) | | |"
both=$(awk -v a="$(m gen)" -v b="$(m verify)" 'BEGIN{printf "%.2f", a+b}')
echo "| verify with the replay, no audit | $(m replay) s ($(cpu replay) s) | generate + verify: $both s | $(awk -v a="$(m replay)" -v b="$both" 'BEGIN{printf "%.2f", a/b}') |"
echo "| generate, one thread | $(m one) s ($(cpu one) s): $(awk -v n="$tickets" -v a="$(m one)" 'BEGIN{printf "%.0f k tickets/s", n/a/1000}') | | |"
echo
echo "| protection | cost on this block |"
echo "|---|---|"
echo "| signature (--sign) | $(cost sign gen) |"
echo "| encryption to 3 recipients (--recipient) | $(cost seal sign) |"
echo "| audit (verify without --no-audit) | $(cost audit verify) |"
if [ -n "${EMISSION:-}" ]; then
  rm -rf "$t/g"
  add emgen "${gen[@]}" --out "$t/em" --blocks "1..$EMISSION" --threads "$threads"
  add emverify $BIN verify "$t/em" --unauthenticated --no-audit --threads "$threads" -q
  rm -rf "$t/em"
fi
echo
echo "peak RSS of any tirage run: $((peak / 1024)) MiB"
echo
echo "| run | peak RSS |"
echo "|---|---:|"
for n in gen sign seal one verify audit replay emgen emverify; do
  [ -n "${peaks[$n]:-}" ] || continue
  case $n in
    gen) w="generate, in clear" ;; sign) w="generate, signed" ;;
    seal) w="generate, signed + encrypted" ;; one) w="generate, one thread" ;;
    verify) w="verify, no replay, no audit" ;; audit) w="verify with the audit" ;;
    replay) w="verify with the replay" ;;
    emgen) w="generate of an emission of $EMISSION blocks" ;;
    emverify) w="verify of that emission" ;;
  esac
  echo "| $w | $((peaks[$n] / 1024)) MiB |"
done
