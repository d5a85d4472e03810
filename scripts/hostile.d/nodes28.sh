# One flag, one meaning across the node commands (issue #29): stkr's
# --seed takes every uint64 like every other --seed; classify's model
# type is --classifier (--model names a saved model file in predict and
# serve), the old spelling a hidden alias with a notice.

expect_ok "stkr --json: --seed 18446744073709551615 (the largest uint64) seeds the split" \
	'json_has "\"seeds\":[18446744073709551615]"' \
	"$gssl" stkr --split random:20 --eta 0.9 --ridge 1 --seed 18446744073709551615 --json
expect_ok "classify --json: --classifier sgc chooses the model type" \
	'json_has "\"model_flag\":\"sgc\""' "$gssl" classify --classifier sgc --split random:5 --json
expect_ok "classify --json: the deprecated --model sgc still works and says so on stderr" \
	'json_has "\"model_flag\":\"sgc\"" && grep -q "use --classifier" "$err"' "$gssl" classify --model sgc --split random:5 --json
