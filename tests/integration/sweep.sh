#!/usr/bin/env bash
# The sweep after `cordon run` (src/sandbox/sweep.c): a repository the
# command makes anywhere in a writable root, however it hides it, is moved
# aside on the host before cordon returns, or the report says the sweep
# did not see it (enforcement partial, notEnforced) and what it could not
# look into is moved aside. Each case checks the host's tree after the run
# (the planted .git or config gone from its path) and the report's words.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the sandbox tests run as root"
"$bin" run --probe 2>/dev/null | grep -q '^namespaces: works' ||
	skip_all "needs the namespaces backend"
need git python3
base=$(mktemp -d /var/tmp/cordon-sweep.XXXXXX)
trap 'cleanup; rm -rf "$base"' EXIT

# fresh: a new workspace $ws (a repository of its own).
fresh() {
	ws=$base/ws$n
	rm -rf "$ws"
	mkdir -p "$ws"
	git -C "$ws" init -q .
}

# sbx ARGS...: cordon run in $ws, the report in $base/rep.json.
sbx() {
	(cd "$ws" && "$bin" run --report "$base/rep.json" "$@") \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	cp "$base/rep.json" "$tmp/out.json" 2>/dev/null
}

# enforcement: the report's word.
enforcement() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["enforcement"])' \
		"$base/rep.json"
}

# 1. deeper than the old bound of 12 levels
fresh
d=a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t
sbx -- sh -c "mkdir -p $d && git init -q $d && git -C $d config core.fsmonitor 'touch $base/pwned'"
[ "$rc" = 0 ] && [ ! -e "$ws/$d/.git" ] && [ -d "$ws/$d/.git.cordon-quarantined" ] &&
	grep -q "$d/.git: new during the run, moved to .git.cordon-quarantined" "$base/rep.json" &&
	[ "$(enforcement)" = full ]
ok $? "a repository 20 levels deep is moved aside, the sweep complete"
git -C "$ws/$d" status >/dev/null 2>&1
[ ! -e "$base/pwned" ]
ok $? "its core.fsmonitor does not run at the host's next git status"

# 2. deeper than the directories the sweep holds open at once (256)
fresh
sbx -- sh -c 'd=.; for i in $(seq 300); do d=$d/x; done; mkdir -p $d/.git && printf "[core]\n\tfsmonitor = x\n" >$d/.git/config'
deep=$ws$(printf '/x%.0s' $(seq 300))
[ "$rc" = 0 ] && [ ! -e "$deep/.git" ] &&
	grep -q 'not looked at (deeper than SANDBOX_SWEEP_OPEN levels), moved to x.cordon-quarantined' "$base/rep.json" &&
	[ -d "$ws$(printf '/x%.0s' $(seq 255))/x.cordon-quarantined" ] &&
	grep -q 'sweep: the writable roots not seen whole after the run' "$base/rep.json" &&
	[ "$(enforcement)" = partial ]
ok $? "300 levels deep: the directory not looked into is moved aside, the run partial"

# 3. a path longer than PATH_MAX (made one step at a time)
fresh
mklong='import os,sys
for i in range(24):
    os.mkdir("L" * 200); os.chdir("L" * 200)
os.mkdir(".git"); open(".git/config", "w").write("[core]\n\tfsmonitor = x\n")'
sbx -- /usr/bin/python3 -c "$mklong"
haslong='import os,sys
os.chdir(sys.argv[1])
for i in range(24):
    os.chdir("L" * 200)
sys.exit(0 if os.path.exists(".git") else 1)'
[ "$rc" = 0 ] && ! /usr/bin/python3 -c "$haslong" "$ws" 2>/dev/null &&
	grep -q 'not looked at (its name is too long), moved to L' "$base/rep.json" &&
	[ "$(enforcement)" = partial ]
ok $? "a path past PATH_MAX: the directory is moved aside, the run partial"

# 4. a directory the command made unreadable (chmod 000)
fresh
sbx -- sh -c 'mkdir -p locked/r && git init -q locked/r && chmod 000 locked/r locked'
chmod 755 "$ws/locked" 2>/dev/null
chmod 755 "$ws/locked/r" 2>/dev/null
[ "$rc" = 0 ] && [ ! -e "$ws/locked/r/.git" ] && [ -e "$ws/locked/r/.git.cordon-quarantined" ]
ok $? "a repository in a directory made unreadable is moved aside"

# 5. symlink loops beside a new repository: the walk follows none
fresh
sbx -- sh -c 'mkdir -p s/t && ln -s .. s/t/up && ln -s loop s/loop && ln -s "$PWD" s/ws && git init -q s/t/r'
[ "$rc" = 0 ] && [ ! -e "$ws/s/t/r/.git" ] && [ -L "$ws/s/t/up" ] &&
	[ "$(grep -c 'new during the run' "$base/rep.json")" = 1 ] &&
	[ "$(enforcement)" = full ]
ok $? "symlink loops are not followed; the repository beside them is moved aside"

# 6. a .git file rewritten to point elsewhere (landlock: it is writable)
fresh
mkdir -p "$ws/sub" "$base/evil"
git init -q --bare "$base/evil/g"
printf 'gitdir: %s\n' "$ws/.git" >"$ws/sub/.git"
sbx --backend landlock -- sh -c "printf 'gitdir: $base/evil/g\n' >sub/.git"
{ [ ! -e "$ws/sub/.git" ] || ! grep -q evil "$ws/sub/.git"; } &&
	grep -q "sub/.git: new during the run" "$base/rep.json"
ok $? "a gitdir: file rewritten during the run is moved aside"
rm -rf "$ws/sub/.git"*
printf 'gitdir: %s\n' "$ws/.git" >"$ws/sub/.git"
sbx --backend landlock -- true
! grep -q ': new during the run, moved' "$base/rep.json" && grep -q "gitdir: $ws/.git" "$ws/sub/.git"
ok $? "a gitdir: file left as it was is left"

# 7. a name with odd bytes (a newline, a control, a byte not UTF-8)
fresh
sbx -- sh -c 'd=$(printf "a\nb\001\377c"); mkdir -p "$d" && git init -q "$d"'
odd=$(printf 'a\nb\001\377c')
[ "$rc" = 0 ] && [ ! -e "$ws/$odd/.git" ] && [ -e "$ws/$odd/.git.cordon-quarantined" ] &&
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$base/rep.json" &&
	grep -qF 'a?b??c/.git: new during the run' "$base/rep.json" &&
	! grep -q "$(printf '\001')" "$tmp/err"
ok $? "a repository under a name with odd bytes is moved aside, named as '?' in the report and on stderr"

# 8. a bare repository (a git directory under any name): git takes it
# for the repository of every directory below it
fresh
sbx -- sh -c "git init -q --bare sub/b.git && git -C sub/b.git config core.pager 'touch $base/pwned'"
[ "$rc" = 0 ] && [ ! -e "$ws/sub/b.git" ] && [ -d "$ws/sub/b.git.cordon-quarantined" ] &&
	grep -q "git directory $ws/sub/b.git: new during the run, moved to b.git.cordon-quarantined" "$base/rep.json"
ok $? "a bare repository made during the run is moved aside"
mkdir -p "$ws/old"
git init -q --bare "$ws/old/b.git"
cp "$ws/old/b.git/config" "$base/config.before"
sbx -- sh -c "git -C old/b.git config core.pager 'touch $base/pwned'"
cmp -s "$ws/old/b.git/config" "$base/config.before" &&
	grep -q "git config $ws/old/b.git/config: a key that executes was added" "$base/rep.json"
ok $? "a bare repository there at the start: a key that executes added to its config is undone"

# 9. more entries than the budget (50000): what is past it is not trusted
fresh
sbx -- sh -c 'mkdir -p big z/r && cd big && seq 50100 | xargs touch && cd .. && git init -q z/r'
[ "$rc" = 0 ] && [ ! -e "$ws/z/r/.git" ] &&
	{ [ -e "$ws/z/r/.git.cordon-quarantined" ] ||
		grep -q 'not looked at (past SANDBOX_WALK_MAX_ENTRIES), moved to' "$base/rep.json"; } &&
	[ "$(enforcement)" = partial ]
ok $? "past the entry budget: the rest is moved aside, the run partial"
[ -d "$ws/big" ] || [ -d "$ws/big.cordon-quarantined" ]
ok $? "the tree past the budget is moved, not removed"

# 10. a workspace past the budget at the start: partial before the run
# (strict mode refuses it), and nothing of the user's is moved
fresh
mkdir -p "$ws/big" "$ws/keep"
(cd "$ws/big" && seq 50100 | xargs touch)
sbx --mode strict -- true
[ "$rc" != 0 ] && grep -q 'sweep: the writable roots not seen whole before the run' "$base/rep.json"
ok $? "strict mode refuses a workspace the sweep cannot see whole"
sbx -- true
[ "$rc" = 0 ] && [ -d "$ws/keep" ] && [ -d "$ws/big" ] && [ -d "$ws/.git" ] &&
	[ "$(enforcement)" = partial ]
ok $? "without strict: partial, and nothing there at the start is moved"

done_testing
