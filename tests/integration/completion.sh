#!/bin/bash
# The bash completion (completions/cordon.bash): subcommands, options, enum
# values, files and directories, "--" handing over to command completion,
# and no drift from the binary: every option a command's --help lists is
# offered, and every option offered is one the command takes.
. "$(dirname "$0")/lib.sh"

# shellcheck source=../../completions/cordon.bash
. "$src/completions/cordon.bash"

# comp WORDS...: completes the last word as bash would; the candidates, one
# a line, sorted, in $tmp/comp.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_cordon
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort >"$tmp/comp"
}

# is WORDS...: the candidates are exactly WORDS.
is() {
	printf '%s\n' "$@" | sed '/^$/d' | sort | cmp -s - "$tmp/comp"
}

# offers WORD...: every WORD is among the candidates.
offers() {
	local w
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/comp" || return 1
	done
}

# offers_none WORD...: no WORD is among the candidates.
offers_none() {
	local w
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/comp" && return 1
	done
	return 0
}

# diag: the candidates (instead of lib.sh's run output).
diag() {
	echo "# got:"
	sed 's/^/#   /' "$tmp/comp" | head -30
}

complete -p cordon | grep -q -- '-F _cordon cordon'
ok $? "the file registers _cordon for cordon"

comp cordon ''
is approvals audit check classify config console demo doctor explain fetch help \
	hook init mcp proxy redact run sandbox
ok $? "every subcommand"

comp cordon c
is check classify config console
ok $? "subcommands by prefix"

comp cordon -
is --help --version
ok $? "options before a subcommand"

comp cordon help r
is redact run
ok $? "help takes a subcommand"

comp cordon run --net
is --network
ok $? "run: an option by prefix"

comp cordon run --network ''
is none host proxy
ok $? "--network none|host|proxy"

comp cordon run --network=h
is host
ok $? "--network=VALUE in one word"

comp cordon run --network = p
is proxy
ok $? "--network = VALUE as bash splits it at ="

comp cordon run --network = host --mode ''
is off auto strict
ok $? "run --mode off|auto|strict after a split value"

comp cordon mcp --sandbox --mode ''
is off auto strict
ok $? "mcp --sandbox --mode takes the sandbox modes"

comp cordon mcp --
offers --name --pins --sandbox && offers_none --network --memory
ok $? "mcp: the gateway's options, without the sandbox's"

comp cordon mcp --name fs --sandbox --
offers --name --network --memory --write && offers_none --argv-only --allow-cmd
ok $? "mcp --sandbox: and then those of run, but the argv-only shell's"

comp cordon check --mode ''
is supervised auto-accept-edits auto full-access
ok $? "check --mode takes the permission modes"

comp cordon hook claude --mode a
is auto-accept-edits auto
ok $? "hook --mode takes the permission modes"

comp cordon run --backend ''
is namespaces landlock
ok $? "--backend namespaces|landlock"

comp cordon config import --from ''
is claude srt codex
ok $? "config import --from claude|srt|codex"

comp cordon config ''
is show import
ok $? "config show|import"

comp cordon hook ''
is claude gemini cursor copilot codex windsurf qwen kiro cline
ok $? "hook claude|gemini|cursor|copilot"

comp cordon approvals ''
is list revoke clear
ok $? "approvals list|revoke|clear"

comp cordon init ''
is claude gemini cursor copilot codex windsurf qwen kiro cline
ok $? "init claude|gemini|cursor|copilot"

comp cordon init claude --
offers --project --user
ok $? "init claude --project|--user"

comp cordon mcp pins ''
is list diff approve reset
ok $? "mcp pins list|diff|approve|reset"

comp cordon mcp ''
is pins
ok $? "mcp: pins is the one subcommand"

comp cordon audit ''
is head show verify
ok $? "audit verify|head|show"

comp cordon sandbox ''
is profile
ok $? "sandbox profile"

comp cordon sandbox profile --format ''
is seatbelt
ok $? "sandbox --format seatbelt"

# Files and directories.
mkdir -p "$tmp/files/sub dir" "$tmp/files/other"
: >"$tmp/files/cfg.json"
: >"$tmp/files/cfg two.json"
: >"$tmp/files/audit.jsonl"
cd "$tmp/files" || exit 1

comp cordon check --config cf
is cfg.json 'cfg two.json'
ok $? "--config completes files (a space in a name stays whole)"

comp cordon run --audit-log au
is audit.jsonl
ok $? "--audit-log completes files"

comp cordon run --report=c
is cfg.json 'cfg two.json'
ok $? "--report=FILE completes files"

comp cordon config import --from claude c
is cfg.json 'cfg two.json'
ok $? "config import FILE completes files"

comp cordon run --workspace ''
offers 'sub dir' other && offers_none cfg.json
ok $? "--workspace completes directories only"

comp cordon audit verify a
is audit.jsonl
ok $? "audit verify FILE completes files"

# "--" hands over to the command.
comp cordon run --workspace . -- ech
offers echo
ok $? "run -- completes a command name"

comp cordon run -- echo cf
if declare -F _command_offset >/dev/null; then
	skip "run -- CMD ARG falls back to files" "bash-completion is loaded"
else
	is cfg.json 'cfg two.json'
	ok $? "run -- CMD ARG falls back to files"
fi

comp cordon mcp --name fs -- pyth
offers python3
ok $? "mcp -- completes the server command"

comp cordon run --network none -- --net
offers_none --network
ok $? "nothing of cordon's after --"

comp cordon run --timeout ''
is
ok $? "a value that cannot be guessed gets no candidates"

comp cordon run --timeout 5 --no-
offers --no-read-home --no-unix-sockets
ok $? "options after an option's value"

comp cordon run --
offers -- --workspace --network --report
ok $? "run offers -- among its options"

# No drift between the completion and the binary's --help: the options a
# command's help lists are offered, and what is offered is in the help
# (--help, which every command takes, aside).
# An option is listed at an indent of two spaces ("  --name ARG  what",
# "  -v, --verbose"); deeper lines are descriptions that mention options.
help_opts() {
	sed -n 's/^  \(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' |
		sort -u
}
for cmd in approvals audit check classify config demo doctor fetch hook init \
	mcp proxy redact run sandbox; do
	if ! "$bin" "$cmd" --help >"$tmp/help" 2>&1; then
		skip "$cmd: completion matches --help" "no 'cordon $cmd' here"
		continue
	fi
	# A command with subcommands may explain their options in their own
	# help (cordon config import --help).
	case $cmd in
	config) subs='show import' ;;
	audit) subs='verify show' ;;
	mcp) subs='pins' ;;
	*) subs= ;;
	esac
	for sub in $subs; do
		"$bin" "$cmd" "$sub" --help >>"$tmp/help" 2>/dev/null
	done
	help_opts <"$tmp/help" | sed '/^--help$/d' >"$tmp/listed"
	: >"$tmp/offered"
	for sub in '' pins import verify show; do
		comp cordon "$cmd" $sub --
		cat "$tmp/comp" >>"$tmp/offered"
	done
	sort -u -o "$tmp/offered" "$tmp/offered"
	sed -i '/^--$/d; /^--help$/d' "$tmp/offered"
	missing=$(comm -23 "$tmp/listed" "$tmp/offered" | tr '\n' ' ')
	extra=$(comm -13 "$tmp/listed" "$tmp/offered" | tr '\n' ' ')
	printf '%s\n' "not offered: $missing" \
		"offered, not in --help: $extra" >"$tmp/comp"
	[ -z "$missing" ] && [ -z "$extra" ]
	ok $? "$cmd: completion matches --help"
done

done_testing
