# Hostile --split values for gssl labelprop: one parser (eval.ParseSplitSpec)
# for every command, so per-class:T,V is read as a split, never as a file
# name, and a bad T or V is named.

expect_error_msg "labelprop: --split per-class:0,3 (no training node per class)" 'per-class:T,V with T ≥ 1' \
	"$gssl" labelprop --split per-class:0,3
expect_error_msg "labelprop: --split per-class:5000,0 (more than a class has)" 'class [0-9]+ has [0-9]+ labelled nodes, fewer than train\+val' \
	"$gssl" labelprop --split per-class:5000,0 --alpha 0.9
expect_ok "labelprop --json: --split per-class:20,30 --seeds 2 runs two seeded splits" \
	'[ "$(json_field seeds)" = 2 ] && [ "$(json_field train)" = 140 ]' "$gssl" labelprop --split per-class:20,30 --seeds 2 --json
