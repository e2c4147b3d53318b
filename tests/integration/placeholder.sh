#!/usr/bin/env bash
# Placeholders (src/sandbox/placeholder.c): a namespaces run makes an empty
# file at each missing run-later name of its workspace (.git, .claude,
# .vscode, ...) and mounts it read-only; the last run to finish removes
# them. A run of the landlock backend in the same workspace at the same
# time can write them (it has no mounts; its report names the run-later
# paths in notEnforced). What was written is then no empty placeholder of
# the user's: the last run's cleanup quarantines it
# (NAME.cordon-quarantined) and says so in its report, instead of leaving
# a .git that says "gitdir: <a directory the sandbox chose>" on the host.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the sandbox tests run as root"
best=$("$bin" run --probe 2>/dev/null | sed -n 's/^best: //p')
[ "$best" = namespaces ] || skip_all "needs the namespaces backend"
"$bin" run --probe 2>/dev/null | grep -q '^landlock: works' ||
	skip_all "needs the landlock backend"
base=$(mktemp -d /var/tmp/cordon-ph.XXXXXX)
trap 'cleanup; rm -rf "$base"' EXIT

# plant NAME: a namespaces run holds the placeholders for 3 s; meanwhile a
# landlock run writes a "gitdir:" line into NAME. Leaves the report of the
# namespaces run in $base/a.json.
plant() {
	local ws=$base/ws-$1
	mkdir -p "$ws"
	(cd "$ws" && exec "$bin" run --mode strict --report "$base/a.json" \
		-- sh -c 'sleep 3' >/dev/null 2>&1) &
	local a=$!
	for _ in $(seq 50); do [ -e "$ws/.git" ] && break; sleep 0.1; done
	ls -A "$ws" >"$base/during"
	(cd "$ws" && "$bin" run --backend landlock --report "$base/b.json" -- \
		sh -c "printf 'gitdir: $base/evil\n' > $1") >/dev/null 2>&1
	wait "$a"
	ls -A "$ws" >"$tmp/out"
}

for name in .git .vscode; do
	plant "$name"
	grep -qx .git "$base/during" && grep -qx .vscode "$base/during"
	ok $? "$name: the namespaces run made its placeholders"
	ws=$base/ws-$name
	! grep -rqs gitdir "$ws/.git" && [ ! -e "$ws/$name" ] &&
		grep -q gitdir "$ws/$name.cordon-quarantined"
	ok $? "$name: written during the run, it is quarantined, not left ($(tr '\n' ' ' <"$tmp/out"))"
	# a .git the landlock run wrote is its own sweep's (a gitdir: file
	# whose text changed is new), before the last run's cleanup
	grep -q "placeholder $ws/$name: written during a run, moved to $name.cordon-quarantined" \
		"$base/a.json" ||
		grep -q "git repository $ws/$name: new during the run, moved to $name.cordon-quarantined" \
			"$base/b.json"
	ok $? "$name: the cleaning run's report says so"
	other=0
	for n2 in .cordon .claude .codex .idea; do
		[ -e "$ws/$n2" ] && other=1
	done
	[ $other = 0 ]
	ok $? "$name: the untouched placeholders are removed"
done

# Another run's empty .git placeholder in the parent directory is no
# repository: a run whose workspace is below it still gets a .git
# placeholder of its own, so it cannot plant a "gitdir:" file that git on
# the host would follow during the run (before, it took the empty file
# for an enclosing repository and left its own .git free to create).
outer=$base/nest
mkdir -p "$outer/sub"
(cd "$outer" && exec "$bin" run --mode strict -- sh -c 'sleep 4' \
	>/dev/null 2>&1) &
b=$!
for _ in $(seq 50); do [ -e "$outer/.git" ] && break; sleep 0.1; done
(cd "$outer/sub" && "$bin" run --mode strict -- sh -c \
	"printf 'gitdir: $base/evil\n' > .git 2>/dev/null && echo planted;
	cat $outer/sub/.git; echo done") >"$tmp/out" 2>"$tmp/err"
wait "$b"
has done && ! has planted && ! has gitdir && [ ! -e "$outer/sub/.git" ] &&
	[ ! -e "$outer/sub/.git.cordon-quarantined" ]
ok $? "below another run's placeholder, the workspace's .git is held too"
done_testing
