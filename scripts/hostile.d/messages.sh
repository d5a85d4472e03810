# Messages a user can act on: a misspelt flag names the flag meant.
expect_error_msg "labelprop --edge: did you mean --edges" 'did you mean --edges\?' "$gssl" labelprop --edge "$tmp/none.csv"
expect_error_msg "stkr --seeed: did you mean --seed" "did you mean --seed" "$gssl" stkr --seeed 3
expect_error_msg "info --jsno: did you mean --json" 'did you mean --json\?' "$gssl" info --jsno
