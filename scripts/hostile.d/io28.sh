# Messages a user can act on (issue #29, item 7): an error names the user's
# file, line, flag and value, never the chain of package names it passed
# through ("classify: eval: seed 0: eval: choose: eval: …"). And the
# reader's column report (item 2): every command that reads the user's
# tables says on stderr, and in its --json object as "inputs", which
# columns it used and how it decided the header.

io28_pkgs='atomicfile|choose|confidence|diffusion|eval|estimator|generate|gp|graph|graphfile|graphkernels|imgp|knngraph|krr|krylov|labelprop|laplacian|loaders|modelfile|nodeclass|nodeids|pipeline|protocol|savedmodel|serve|spectral|stkr|svm'

# no_chain NAME COMMAND REGEX CMD...: must fail with a message matching
# REGEX in which no package name follows the command's name ("gssl:
# COMMAND: …: loaders: …"); COMMAND "" for a message without one.
no_chain() {
	local name=$1 cmdname=$2 re=$3
	shift 3
	expect_error_msg "$name" "$re" "$@"
	if [ "${last_ok:-1}" = 0 ] && grep -qE "^gssl: ${cmdname:+$cmdname: }(.*: )?($io28_pkgs): " "$err"; then
		passed=$((passed - 1))
		report "$name: no chain of package names" 1 "$(grep '^gssl:' "$err" | tail -1)"
	fi
}

io28_e=$(file io28/e.csv 'a,b\nb,c\nc,d\nd,a\n')
io28_l=$(file io28/l.csv 'id,label\na,x\nb,y\nc,x\n')
io28_f=$(file io28/f.csv 'id,f1,f2\na,0.1,0.5\nb,0.7,0.2\nc,0.3,0.9\nd,0.8,0.6\n')
io28_bad=$(file io28/bad.csv 'a,b\nb,c,x,y\n')

no_chain "messages: classify's cross-validation error names no package" classify 'classify: seed 0: cross-validation needs a class with at least 2' \
	"$gssl" classify --edges "$io28_e" --labels "$io28_l" --features "$io28_f" --model sgc --split random:1 --seeds 2
no_chain "messages: a missing edge file is named by --edges" info '--edges .*none\.csv: no such file' \
	"$gssl" info "$tmp/io28/none.csv"
no_chain "messages: a missing labels file is named by --labels" labelprop '--labels .*none\.csv: no such file' \
	"$gssl" labelprop --edges "$io28_e" --labels "$tmp/io28/none.csv"
no_chain "messages: a bad line of --edges names the flag, file and line" stkr '--edges .*bad\.csv:2: want 2 fields' \
	"$gssl" stkr --edges "$io28_bad"
no_chain "messages: a text cell of knn --features names the flag, file and line" knn '--features .*e\.csv:2: column 1' \
	"$gssl" knn --features "$io28_e"
no_chain "messages: stkr --eta 2 names the value without repeating the package" stkr 'eta "2" is invalid' \
	"$gssl" stkr --edges "$io28_e" --labels "$io28_l" --eta 2
no_chain "messages: convert of a bad edge file names the file and line" '' 'bad\.csv:2: want 2 fields' \
	"$gssl" convert "$io28_bad" "$tmp/io28/out.gsg"
# A label-spreading model to predict with (setup, not a case).
"$gssl" labelprop --edges "$io28_e" --labels "$io28_l" --save "$tmp/io28/m.gssl" >/dev/null 2>&1
no_chain "messages: predict's bad --edges line names the flag and line" predict '--edges.*bad\.csv:2' \
	"$gssl" predict --model "$tmp/io28/m.gssl" --edges "$io28_bad"

# The reader's report in --json, for every command that reads tables.
io28_inputs='json_has "\"inputs\":[{\"path\":" && json_has "\"role\":\"edges\"" && grep -q "^gssl: read edges" "$err"'
expect_ok "inputs: labelprop --json says how --edges and --labels were read" "$io28_inputs && json_has '\"role\":\"labels\"'" \
	"$gssl" labelprop --json --edges "$io28_e" --labels "$io28_l"
expect_ok "inputs: stkr --json says how --edges was read" "$io28_inputs" \
	"$gssl" stkr --json --edges "$io28_e" --labels "$io28_l"
expect_ok "inputs: eigs --json says how --edges was read" "$io28_inputs" \
	"$gssl" eigs --json --edges "$io28_e" --eigenpairs 2
expect_ok "inputs: cluster --json says how --edges was read" "$io28_inputs" \
	"$gssl" cluster --json --edges "$io28_e" --clusters 2
expect_ok "inputs: predict --json says how --edges was read" 'json_has "\"inputs\":[{\"path\":" && grep -q "^gssl: read edges" "$err"' \
	"$gssl" predict --json --model "$tmp/io28/m.gssl" --edges "$(file io28/new.csv 'source,target\nz,a\n')"
expect_ok "inputs: knn --json says how --features was read, and which column is the id" \
	'json_has "\"role\":\"features\"" && json_has "\"id\":\"column 1\"" && grep -q "^gssl: read features" "$err"' \
	"$gssl" knn --json --features "$io28_f" --neighbors 2
expect_ok "inputs: labelprop --features --json says how the points were read" \
	'json_has "\"role\":\"features\"" && grep -q "^gssl: read features" "$err"' \
	"$gssl" labelprop --json --features "$io28_f" --labels "$io28_l" --neighbors 2

# One flag, one meaning: --features names a file everywhere; generate's
# count of feature columns is --feature-columns, the old name a hidden
# alias that says so.
expect_ok "flags: generate --features N still works, with a notice naming --feature-columns" \
	'grep -q "use --feature-columns" "$err" && [ "$(json_field features)" = 5 ]' \
	"$gssl" generate sbm --nodes 100 --features 5 --out "$tmp/io28/gen" --json
