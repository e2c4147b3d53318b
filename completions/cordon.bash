# bash completion for cordon(1)
#
# Installed as share/bash-completion/completions/cordon; or, by hand:
#   . completions/cordon.bash
# Works with or without the bash-completion package (with it, the command
# after `--` in `cordon run -- …` is completed as that command would be).

_cordon_commands='approvals audit check classify config console demo doctor explain
fetch help hook init mcp proxy redact run sandbox'

# The options of `cordon run`, which `cordon mcp --sandbox` takes too.
_cordon_run_opts='--workspace --write --deny-read --no-read-home
--cache-writes --network --allow-host --deny-host --control-port
--control-token-env --inject-host --inject-secret-env --inject-header
--inject-format --inject-cacert --inject-port --inject-allow-loopback
--memory --cpu --pids --timeout --mode --backend --report --argv-only
--allow-cmd --no-unix-sockets --output-cap --config --audit-log
--srt-settings --probe --json --agent --pass-env --no-pty --help'

_cordon_sandbox_opts() {
	local o
	for o in $_cordon_run_opts; do
		case $o in
		--argv-only | --allow-cmd | --output-cap | --probe | --config | \
			--json | --agent | --pass-env | \
			--audit-log | --help) ;;
		*) echo "$o" ;;
		esac
	done
}

# _cordon_opts COMMAND [SUBCOMMAND] [SANDBOX]: the options of one command
# (SANDBOX non-empty: `cordon mcp --sandbox` was given).
_cordon_opts() {
	case $1 in
	audit)
		case $2 in
		verify) echo '--json --allow-missing-start --expect-head --key-file --config --help' ;;
		head) echo '--json --allow-missing-start --key-file --config --help' ;;
		*) echo '--json --since --decision --event --config --help' ;;
		esac ;;
	check)
		echo '--tool --args --cwd --workspace --session --mode --config
		--audit-log --read-only --deny-path --deny-command --deny-tool
		--approvals --no-approvals --prompt --json --help' ;;
	classify)
		echo '--cwd --workspace --home --rules --max-depth --json
		--jsonl --help' ;;
	config)
		case $2 in
		import) echo '--from --help' ;;
		*) echo '--config --workspace --sources --json --help' ;;
		esac ;;
	console) echo '--listen --config --audit-log --pins --help' ;;
	demo) echo '--keep --json --help' ;;
	doctor)
		echo '--json --workspace --config --audit-log --no-probe
		--help' ;;
	approvals) echo '--file --config --json --help' ;;
	explain)
		echo '--call --cwd --workspace --home --config --json --help' ;;
	redact) echo '--count --help' ;;
	fetch)
		echo '--max-redirects --max-bytes --timeout --cacert --resolve
		--deny-range --json --allow-address-class --config --audit-log
		--help' ;;
	hook)
		echo '--config --audit-log --workspace --mode --fail-open
		--claude-settings --claude-scopes --sandbox --no-rewrite --help' ;;
	init) echo '--project --user --settings --dry-run --sandbox
		--no-sandbox --remove --help' ;;
	mcp)
		case $2 in
		pins) echo '--pins --config --json --width --help' ;;
		*)
			echo '--name --config --audit-log --pins --session
			--warn-pending --trust-new-tools --prompt --sandbox --help'
			# After --sandbox: the options of cordon run, but those of
			# the argv-only shell.
			[[ -n $3 ]] && _cordon_sandbox_opts ;;
		esac ;;
	proxy)
		echo '--listen --allow-host --deny-host --deny-range --resolve
		--max-conns --idle-timeout --handshake-timeout --control-port
		--control-token-env --inject-host --inject-secret-env
		--inject-header --inject-format --inject-cacert --inject-port
		--inject-allow-loopback --config --audit-log --verbose --help
		--public-suffix-list --pipe-budget' ;;
	run) echo "$_cordon_run_opts --command-b64 --command-sha256 --audit-sync" ;;
	sandbox)
		echo '--format --workspace --write --deny-read --network
		--proxy-port --no-read-home --help' ;;
	esac
}

# Options that take a value in the next word (or after "=").
_cordon_valued='--tool --args --cwd --workspace --session --mode --config
--audit-log --deny-path --deny-command --deny-tool --approvals --home
--rules --max-depth --from --max-redirects --max-bytes --timeout --cacert
--resolve --deny-range --allow-address-class --settings --name
--pins --listen --allow-host --deny-host --max-conns --idle-timeout
--handshake-timeout --control-port --control-token-env --inject-host
--inject-secret-env --inject-header --inject-format --inject-cacert
--inject-port --write --deny-read --network --memory --cpu --pids --backend
--report --allow-cmd --output-cap --srt-settings --format --proxy-port
--since --decision --event --width --claude-settings
--public-suffix-list --pipe-budget --command-b64 --command-sha256
--audit-sync'

_cordon_takes_value() {
	local o
	for o in $_cordon_valued; do
		[[ $1 == "$o" ]] && return 0
	done
	return 1
}

# _cordon_compgen ARGS...: COMPREPLY from compgen, one match a line (so
# that file names with spaces stay whole).
_cordon_compgen() {
	mapfile -t COMPREPLY < <(compgen "$@")
}

_cordon_files() {
	compopt -o filenames 2>/dev/null
	_cordon_compgen -f -- "$1"
}

# _cordon_value OPTION CUR COMMAND: the completions of OPTION's value.
_cordon_value() {
	case $1 in
	--config | --audit-log | --report | --rules | --approvals | --cacert | \
		--inject-cacert | --settings | --srt-settings | --pins | \
		--claude-settings | --write | --deny-read | --deny-path | \
		--key-file)
		_cordon_files "$2" ;;
	--cwd | --workspace | --home)
		compopt -o filenames 2>/dev/null
		_cordon_compgen -d -- "$2" ;;
	--network) _cordon_compgen -W 'none host proxy' -- "$2" ;;
	--backend) _cordon_compgen -W 'namespaces landlock' -- "$2" ;;
	--agent) _cordon_compgen -W 'claude gemini codex' -- "$2" ;;
	--from) _cordon_compgen -W 'claude srt codex' -- "$2" ;;
	--format) _cordon_compgen -W 'seatbelt' -- "$2" ;;
	--decision) _cordon_compgen -W 'allow deny ask' -- "$2" ;;
	--event)
		_cordon_compgen -W 'decision run proxy fetch hook mcp pin
			recovered' -- "$2" ;;
	--allow-address-class) _cordon_compgen -W 'loopback' -- "$2" ;;
	--mode)
		case $3 in
		run | mcp) _cordon_compgen -W 'off auto strict' -- "$2" ;;
		*) _cordon_compgen -W 'supervised auto-accept-edits auto
			full-access' -- "$2" ;;
		esac ;;
	*) COMPREPLY=() ;;
	esac
}

# _cordon_positional COMMAND CUR WORDS...: the command's next positional
# argument, given the positional words before it.
_cordon_positional() {
	local cmd=$1 cur=$2
	shift 2
	case $cmd:$# in
	help:0) _cordon_compgen -W "$_cordon_commands" -- "$cur" ;;
	config:0) _cordon_compgen -W 'show import' -- "$cur" ;;
	config:*) [[ $1 == import ]] && _cordon_files "$cur" ;;
	sandbox:0) _cordon_compgen -W 'profile' -- "$cur" ;;
	audit:0) _cordon_compgen -W 'verify head show' -- "$cur" ;;
	audit:*) _cordon_files "$cur" ;;
	hook:0) _cordon_compgen -W 'claude gemini cursor copilot codex windsurf qwen kiro cline' -- "$cur" ;;
	init:0) _cordon_compgen -W 'claude gemini cursor copilot codex windsurf qwen kiro cline' -- "$cur" ;;
	approvals:0) _cordon_compgen -W 'list revoke clear' -- "$cur" ;;
	mcp:1) [[ $1 == pins ]] &&
		_cordon_compgen -W 'list diff approve reset' -- "$cur" ;;
	mcp:0) _cordon_compgen -W 'pins' -- "$cur" ;;
	esac
}

_cordon() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=''
	local i w cmd='' dashdash='' skip='' sandbox='' pos=()

	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	# The command, its positional words and a "--" before the cursor.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == = ]]; then
			skip=1 # bash split "--opt=VALUE" at "="
		elif [[ -n $skip ]]; then
			skip=
		elif [[ $w == -- ]]; then
			dashdash=$i
			break
		elif [[ $w == -* ]]; then
			[[ $w == --sandbox ]] && sandbox=1
			[[ $w != *=* ]] && _cordon_takes_value "$w" && skip=1
		elif [[ -z $cmd ]]; then
			cmd=$w
		else
			pos+=("$w")
		fi
	done

	# After "--": the command cordon runs (or classifies), completed as
	# itself.
	if [[ -n $dashdash ]]; then
		if declare -F _command_offset >/dev/null; then
			_command_offset $((dashdash + 1))
		elif ((COMP_CWORD == dashdash + 1)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
		else
			_cordon_files "$cur"
		fi
		return 0
	fi

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_cordon_compgen -W '--help --version' -- "$cur"
		else
			_cordon_compgen -W "$_cordon_commands" -- "$cur"
		fi
		return 0
	fi

	# An option's value: "--opt VALUE" or "--opt=VALUE" (one word, or three
	# when "=" is in COMP_WORDBREAKS, as it is by default).
	if [[ $cur == = && $prev == --* ]]; then
		_cordon_value "$prev" "" "$cmd"
		return 0
	fi
	if [[ $prev == = ]] && ((COMP_CWORD > 1)); then
		_cordon_value "${COMP_WORDS[COMP_CWORD - 2]}" "$cur" "$cmd"
		return 0
	fi
	if [[ $cur == --*=* ]]; then
		_cordon_value "${cur%%=*}" "${cur#*=}" "$cmd"
		return 0
	fi
	if [[ -n $skip ]]; then
		_cordon_value "$prev" "$cur" "$cmd"
		return 0
	fi

	if [[ $cur == -* ]]; then
		local opts
		opts=$(_cordon_opts "$cmd" "${pos[0]-}" "$sandbox")
		case $cmd in
		run | mcp | classify | explain) opts+=' --' ;;
		esac
		_cordon_compgen -W "$opts" -- "$cur"
		return 0
	fi
	_cordon_positional "$cmd" "$cur" "${pos[@]}"
	return 0
}

complete -F _cordon cordon
