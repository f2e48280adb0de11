# scripts/scale.sh — sourced by scripts/speed-games.sh and scripts/instructions.sh.
#
# `scale K` writes the spec read on stdin with its counts times the whole number K: those of
# [game] (block_size), [published], [[tiers]] and [[tiers.ways]] (an amount may carry two
# decimals: it is scaled in cents), so that the odds do not move.
scale() {
  awk -v k="$1" '
    function times(v,   i, d, c) {
      gsub(/_/, "", v)
      i = index(v, ".")
      if (i == 0) return v * k
      d = substr(v, i + 1); c = substr(v, 1, i - 1) * 100 + (length(d) == 1 ? d * 10 : d)
      c *= k
      return sprintf("%d.%02d", int(c / 100), c % 100)
    }
    /^[ \t]*\[/ { s = $0; sub(/#.*/, "", s); gsub(/[ \t]/, "", s) }
    {
      key = $0; sub(/^[ \t]*/, "", key); sub(/[ \t]*=.*/, "", key)
      ok = (s == "[game]" && key == "block_size") ||
           (s == "[published]" && (key == "lots" || key == "payout")) ||
           (s == "[[tiers]]" && (key == "count" || key == "total")) ||
           (s == "[[tiers.ways]]" && key == "count")
      if (ok && match($0, /=[ \t]*[0-9][0-9_]*(\.[0-9]+)?/)) {
        v = substr($0, RSTART, RLENGTH); sub(/^=[ \t]*/, "", v)
        $0 = substr($0, 1, RSTART - 1) "= " times(v) substr($0, RSTART + RLENGTH)
      }
      print
    }'
}
