#!/usr/bin/env bash
# `cordon check` and `cordon config show` against the built binary
# ($CORDON_BIN): exit statuses, the call from flags and from stdin, the
# check object, the steps that flags and the configuration layers reach,
# symlinks, the approvals file, --prompt without a terminal, and the
# sources of the effective configuration. The decision tables themselves
# are tested by tests/cases/policy; here the command line around them.
#
# HOME and XDG_CONFIG_HOME point into a fresh temporary directory so that
# the user's real configuration and approvals are never read.
. "$(dirname "$0")/lib.sh"

ws=$tmp/ws
mkdir -p "$HOME/.ssh" "$ws"
echo 'not a real key' >"$HOME/.ssh/id_rsa"
user_cfg=$XDG_CONFIG_HOME/cordon/config.json
approvals=$XDG_CONFIG_HOME/cordon/approvals.json
cd "$ws" || exit 1

# decides STATUS DECISION STEP: the last run (with --json) exited STATUS
# and printed a check object with this decision and step.
decides() {
	[ "$rc" -eq "$1" ] &&
		pycheck "d[\"decision\"] == \"$2\" and d[\"step\"] == \"$3\"" \
			<"$tmp/out"
}

# approvals_file JSON: writes the approvals file from a Python literal.
approvals_file() {
	python3 -c 'import json, sys
json.dump(eval(sys.argv[1]), open(sys.argv[2], "w"))' "$1" "$approvals"
}

bash_ls='{"command": "ls"}'
bash_rm='{"command": "rm -rf build"}'
bash_npm='{"command": "npm install"}'
read_key="{\"file_path\": \"$HOME/.ssh/id_rsa\"}"

# --- usage and configuration errors: exit 2 ---------------------------------

run check --bogus --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q -- '--bogus' "$tmp/err"
ok $? "an unknown option exits 2 naming it"

run check --tool
[ $rc -eq 2 ] && grep -q -- "option '--tool' needs a value" "$tmp/err"
ok $? "an option without its value exits 2 saying so"

run check -Zq --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q -- "unknown option '-Z'" "$tmp/err"
ok $? "an unknown short option is named as written (-Z, not the group)"

run check --tool Bash --args "$bash_ls" $'extra\x1b[31m'
[ $rc -eq 2 ] && ! grep -q $'\x1b' "$tmp/err" &&
	grep -q "unexpected argument 'extra" "$tmp/err"
ok $? "an unexpected argument is escaped before it reaches the terminal"

run check $'--bo\x1b[31mgus' --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && ! grep -q $'\x1b' "$tmp/err" && grep -q 'bo\\x1b' "$tmp/err"
ok $? "an unknown option is escaped before it reaches the terminal"

run check --args "$bash_ls"
[ $rc -eq 2 ] && grep -q -- '--tool' "$tmp/err"
ok $? "--args without --tool exits 2"

run check --mode yolo --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q "yolo" "$tmp/err"
ok $? "a bad --mode exits 2 naming the value"

run check --tool Bash --args "$bash_ls" extra-word
[ $rc -eq 2 ] && grep -q "extra-word" "$tmp/err"
ok $? "a stray argument exits 2 naming it"

echo '{"safety": {"denied_paths": [1]}}' >"$tmp/bad-type.json"
run check --config "$tmp/bad-type.json" --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q 'bad-type.json' "$tmp/err" &&
	grep -qF 'safety.denied_paths[0]' "$tmp/err"
ok $? "a --config file with a wrong type exits 2 naming the file and key path"

echo '{"safety": {"denied_paths": ' >"$tmp/bad-syntax.json"
run check --config "$tmp/bad-syntax.json" --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q 'bad-syntax.json' "$tmp/err"
ok $? "a --config file that is not JSON exits 2 naming the file"

echo '{"safety": {"permission_mode": "auto", "bogus_key": 1}}' \
	>"$tmp/unknown-key.json"
run check --config "$tmp/unknown-key.json" --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -qF 'safety.bogus_key' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "an unknown key in the config exits 2 naming the key path, no decision"

run check --config "$tmp/no-such-config.json" --tool Bash --args "$bash_ls"
[ $rc -eq 2 ] && grep -q 'no-such-config.json' "$tmp/err"
ok $? "a missing --config file exits 2 naming it"

run_in '["Bash"]' check
[ $rc -eq 2 ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]
ok $? "a stdin call that is an array exits 2"

run_in '"Bash"' check
[ $rc -eq 2 ]
ok $? "a stdin call that is a string exits 2"

run_in '' check
[ $rc -eq 2 ]
ok $? "an empty stdin exits 2"

# 1.5 MiB: over CHECK_MAX_STDIN (1 MiB + 4 KiB), under the 2 MiB that the
# old doubling buffer let through.
big_call=$(python3 -c 'import json; print(json.dumps({"tool": "Bash", "args": {"command": "echo " + "a" * (3 << 19)}}))')
run_in "$big_call" check
[ $rc -ne 0 ] && grep -q 'over the limit' "$tmp/err"
ok $? "a stdin call over the limit is refused, naming the limit"

run_in '{"tool": "Bash", "args": {"command": "ls"}, "extra": 1}' check
[ $rc -eq 2 ] && grep -q 'extra' "$tmp/err"
ok $? "an unknown key in the stdin call exits 2 naming it"

run_in '{"tool": "Bash", "args": "ls"}' check
[ $rc -eq 2 ] && grep -q 'args' "$tmp/err"
ok $? "stdin args that are not an object exit 2"

run check --help
[ $rc -eq 0 ] && grep -q -- '--tool' "$tmp/out" &&
	grep -q -- '--no-approvals' "$tmp/out"
ok $? "check --help exits 0 and lists the options"

# --- exit statuses and the check object -------------------------------------

run check --json --tool Read --args '{"file_path": "notes.txt"}'
decides 0 allow default
ok $? "a read in the workspace: allow, exit 0"

run check --json --tool Read --args "$read_key"
decides 1 deny denied_paths
ok $? "Read of ~/.ssh/id_rsa: deny at denied_paths, exit 1"
pycheck 'set(d) >= {"decision", "step", "reason", "risk", "labels", "tool",
          "kind", "hard"}
 and d["tool"] == "Read" and d["kind"] == "read" and d["hard"] is True
 and d["risk"] is None and d["labels"] == []
 and d["reason"].startswith("blocked: ") and ".ssh" in d["reason"]' \
	<"$tmp/out"
ok $? "a file deny: all keys, null risk, no labels, a blocked: reason"

run check --json --tool Bash --args "$bash_npm"
decides 3 ask mode
ok $? "npm install in supervised mode: ask at mode, exit 3"
pycheck 'd["tool"] == "Bash" and d["kind"] == "execute" and d["hard"] is False
 and d["risk"] == "caution" and d["labels"] == ["installs"]' <"$tmp/out"
ok $? "the check object of a shell call carries the risk and labels"

run check --tool Read --args "$read_key"
[ $rc -eq 1 ] && head -n 1 "$tmp/out" | grep -qx 'deny (step: denied_paths)' &&
	grep -q '^reason: blocked: ' "$tmp/out" && ! grep -q '^risk: ' "$tmp/out"
ok $? "the text view: decision and step, the reason, no risk for a file tool"

run check --tool Bash --args "$bash_rm"
[ $rc -eq 3 ] && grep -qx 'risk: destructive' "$tmp/out" &&
	grep -q '^labels: .*delete-recursive' "$tmp/out"
ok $? "the text view of a shell call shows the risk and labels"

# --- the call from flags and from stdin -------------------------------------

run check --json --tool Bash --args "$bash_npm"
cp "$tmp/out" "$tmp/flags.out"
run_in '{"tool": "Bash", "args": {"command": "npm install"}}' check --json
[ $rc -eq 3 ] && cmp -s "$tmp/flags.out" "$tmp/out"
ok $? "a shell call from stdin gives the same JSON as from flags"

run check --json --tool Read --args "$read_key"
cp "$tmp/out" "$tmp/flags.out"
call="{\"tool\": \"Read\", \"args\": $read_key, \"cwd\": \"$ws\","
call+=' "session": "s1"}'
run_in "$call" check --json
[ $rc -eq 1 ] && cmp -s "$tmp/flags.out" "$tmp/out"
ok $? "a file call from stdin (with cwd and session) gives the same JSON"

run check --json --cwd "$HOME/.ssh" --tool Read --args '{"file_path": "id_rsa"}'
decides 1 deny denied_paths
ok $? "--cwd: a relative path resolves against the call's directory"

run_in '{"tool": "Read", "args": {"file_path": "id_rsa"}}' check --json \
	--cwd "$HOME/.ssh"
decides 1 deny denied_paths
ok $? "--cwd applies to a stdin call too"

# --- the steps reached from flags ------------------------------------------

run check --json --read-only --tool Bash --args "$bash_ls"
decides 1 deny read_only
ok $? "--read-only: Bash denied at read_only"
pycheck 'd["hard"] is True and d["reason"].startswith("blocked: ")' <"$tmp/out"
ok $? "--read-only denial is hard with a blocked: reason"

run check --json --read-only --tool Write --args '{"file_path": "x.txt"}'
decides 1 deny read_only
ok $? "--read-only: Write denied at read_only"

run check --json --read-only --tool Read --args '{"file_path": "notes.txt"}'
decides 0 allow default
ok $? "--read-only still allows a read"

run check --json --deny-tool Bash --tool Bash --args "$bash_ls"
decides 1 deny denied_tools
ok $? "--deny-tool Bash: denied at denied_tools"

run check --json --deny-tool Bash --tool Read --args '{"file_path": "a.txt"}'
decides 0 allow default
ok $? "--deny-tool Bash leaves other tools alone"

run check --json --tool Read --args '{"file_path": "private.txt"}'
decides 0 allow default
ok $? "private.txt is readable without --deny-path"

run check --json --deny-path '**/private.txt' --tool Read \
	--args '{"file_path": "private.txt"}'
decides 1 deny denied_paths
ok $? "--deny-path adds a denied path"

run check --json --deny-path '**/private.txt' --tool Read \
	--args '{"file_path": ".env"}'
decides 1 deny denied_paths
ok $? "after --deny-path the built-in **/.env denial still holds"

run check --json --deny-path '**/private.txt' --tool Read --args "$read_key"
decides 1 deny denied_paths
ok $? "after --deny-path the built-in .ssh denial still holds"

run check --json --mode auto --tool Bash --args '{"command": "make all"}'
decides 0 allow default
ok $? "make all is allowed in auto mode"

run check --json --mode auto --deny-command make --tool Bash \
	--args '{"command": "make all"}'
decides 1 deny denied_commands
ok $? "--deny-command adds a denied command"

run check --json --mode auto --deny-command make --tool Bash \
	--args '{"command": "rm -rf /"}'
decides 1 deny denied_commands
ok $? "after --deny-command the built-in deny list still holds"

# --- configuration layers ----------------------------------------------------

run check --json --tool Bash --args "$bash_ls"
decides 3 ask mode
ok $? "without a user file, ls asks (supervised)"

echo '{"safety": {"permission_mode": "auto"}}' >"$user_cfg"
run check --json --tool Bash --args "$bash_ls"
decides 0 allow default
ok $? "the user file (\$XDG_CONFIG_HOME/cordon/config.json) applies"

mkdir -p "$ws/.cordon"
echo '{"safety": {"permission_mode": "supervised"}}' >"$ws/.cordon/config.json"
run check --json --tool Bash --args "$bash_ls"
decides 3 ask mode
ok $? "a project file may tighten the user's mode"

echo '{"safety": {"permission_mode": "auto"}}' >"$tmp/auto.json"
run check --json --config "$tmp/auto.json" --tool Bash --args "$bash_ls"
decides 0 allow default
ok $? "--config applies after the user and project files"

run check --json --config "$tmp/auto.json" --mode supervised --tool Bash \
	--args "$bash_ls"
decides 3 ask mode
ok $? "--mode applies after --config"

run check --json --workspace "$tmp" --tool Bash --args "$bash_ls"
decides 0 allow default
ok $? "--workspace elsewhere: the project file there is not read"

rm -f "$user_cfg"
echo '{"safety": {"permission_mode": "full-access"}}' >"$ws/.cordon/config.json"
run check --json --tool Bash --args "$bash_rm"
decides 3 ask classifier
ok $? "a project file cannot raise the mode to full-access: rm -rf still asks"
grep -q 'warning' "$tmp/err" && grep -qF 'safety.permission_mode' "$tmp/err" &&
	grep -qF '.cordon/config.json' "$tmp/err"
ok $? "the ignored project key is named in a warning on stderr"

echo '{"safety": {"max_permission_mode": "auto"}}' >"$user_cfg"
echo '{"safety": {"max_permission_mode": "full-access"}}' \
	>"$ws/.cordon/config.json"
run check --json --mode full-access --tool Bash --args "$bash_rm"
decides 3 ask classifier
ok $? "a project file cannot raise max_permission_mode"
grep -qF 'safety.max_permission_mode' "$tmp/err"
ok $? "the ignored cap is named in a warning"

echo '{"safety": {"denied_paths": []}}' >"$ws/.cordon/config.json"
run check --json --tool Read --args '{"file_path": ".env"}'
decides 1 deny denied_paths
ok $? "a project file cannot empty denied_paths"
rm -rf "$ws/.cordon" "$user_cfg"

echo '{"safety": {"max_permission_mode": "auto"}}' >"$tmp/cap.json"
run check --json --mode full-access --tool Bash --args "$bash_rm"
decides 0 allow default
ok $? "without a cap, --mode full-access allows rm -rf build"

run check --json --config "$tmp/cap.json" --mode full-access --tool Bash \
	--args "$bash_rm"
decides 3 ask classifier
ok $? "--mode full-access is clamped to max_permission_mode auto"

run check --json --config "$tmp/cap.json" --mode full-access --tool Bash \
	--args "$bash_ls"
decides 0 allow default
ok $? "the clamped mode is auto (a safe command runs)"

echo '{"safety": {"denied_paths": ["**/only.txt"]}}' >"$tmp/replace.json"
run check --json --config "$tmp/replace.json" --tool Read \
	--args '{"file_path": "only.txt"}'
decides 1 deny denied_paths
ok $? "a --config list of denied paths applies"

run check --json --config "$tmp/replace.json" --tool Read \
	--args '{"file_path": ".env"}'
decides 0 allow default
ok $? "a --config list replaces the built-in denied paths"

# --- symlinks ----------------------------------------------------------------

ln -s "$HOME/.ssh/id_rsa" "$ws/innocent.txt"
run check --json --tool Read --args '{"file_path": "innocent.txt"}'
decides 1 deny denied_paths
ok $? "a workspace symlink to ~/.ssh/id_rsa is denied for Read"
pycheck '"innocent.txt" in d["reason"]
 and d["reason"].startswith("blocked: ")' <"$tmp/out"
ok $? "the reason names the link"

run check --json --tool Read --args "{\"file_path\": \"$ws/innocent.txt\"}"
decides 1 deny denied_paths
ok $? "the same link by absolute path is denied"
rm -f "$ws/innocent.txt"

# --- the approvals file ------------------------------------------------------

approvals_file '{"version": 1, "rules": [{"tool": "Bash", "decision": "allow",
  "commandPrefix": ["npm", "install"]}]}'
run check --json --tool Bash --args "$bash_npm"
decides 0 allow approvals_rule
ok $? "a prefix rule in the approvals file allows npm install"

run check --json --tool Bash --args '{"command": "npm install left-pad"}'
decides 0 allow approvals_rule
ok $? "the prefix rule covers longer commands"

run check --json --tool Bash --args '{"command": "npm test"}'
decides 3 ask mode
ok $? "the prefix rule does not cover npm test"

run check --json --no-approvals --tool Bash --args "$bash_npm"
decides 3 ask mode
ok $? "--no-approvals ignores the approvals file"

mv "$approvals" "$tmp/elsewhere.json"
run check --json --tool Bash --args "$bash_npm"
decides 3 ask mode
ok $? "without the approvals file, npm install asks"

run check --json --approvals "$tmp/elsewhere.json" --tool Bash \
	--args "$bash_npm"
decides 0 allow approvals_rule
ok $? "--approvals FILE names the approvals file"

echo "{\"approvals\": {\"path\": \"$tmp/elsewhere.json\"}}" \
	>"$tmp/appr-cfg.json"
run check --json --config "$tmp/appr-cfg.json" --tool Bash --args "$bash_npm"
decides 0 allow approvals_rule
ok $? "approvals.path in the configuration names the approvals file"
rm -f "$tmp/elsewhere.json"

approvals_file '{"version": 1, "rules": [{"tool": "Bash", "decision": "allow",
  "command": "rm -rf build"}]}'
run check --json --tool Bash --args "$bash_rm"
decides 0 allow approvals_rule
ok $? "an exact rule allows the destructive rm -rf build"

run check --json --tool Bash --args '{"command": "rm -rf dist"}'
decides 3 ask classifier
ok $? "the exact rule does not cover rm -rf dist"

approvals_file '{"version": 1, "rules": [{"tool": "Bash", "decision": "allow",
  "commandPrefix": ["rm"]}]}'
run check --json --tool Bash --args "$bash_rm"
decides 3 ask classifier
ok $? "a prefix rule [rm] does not allow a destructive command (exact only)"

run check --json --tool Bash --args '{"command": "rm notes.txt"}'
decides 0 allow approvals_rule
ok $? "the prefix rule [rm] does allow a non-destructive rm"

approvals_file '{"version": 1, "rules": [{"tool": "Bash", "decision": "deny",
  "commandPrefix": ["ls"]}]}'
run check --json --mode auto --tool Bash --args "$bash_ls"
decides 1 deny approvals_rule
ok $? "a deny rule turns an allow into deny"
pycheck 'd["reason"].startswith("blocked: ")' <"$tmp/out"
ok $? "the approvals deny carries a blocked: reason"

run check --json --mode auto --no-approvals --tool Bash --args "$bash_ls"
decides 0 allow default
ok $? "--no-approvals ignores a deny rule too"

printf 'garbage{{{' >"$approvals"
run check --json --tool Bash --args "$bash_npm"
decides 3 ask mode
ok $? "a corrupt approvals file: the decision stays ask"
grep -q 'warning' "$tmp/err" && grep -qF "$approvals" "$tmp/err"
ok $? "a corrupt approvals file gives a warning naming it"
[ "$(cat "$approvals")" = 'garbage{{{' ]
ok $? "a corrupt approvals file is left as it was"

approvals_file '{"version": 1, "rules": [{"tool": "Bash", "decision": "allow",
  "comandPrefix": ["npm"]}]}'
run check --json --tool Bash --args "$bash_npm"
decides 3 ask mode
ok $? "a misspelt rule key gives no grant (not a whole-tool allow)"
grep -q 'warning' "$tmp/err"
ok $? "the misspelt rule key gives a warning"
rm -f "$approvals"

# --- --prompt without a terminal ---------------------------------------------

if command -v setsid >/dev/null 2>&1; then
	setsid -w "$bin" check --json --prompt --tool Bash --args "$bash_npm" \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	decides 1 deny no_prompt
	ok $? "--prompt with no terminal: ask becomes deny at no_prompt"
	pycheck 'd["reason"].startswith("blocked: ")
 and d["reason"].count("no one can be asked") == 1
 and "supervised" in d["reason"]' <"$tmp/out"
	ok $? "the no_prompt reason says so once and keeps why it asked"

	setsid -w "$bin" check --json --prompt --mode auto --tool Bash \
		--args "$bash_ls" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	decides 0 allow default
	ok $? "--prompt with no terminal leaves an allow alone"
else
	for _ in 1 2 3; do
		n=$((n + 1))
		echo "ok $n # skip setsid is not installed"
	done
fi

# --- NUL bytes in arguments -------------------------------------------------

run check --json --mode auto --tool Bash \
	--args '{"command": "ls\u0000; rm -rf ~"}'
decides 1 deny schema
ok $? "a \\u0000 in --args is denied"
pycheck 'd["reason"].startswith("validation error: ")' <"$tmp/out"
ok $? "the \\u0000 denial is a validation error"

run check --json --tool Read --args '{"file_path": "notes.txt\u0000/../.env"}'
decides 1 deny schema
ok $? "a \\u0000 in a file path is denied"

run_in '{"tool": "Bash", "args": {"command": "ls\u0000; rm -rf ~"}}' \
	check --json --mode auto
decides 1 deny schema
ok $? "a \\u0000 in a stdin call's arguments is denied as from flags"

# --- cordon config show -----------------------------------------------------

run config show
[ $rc -eq 0 ] && pyjson 'd["safety"]["permission_mode"] == "supervised"
 and "**/.env" in d["safety"]["denied_paths"]
 and d["approvals"]["timeout_s"] == 120' <"$tmp/out"
ok $? "config show prints the defaults as JSON"

run config show --json
[ $rc -eq 0 ] && pycheck '"safety" in d' <"$tmp/out"
ok $? "config show --json prints one line"

echo '{"approvals": {"timeout_s": 30}}' >"$user_cfg"
mkdir -p "$ws/.cordon"
echo '{"safety": {"denied_tools": ["WebFetch"],
  "permission_mode": "full-access"}}' \
	>"$ws/.cordon/config.json"
echo '{"classifier": {"max_depth": 3}}' >"$tmp/show.json"
run config show --sources --config "$tmp/show.json"
[ $rc -eq 0 ] &&
	pyjson 'set(d) == {"config", "sources", "warnings"}' <"$tmp/out"
ok $? "config show --sources prints config, sources and warnings"
pyjson 'd["config"]["approvals"]["timeout_s"] == 30
 and d["sources"]["approvals.timeout_s"].startswith("user:")
 and d["sources"]["approvals.timeout_s"].endswith("cordon/config.json")' \
	<"$tmp/out"
ok $? "--sources: a key from the user file shows user:FILE"
pyjson '"WebFetch" in d["config"]["safety"]["denied_tools"]
 and "project:" in d["sources"]["safety.denied_tools"]' <"$tmp/out"
ok $? "--sources: a key from the project file shows project:FILE"
pyjson 'd["config"]["classifier"]["max_depth"] == 3
 and d["sources"]["classifier.max_depth"].startswith("config:")
 and d["sources"]["classifier.max_depth"].endswith("show.json")' <"$tmp/out"
ok $? "--sources: a key from --config shows config:FILE"
pyjson 'd["sources"]["safety.read_only"] == "default"
 and d["config"]["safety"]["permission_mode"] == "supervised"
 and d["sources"]["safety.permission_mode"] == "default"' <"$tmp/out"
ok $? "--sources: untouched and refused keys stay default"
pyjson 'any("safety.permission_mode" in w for w in d["warnings"])' <"$tmp/out"
ok $? "--sources: the refused project key is in the warnings"
grep -qF 'safety.permission_mode' "$tmp/err"
ok $? "config show warns on stderr about the refused project key"

run config show --workspace "$tmp" --sources
[ $rc -eq 0 ] && pyjson '"WebFetch" not in d["config"]["safety"]["denied_tools"]
 and d["warnings"] == []' <"$tmp/out"
ok $? "config show --workspace elsewhere does not read this project file"
rm -rf "$ws/.cordon" "$user_cfg"

run config show --config "$tmp/bad-type.json"
[ $rc -eq 2 ] && grep -q 'bad-type.json' "$tmp/err" &&
	grep -qF 'safety.denied_paths[0]' "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "config show with a bad file exits 2 naming the file and key path"

echo '{"safety": {"bogus_key": true}}' >"$user_cfg"
run config show
[ $rc -eq 2 ] && grep -qF 'safety.bogus_key' "$tmp/err" &&
	grep -qF "$user_cfg" "$tmp/err"
ok $? "a bad user file exits 2 naming the file and key path"
rm -f "$user_cfg"

run config show --help
[ $rc -eq 0 ] && grep -q -- '--sources' "$tmp/out"
ok $? "config show --help exits 0"

run config show --bogus
[ $rc -eq 2 ] && grep -q -- '--bogus' "$tmp/err"
ok $? "config show with an unknown option exits 2"

run config
[ $rc -eq 2 ]
ok $? "config without a subcommand exits 2"

run config frobnicate
[ $rc -eq 2 ] && grep -q frobnicate "$tmp/err"
ok $? "config with an unknown subcommand exits 2 naming it"

# --- --args that is not one JSON object: a usage error, not a deny ---------

run check --tool Bash --args '{"command":'
[ $rc -eq 2 ] && grep -q -- "--args: not valid JSON (at byte" "$tmp/err" &&
	[ ! -s "$tmp/out" ]
ok $? "--args cut short exits 2 naming the byte, deciding nothing"

run check --tool Bash --args '["ls"]'
[ $rc -eq 2 ] && grep -q -- "--args: expected a JSON object" "$tmp/err"
ok $? "--args that is an array exits 2"

run check --tool Bash --args '{"command": "ls"} {"x": 1}'
[ $rc -eq 2 ] && grep -q -- "text after the JSON value" "$tmp/err"
ok $? "--args with a second value after the object exits 2"

run check --json --tool Read --args ' {"file_path": "notes.txt"} '
[ $rc -eq 0 ] && pycheck 'd["decision"] == "allow"' <"$tmp/out"
ok $? "--args with spaces around one object is a call"

# --- config show layout ------------------------------------------------------

run config show
[ $rc -eq 0 ] && ! grep -q $'\t' "$tmp/out" && grep -q '^  "safety": {$' "$tmp/out" &&
	grep -q '^    "read_only": false,$' "$tmp/out" &&
	grep -q '^      "/etc/shadow",$' "$tmp/out"
ok $? "config show is two-space JSON, one list element a line, no tabs"

done_testing
