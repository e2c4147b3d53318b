/* seatbelt — the macOS Seatbelt profile for the sandbox options (on paper).
 *
 * Seatbelt applies the last rule that matches, so the profile is written
 * from broad to narrow: deny by default, open reads, the writable roots,
 * then the denials that must win over them (run-later paths, credentials,
 * --deny-read). Every path is normalised lexically (relative ones against
 * the workspace) and printed as a string literal; globs become anchored
 * regexes. The text depends only on the options, home, the port, the
 * XDG base directory variables (the credential table's places) and the
 * cwd when no workspace is given, so golden files can pin it.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "credentials.h"
#include "path.h"
#include "seatbelt.h"

#include "alloc.h"
#include "banned.h"

#define SB_ARENA_CEILING ((size_t)16 << 20)

/* Files a later command runs on the user's behalf: never writable. */
static const char *const sb_shell_rc[] = {
	".bashrc",  ".bash_profile", ".bash_login",   ".bash_logout",
	".profile", ".zshrc",	     ".zshenv",	      ".zprofile",
	".zlogin",  ".zlogout",	     ".config/fish/",
};

/* Inside every writable root: run later by git or an editor or agent. */
static const char *const sb_run_later[] = {
	".git/hooks/", ".git/config", ".cordon/", ".claude/",
	".codex/",     ".vscode/",    ".idea/",
};

/* Package caches, writable with cache_writes. */
static const char *const sb_caches[] = {
	".cache/",	   ".npm/",	  ".cargo/registry/", ".cargo/git/",
	"Library/Caches/", "go/pkg/mod/", ".m2/repository/",  ".gradle/caches/",
};

/* Readable under home with no_read_home: toolchains (rc files too). */
static const char *const sb_toolchains[] = {
	".cargo/bin/",
	".rustup/",
	".nvm/",
	".pyenv/",
	".rbenv/",
	".local/bin/",
	".volta/",
	".bun/",
	".deno/",
	"go/bin/",
	".sdkman/",
	".asdf/",
	".local/share/mise/",
};

#define LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The profile being written, with a ceiling, and scratch paths. */
struct sb {
	struct buf out; /* failed too when a scratch path cannot be made */
	struct arena a;
};

/* A Seatbelt string literal: backslash and double quote escaped, the
 * control characters as escapes. */
static void sb_string(struct sb *b, const char *s)
{
	buf_adds(&b->out, "\"");
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c == '\\' || *c == '"') {
			char e[2] = { '\\', (char)*c };

			buf_add(&b->out, e, 2);
		} else if (*c == '\n') {
			buf_adds(&b->out, "\\n");
		} else if (*c == '\t') {
			buf_adds(&b->out, "\\t");
		} else if (*c < 0x20 || *c == 0x7f) {
			buf_addf(&b->out, "\\x%02x", *c);
		} else {
			buf_add(&b->out, (const char *)c, 1);
		}
	}
	buf_adds(&b->out, "\"");
}

/* One literal byte inside a #"…" regex literal. A double quote would end
 * the literal and a control character has no portable escape there: both
 * become [^/], which in the deny rules that use regexes only widens the
 * match within one path component. */
static void sb_regex_char(struct sb *b, unsigned char c)
{
	static const char meta[] = ".^$|()[]{}*+?\\";

	if (c == '"' || c < 0x20 || c == 0x7f) {
		buf_adds(&b->out, "[^/]");
	} else if (strchr(meta, c)) {
		char e[2] = { '\\', (char)c };

		buf_add(&b->out, e, 2);
	} else {
		buf_add(&b->out, (const char *)&c, 1);
	}
}

static void sb_regex_literal(struct sb *b, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		sb_regex_char(b, *c);
}

/* A glob bracket class starting at g[0] == '['; returns the bytes used, or
 * 0 when it is not a class (no closing ']': then '[' is literal). A '/'
 * never matches, as in glob.h. A class holding a quote or a control
 * character becomes [^/] (see sb_regex_char). */
static size_t sb_glob_class(struct sb *b, const char *g)
{
	size_t i = 1, start;
	bool neg = false, odd = false;

	if (g[i] == '!' || g[i] == '^') {
		neg = true;
		i++;
	}
	start = i;
	if (g[i] == ']')
		i++;
	while (g[i] && g[i] != ']')
		i++;
	if (!g[i])
		return 0;
	for (size_t k = start; k < i; k++) {
		unsigned char c = (unsigned char)g[k];

		if (c == '"' || c < 0x20 || c == 0x7f)
			odd = true;
	}
	if (odd) {
		buf_adds(&b->out, "[^/]");
		return i + 1;
	}
	buf_adds(&b->out, neg ? "[^/" : "[");
	/* ']' must come first and a literal '^' must not; '/' is dropped. */
	if (g[start] == ']')
		buf_adds(&b->out, "]");
	for (size_t k = start; k < i; k++) {
		if ((k == start && g[k] == ']') || g[k] == '/' ||
		    (!neg && k == start && g[k] == '^'))
			continue;
		buf_add(&b->out, g + k, 1);
	}
	if (!neg && g[start] == '^')
		buf_adds(&b->out, "^");
	buf_adds(&b->out, "]");
	return i + 1;
}

/* base (literal text, may be "") followed by the glob g as an anchored
 * regex: '**' as a whole component any depth, '*' and '?' within one
 * component, classes, '\' escaping. g starts with '/' unless base is ""
 * and g is absolute. */
static void sb_glob_regex(struct sb *b, const char *base, const char *g)
{
	size_t i = 0, used;

	buf_adds(&b->out, "(regex #\"^");
	sb_regex_literal(b, base);
	while (g[i]) {
		bool at_start = i == 0 || g[i - 1] == '/';

		if (at_start && g[i] == '*' && g[i + 1] == '*' &&
		    (g[i + 2] == '/' || g[i + 2] == '\0')) {
			if (g[i + 2] == '/') {
				buf_adds(&b->out, "(.*/)?");
				i += 3;
			} else {
				buf_adds(&b->out, ".*");
				i += 2;
			}
		} else if (g[i] == '*') {
			buf_adds(&b->out, "[^/]*");
			i++;
		} else if (g[i] == '?') {
			buf_adds(&b->out, "[^/]");
			i++;
		} else if (g[i] == '[' && (used = sb_glob_class(b, g + i))) {
			i += used;
		} else if (g[i] == '\\' && g[i + 1]) {
			sb_regex_char(b, (unsigned char)g[i + 1]);
			i += 2;
		} else {
			sb_regex_char(b, (unsigned char)g[i]);
			i++;
		}
	}
	buf_adds(&b->out, "$\")");
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* macOS's /tmp, /var and /etc are symlinks into /private, and Seatbelt
 * matches resolved paths: p with that prefix rewritten (p itself when it
 * has none). */
static char *sb_private(struct sb *b, char *p)
{
	static const char *const linked[] = { "/tmp", "/var", "/etc" };
	size_t pl, ll;
	char *out;

	if (!p)
		return NULL;
	pl = strlen(p);
	for (size_t i = 0; i < LEN(linked); i++) {
		ll = strlen(linked[i]);
		if (strncmp(p, linked[i], ll) != 0 ||
		    (p[ll] != '/' && p[ll] != '\0'))
			continue;
		out = arena_alloc_raw(&b->a, pl + sizeof("/private"));
		if (!out) {
			buf_fail(&b->out);
			return NULL;
		}
		memcpy(out, "/private", 8);
		memcpy(out + 8, p, pl + 1);
		return out;
	}
	return p;
}

/* dir + "/" + name, normalised (name may end in '/', dropped), with the
 * /private prefix where macOS needs it. */
static char *sb_join(struct sb *b, const char *dir, const char *name)
{
	char *p = path_normalize(&b->a, dir, name, strlen(name));

	if (!p)
		buf_fail(&b->out);
	return sb_private(b, p);
}

/* One filter line for path: subpath for a directory entry (name ending in
 * '/'), else literal. */
static void sb_filter(struct sb *b, const char *dir, const char *name)
{
	size_t n = strlen(name);
	char *p;

	buf_adds(&b->out, "  ");
	p = sb_join(b, dir, name);
	if (!p)
		return;
	buf_adds(&b->out, n && name[n - 1] == '/' ? "(subpath " : "(literal ");
	sb_string(b, p);
	buf_adds(&b->out, ")\n");
}

static void sb_subpath(struct sb *b, const char *abs)
{
	buf_adds(&b->out, "  (subpath ");
	sb_string(b, abs);
	buf_adds(&b->out, ")\n");
}

/* A user path: "~/x" under home, relative under the workspace. NULL when
 * it names home and there is none (or out of memory: b->out failed). */
static char *sb_user_path(struct sb *b, const char *ws, const char *home,
			  const char *p)
{
	if (p[0] == '~' && (p[1] == '/' || p[1] == '\0')) {
		if (!home)
			return NULL;
		return sb_join(b, home, p[1] ? p + 2 : ".");
	}
	return sb_join(b, ws, p);
}

/* The writable roots: workspace first, then --write. */
static size_t sb_roots(struct sb *b, const struct sandbox_opts *o, const char *ws,
		       const char *home, const char **roots, size_t cap)
{
	size_t n = 0;

	roots[n++] = ws;
	for (size_t i = 0; i < o->nwrite && n < cap; i++) {
		char *p = sb_user_path(b, ws, home, o->write[i]);

		if (p)
			roots[n++] = p;
	}
	return n;
}

static void sb_header(struct sb *b)
{
	buf_adds(&b->out,
		 "(version 1)\n"
		 "; cordon: the Seatbelt profile `cordon run` would use on "
		 "macOS.\n"
		 "; Generated; the last matching rule wins.\n"
		 "(deny default)\n"
		 "\n"
		 "; processes: exec and fork; signals and process info only "
		 "within the sandbox\n"
		 "(allow process-exec)\n"
		 "(allow process-fork)\n"
		 "(allow signal (target same-sandbox))\n"
		 "(allow process-info* (target same-sandbox))\n"
		 "(allow sysctl-read)\n"
		 "(allow mach-lookup (global-name "
		 "\"com.apple.system.opendirectoryd.libinfo\"))\n"
		 "(allow ipc-posix-sem)\n"
		 "(allow pseudo-tty)\n"
		 "\n"
		 "; reads: open, except what is denied below\n"
		 "(allow file-read*)\n");
}

static void sb_no_read_home(struct sb *b, const char *home,
			    const char *const *roots, size_t nroots)
{
	buf_adds(&b->out,
		 "\n; --no-read-home: nothing under home is readable but "
		 "the writable roots,\n; toolchains and shell rc files "
		 "(metadata stays readable for path walks)\n"
		 "(deny file-read-data file-read-xattr\n");
	sb_subpath(b, home);
	buf_adds(&b->out, ")\n(allow file-read-data file-read-xattr\n");
	for (size_t i = 0; i < nroots; i++)
		sb_subpath(b, roots[i]);
	for (size_t i = 0; i < LEN(sb_toolchains); i++)
		sb_filter(b, home, sb_toolchains[i]);
	for (size_t i = 0; i < LEN(sb_shell_rc); i++)
		sb_filter(b, home, sb_shell_rc[i]);
	buf_adds(&b->out, ")\n");
}

static void sb_writes(struct sb *b, const struct sandbox_opts *o, const char *home,
		      const char *const *roots, size_t nroots)
{
	buf_adds(&b->out, "\n; writes: the writable roots and the temp dirs\n"
			  "(allow file-write*\n"
			  "  (subpath \"/private/tmp\")\n"
			  "  (subpath \"/private/var/folders\")\n");
	for (size_t i = 0; i < nroots; i++)
		sb_subpath(b, roots[i]);
	if (o->cache_writes && home)
		for (size_t i = 0; i < LEN(sb_caches); i++)
			sb_filter(b, home, sb_caches[i]);
	buf_adds(&b->out, ")\n"
			  "(allow file-write-data file-ioctl\n"
			  "  (literal \"/dev/null\")\n"
			  "  (literal \"/dev/zero\")\n"
			  "  (literal \"/dev/tty\")\n"
			  "  (literal \"/dev/ptmx\")\n"
			  "  (regex #\"^/dev/ttys[0-9]+$\"))\n");
}

static void sb_deny_run_later(struct sb *b, const char *home,
			      const char *const *roots, size_t nroots)
{
	buf_adds(&b->out,
		 "\n; run-later paths: never writable, even inside the "
		 "writable roots\n(deny file-write*\n");
	for (size_t r = 0; r < nroots; r++) {
		for (size_t i = 0; i < LEN(sb_run_later); i++)
			sb_filter(b, roots[r], sb_run_later[i]);
		/* Nested repositories, and submodules' git dirs under
		 * .git/modules/NAME/ (NAME may itself hold modules/). */
		buf_adds(&b->out, "  (regex #\"^");
		sb_regex_literal(b, roots[r]);
		buf_adds(&b->out, "/(.*/)?\\.git/(modules/([^/]+/)+)?"
				  "(hooks(/.*)?|config)$\")\n");
	}
	if (home)
		for (size_t i = 0; i < LEN(sb_shell_rc); i++)
			sb_filter(b, home, sb_shell_rc[i]);
	buf_adds(&b->out, ")\n");
}

/* The credential table's rows below one base directory: a directory as
 * a subpath, a file as a literal. */
static void sb_cred_base(struct sb *b, enum credentials_base base,
			 const char *dir)
{
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *row = &credentials_table[i];
		char *p;

		if (row->base != base)
			continue;
		p = sb_join(b, dir, row->path);
		if (!p)
			return;
		buf_adds(&b->out, row->dir ? "  (subpath " : "  (literal ");
		sb_string(b, p);
		buf_adds(&b->out, ")\n");
	}
}

/* Every row of the credential table (credentials.c), below its base's
 * default place in home and, when $XDG_..._HOME names another
 * directory, there too. */
static void sb_credentials(struct sb *b, const char *home)
{
	char dflt[PATH_MAX], xdg[PATH_MAX];

	for (int base = 0; base < CREDENTIALS_NBASE; base++) {
		char *x;

		if (credentials_base_dir(base, home, false, dflt,
					 sizeof(dflt)) != 0) {
			buf_fail(&b->out);
			return;
		}
		sb_cred_base(b, base, dflt);
		if (credentials_base_dir(base, home, true, xdg, sizeof(xdg)) !=
		    0)
			continue;
		x = sb_private(b, path_normalize(&b->a, "/", xdg, strlen(xdg)));
		if (!x) {
			buf_fail(&b->out);
			return;
		}
		if (strcmp(x, dflt) != 0)
			sb_cred_base(b, base, x);
	}
}

/* A --deny-read glob as a regex line: "~/…" under home, relative under
 * the workspace, one with no '/' at any depth of the workspace
 * (gitignore). The base directory is literal text; only the user's
 * pattern is read as a glob. home is set when g starts with "~/". */
static void sb_deny_glob(struct sb *b, const char *ws, const char *home,
			 const char *g)
{
	const char *base = "", *sep = "";
	size_t sl, gl;
	char *pat;

	if (g[0] == '~' && g[1] == '/') {
		base = home;
		g++;
	} else if (g[0] != '/') {
		base = ws;
		sep = strchr(g, '/') ? "/" : "/**/";
	}
	sl = strlen(sep);
	gl = strlen(g);
	pat = arena_alloc_raw(&b->a, sl + gl + 1);
	if (!pat) {
		buf_fail(&b->out);
		return;
	}
	memcpy(pat, sep, sl);
	memcpy(pat + sl, g, gl + 1);
	/* An absolute pattern gets the /private rewrite on its literal
	 * prefix (/tmp, /var, /etc). */
	if (!base[0])
		pat = sb_private(b, pat);
	if (!pat)
		return;
	buf_adds(&b->out, "  ");
	sb_glob_regex(b, base, pat);
	buf_adds(&b->out, "\n");
}

static void sb_deny_reads(struct sb *b, const struct sandbox_opts *o,
			  const char *ws, const char *home)
{
	if (home) {
		buf_adds(&b->out,
			 "\n; credentials: neither readable nor writable\n"
			 "(deny file-read* file-write*\n");
		sb_credentials(b, home);
		buf_adds(&b->out, ")\n");
	} else {
		buf_adds(&b->out,
			 "\n; credentials: no home directory given, none "
			 "denied\n");
	}
	if (o->ndeny_read == 0)
		return;
	buf_adds(&b->out, "\n; --deny-read\n(deny file-read* file-write*\n");
	for (size_t i = 0; i < o->ndeny_read; i++) {
		const char *d = o->deny_read[i];
		const char *p;

		if (d[0] == '~' && (d[1] == '/' || d[1] == '\0') && !home) {
			buf_adds(&b->out, "  ; (no home directory for ");
			sb_string(b, d);
			buf_adds(&b->out, ")\n");
		} else if (has_glob(d)) {
			sb_deny_glob(b, ws, home, d);
		} else if ((p = sb_user_path(b, ws, home, d))) {
			sb_subpath(b, p);
		}
	}
	buf_adds(&b->out, ")\n");
}

static void sb_network(struct sb *b, const struct sandbox_opts *o,
		       unsigned short proxy_port)
{
	switch (o->network) {
	case SANDBOX_NET_HOST:
		buf_adds(&b->out,
			 "\n; network: host\n"
			 "(allow network*)\n"
			 "(allow system-socket)\n"
			 "(allow mach-lookup\n"
			 "  (global-name \"com.apple.SystemConfiguration."
			 "DNSConfiguration\")\n"
			 "  (global-name \"com.apple.SystemConfiguration."
			 "configd\")\n"
			 "  (global-name \"com.apple.networkd\")\n"
			 "  (global-name \"com.apple.trustd.agent\")\n"
			 "  (global-name \"com.apple.ocspd\"))\n");
		break;
	case SANDBOX_NET_PROXY:
		if (proxy_port == 0) {
			buf_adds(&b->out,
				 "\n; network: proxy, but no proxy port: "
				 "none\n");
			break;
		}
		buf_addf(
			&b->out,
			"\n; network: only the egress proxy on localhost\n"
			"(allow network-outbound (remote ip \"localhost:%u\"))\n",
			(unsigned)proxy_port);
		break;
	case SANDBOX_NET_NONE:
	default:
		buf_adds(&b->out, "\n; network: none\n");
		break;
	}
}

char *seatbelt_profile(const struct sandbox_opts *o, const char *home,
		       unsigned short proxy_port)
{
	struct sb b = { BUF_INIT(SEATBELT_MAX_BYTES), { 0 } };
	const char **roots = NULL;
	const char *ws, *h = NULL;
	char *cwd = NULL;
	size_t nroots = 0;

	arena_init(&b.a, SB_ARENA_CEILING);
	ws = o->workspace ? o->workspace : ".";
	if (ws[0] != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd)
			goto fail;
	}
	ws = sb_private(&b,
			path_normalize(&b.a, cwd ? cwd : "/", ws, strlen(ws)));
	if (home && home[0])
		h = sb_private(&b,
			       path_normalize(&b.a, "/", home, strlen(home)));
	if (o->nwrite > SIZE_MAX / sizeof(*roots) - 1)
		goto fail;
	roots = cordon__calloc(o->nwrite + 1, sizeof(*roots));
	if (!ws || (home && home[0] && !h) || !roots)
		goto fail;
	nroots = sb_roots(&b, o, ws, h, roots, o->nwrite + 1);

	sb_header(&b);
	if (o->no_read_home && h)
		sb_no_read_home(&b, h, roots, nroots);
	else if (o->no_read_home)
		buf_adds(&b.out,
			 "\n; --no-read-home: no home directory given\n");
	sb_writes(&b, o, h, roots, nroots);
	sb_deny_run_later(&b, h, roots, nroots);
	sb_deny_reads(&b, o, ws, h);
	sb_network(&b, o, proxy_port);
	if (buf_failed(&b.out))
		goto fail;
	free(cwd);
	free(roots);
	arena_release(&b.a);
	return buf_take(&b.out, NULL);
fail:
	free(cwd);
	free(roots);
	buf_free(&b.out);
	arena_release(&b.a);
	return NULL;
}
