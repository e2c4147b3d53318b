#!/usr/bin/env bash
# `meson install` into a scratch DESTDIR: the binary, both libraries, the
# header, the pkg-config file, the man page, the bash completion and the
# Python package land where they should, and a program builds against the
# installed header and pkg-config file alone.
. "$(dirname "$0")/lib.sh"

build=${CORDON_BUILD_ROOT:-}
if [ -z "$build" ] || ! command -v meson >/dev/null; then
	skip "meson install" "no build root or no meson"
	done_testing
	exit 0
fi
dest=$tmp/dest
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "meson install --destdir exits 0"

prefix=$(meson introspect "$build" --buildoptions 2>/dev/null |
	python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])')
root=$dest$prefix
for f in bin/cordon include/cordon.h share/man/man1/cordon.1 \
	share/bash-completion/completions/cordon; do
	[ -f "$root/$f" ]
	ok $? "installed $f"
done
for pat in 'libcordon.so.*' 'libcordon.a' 'cordon.pc' '__init__.py'; do
	[ -n "$(find "$root" -name "$pat" -print -quit)" ]
	ok $? "installed $pat"
done

pcdir=$(dirname "$(find "$root" -name cordon.pc -print -quit)")
libdir=$(dirname "$(find "$root" -name 'libcordon.so.*' -print -quit)")
cat >"$tmp/t.c" <<'C'
#include <cordon.h>
#include <stdio.h>
int main(void)
{
	puts(cordon_risk_name(CORDON_RISK_BLOCKED));
	return 0;
}
C
# A sanitized build's library needs its runtime loaded first.
asan=$(ldd "$(find "$libdir" -name 'libcordon.so.*' -print -quit)" |
	awk '/libasan/ { print $3 }')
# The .pc file names the prefix without DESTDIR: a copy points there.
mkdir -p "$tmp/pc"
sed "s|^prefix=.*|prefix=$root|" "$pcdir/cordon.pc" >"$tmp/pc/cordon.pc"
if cc -o "$tmp/t" "$tmp/t.c" \
	$(PKG_CONFIG_PATH=$tmp/pc pkg-config --cflags --libs cordon) \
	>"$tmp/out" 2>"$tmp/err" &&
	[ "$(LD_LIBRARY_PATH=$libdir LD_PRELOAD=$asan \
		ASAN_OPTIONS=detect_leaks=0 "$tmp/t")" = blocked ]; then
	rc=0
else
	rc=1
fi
ok $rc "a program builds and runs against the installed pkg-config file"

# The installed static library exports only the public names: every
# internal function is local, so a host program may use names such as
# glob_match or sh_parse for its own.
archive=$(find "$root" -name libcordon.a -print -quit)
nm -g --defined-only "$archive" 2>/dev/null |
	awk 'NF == 3 { print $3 }' | grep -v '^__' >"$tmp/syms"
others=$(grep -v '^cordon_' "$tmp/syms" | head -5 | tr '\n' ' ')
[ -s "$tmp/syms" ] && [ -z "$others" ]
ok $? "libcordon.a exports only cordon_* ($(wc -l <"$tmp/syms") names${others:+; also: $others})"

cat >"$tmp/host.c" <<'C'
#include <cordon.h>
#include <stdio.h>
/* Names the library uses inside: the host's own must win. */
int glob_match(void) { return 7; }
int sh_parse(void) { return 8; }
int arena_init(void) { return 9; }
int main(void)
{
	struct cordon_classifier *cls = cordon_classifier_new(NULL);
	struct cordon_verdict *v = cordon_verdict_new();
	int rc = cls && v &&
		 cordon_classify(cls, NULL, "rm -rf /", 8, v, NULL) == CORDON_OK;

	printf("%s %d\n", rc ? cordon_risk_name(cordon_verdict_risk(v)) : "error",
	       glob_match() + sh_parse() + arena_init());
	cordon_verdict_free(v);
	cordon_classifier_free(cls);
	return 0;
}
C
asan_flags=
[ -n "$asan" ] && asan_flags="-fsanitize=address,undefined"
if cc $asan_flags -o "$tmp/host" "$tmp/host.c" -I"$root/include" "$archive" \
	$(pkg-config --libs libcjson libpcre2-8 libseccomp openssl) -lpthread \
	>"$tmp/out" 2>"$tmp/err" &&
	[ "$(ASAN_OPTIONS=detect_leaks=0 "$tmp/host")" = "blocked 24" ]; then
	rc=0
else
	rc=1
fi
ok $rc "a program with its own glob_match, sh_parse and arena_init links libcordon.a statically and classifies"

grep -q '^\.SH' "$root/share/man/man1/cordon.1" &&
	grep -q 'cordon mcp' "$root/share/man/man1/cordon.1"
ok $? "the man page has its sections, the MCP gateway among them"
# The Python package lands where the distribution's python3 finds it
# (Debian: PREFIX/lib/python3.X/dist-packages, not site-packages).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
init=$(find "$root" -path '*/cordon/__init__.py' -print -quit)
pkgdir=$(dirname "$(dirname "${init#"$dest"}")")
"$py" -c 'import sys; sys.exit(0 if sys.argv[1] in sys.path else 1)' "$pkgdir"
ok $? "the Python package is in $pkgdir, on $py's sys.path"

done_testing
