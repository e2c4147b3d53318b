/* path — see path.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "alloc.h"
#include "path.h"

#include "banned.h"

char *path_normalize(struct arena *a, const char *cwd, const char *p, size_t n)
{
	size_t cl = (n && p[0] == '/') ? 0 : strlen(cwd);
	char *out = arena_alloc_raw(a, cl + n + 3);
	size_t o = 0;

	if (!out)
		return NULL;
	/* Build "cwd/p" and collapse it in place, one component at a time. */
	char *tmp = arena_alloc_raw(a, cl + n + 3);
	if (!tmp)
		return NULL;
	size_t t = 0;
	if (cl) {
		memcpy(tmp, cwd, cl);
		t = cl;
		tmp[t++] = '/';
	}
	memcpy(tmp + t, p, n);
	t += n;

	out[o++] = '/';
	size_t i = 0;
	while (i < t) {
		while (i < t && tmp[i] == '/')
			i++;
		size_t s = i;
		while (i < t && tmp[i] != '/')
			i++;
		size_t len = i - s;
		if (len == 0 || (len == 1 && tmp[s] == '.'))
			continue;
		if (len == 2 && tmp[s] == '.' && tmp[s + 1] == '.') {
			/* Lexically: "/.." is "/". */
			while (o > 1 && out[o - 1] != '/')
				o--;
			if (o > 1)
				o--;
			continue;
		}
		if (o > 1)
			out[o++] = '/';
		memcpy(out + o, tmp + s, len);
		o += len;
	}
	out[o] = '\0';
	return out;
}

bool path_under(const char *abs, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(abs, dir, n) == 0 && (abs[n] == '\0' || abs[n] == '/');
}

/* Top-level directories that belong to the system. */
static const char *const system_dirs[] = {
	"/etc",  "/usr",   "/bin",  "/sbin",   "/lib",    "/lib32",
	"/lib64", "/libx32", "/boot", "/dev",   "/proc",   "/sys",
	"/var",  "/opt",   "/srv",  "/root",   "/snap",   "/run",
	"/mnt",  "/media", "/System", "/Library", "/Applications",
	"/private", "/nix", "/home", "/Users", "/lost+found", "/cdrom",
};

/* Every pattern below is a literal, or a literal and one final '*'; they
 * are matched by hand (libc's fnmatch cost about 250 instructions a
 * pattern, and a "2>/dev/null" asked it up to 38 times). */
struct dev_glob {
	const char *s;
	unsigned char n;	/* the literal's length */
	bool star;		/* a final '*' follows the literal */
};
#define DEV_LIT(p) {p, sizeof(p) - 1, false}
#define DEV_STAR(p) {p, sizeof(p) - 1, true}

static const struct dev_glob device_globs[] = {
	DEV_STAR("/dev/sd"),  DEV_STAR("/dev/hd"),   DEV_STAR("/dev/vd"),
	DEV_STAR("/dev/xvd"), DEV_STAR("/dev/nvme"), DEV_STAR("/dev/mmcblk"),
	DEV_STAR("/dev/disk"), DEV_STAR("/dev/mapper/"), DEV_STAR("/dev/md"),
	DEV_STAR("/dev/dm-"), DEV_STAR("/dev/loop"), DEV_STAR("/dev/sr"),
	DEV_STAR("/dev/rdisk"), DEV_LIT("/dev/mem"),  DEV_LIT("/dev/kmem"),
	DEV_LIT("/dev/port"), DEV_STAR("/dev/fb"),   DEV_STAR("/dev/nbd"),
	DEV_STAR("/dev/zd"),  DEV_STAR("/dev/ubi"),  DEV_STAR("/dev/mtd"),
	DEV_STAR("/dev/block/"), DEV_LIT("/dev/root"), DEV_STAR("/dev/cciss/"),
};

/* matched as with FNM_PATHNAME: the '*' takes no '/' */
static const struct dev_glob harmless_dev[] = {
	DEV_LIT("/dev/null"),   DEV_LIT("/dev/zero"),   DEV_LIT("/dev/full"),
	DEV_LIT("/dev/random"), DEV_LIT("/dev/urandom"), DEV_LIT("/dev/stdin"),
	DEV_LIT("/dev/stdout"), DEV_LIT("/dev/stderr"), DEV_LIT("/dev/tty"),
	DEV_STAR("/dev/fd/"),   DEV_STAR("/dev/pts/"),  DEV_STAR("/dev/shm/"),
	DEV_LIT("/dev/ptmx"),   DEV_STAR("/proc/self/fd/"),
};

/* fnmatch(g, abs, in_dir ? FNM_PATHNAME : 0) == 0 for these patterns */
static bool dev_glob_match(const struct dev_glob *g, const char *abs,
			   size_t n, bool in_dir)
{
	if (n < g->n || memcmp(abs, g->s, g->n) != 0)
		return false;
	if (!g->star)
		return n == g->n;
	return !in_dir || !memchr(abs + g->n, '/', n - g->n);
}

enum path_class path_classify(const struct path_ctx *pc, const char *abs)
{
	size_t i;

	if (strcmp(abs, "/") == 0)
		return PATH_ROOT;
	if (strncmp(abs, "/dev", 4) != 0 && strncmp(abs, "/proc", 5) != 0)
		goto not_dev;
	size_t n = strlen(abs);
	/* "/dev/shm" and everything under it is /tmp's like */
	if (path_under(abs, "/dev/shm"))
		return PATH_TMP;
	for (i = 0; i < sizeof(harmless_dev) / sizeof(*harmless_dev); i++)
		if (dev_glob_match(&harmless_dev[i], abs, n, true))
			return PATH_DEV_HARMLESS;
	for (i = 0; i < sizeof(device_globs) / sizeof(*device_globs); i++)
		if (dev_glob_match(&device_globs[i], abs, n, false))
			return PATH_DEVICE;
not_dev:
	if (strcmp(abs, pc->workspace) == 0)
		return PATH_WORKSPACE_ROOT;
	if (path_under(abs, pc->workspace) && strcmp(pc->workspace, "/") != 0)
		return PATH_WORKSPACE;
	if (path_under(abs, "/tmp") || path_under(abs, "/var/tmp") ||
	    (pc->tmpdir && strcmp(pc->tmpdir, "/") != 0 &&
	     path_under(abs, pc->tmpdir)))
		return strcmp(abs, "/tmp") == 0 || strcmp(abs, "/var/tmp") == 0
			       ? PATH_SYSTEM
			       : PATH_TMP;
	if (strcmp(abs, pc->home) == 0)
		return PATH_HOME_ROOT;
	if (strcmp(pc->home, "/") != 0 && path_under(abs, pc->home))
		return PATH_HOME;
	for (i = 0; i < sizeof(system_dirs) / sizeof(*system_dirs); i++)
		if (path_under(abs, system_dirs[i]))
			return (strcmp(system_dirs[i], "/home") == 0 ||
				strcmp(system_dirs[i], "/Users") == 0) &&
					       strcmp(abs, system_dirs[i]) != 0
				       ? PATH_OUTSIDE
				       : PATH_SYSTEM;
	return PATH_OUTSIDE;
}

static const char *base_name(const char *abs)
{
	const char *s = strrchr(abs, '/');
	return s ? s + 1 : abs;
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && memcmp(s + n - k, suf, k) == 0;
}

bool path_is_secret(const char *abs)
{
	/* directories whose every file is a credential */
	static const char *const dirs[] = {
		"/.ssh", "/.aws", "/.azure", "/.gnupg", "/.config/gcloud",
		"/.kube", "/.config/gh", "/.password-store", "/.docker/config.json",
		"/.vault-token",
		/* the agents' own logins */
		"/.claude/.credentials.json", "/.claude.json", "/.codex/auth.json",
		"/.gemini/oauth_creds.json", "/.gemini/mcp-oauth-tokens.json",
		"/.gemini/gemini-credentials.json",
	};
	/* file names that hold credentials wherever they are */
	static const char *const names[] = {
		".env", "credentials", "secrets", "id_rsa", "id_dsa", "id_ecdsa",
		"id_ed25519", ".netrc", ".npmrc", ".pypirc", ".git-credentials",
		"shadow", "gshadow", "master.key", ".pgpass", ".my.cnf", "sudoers",
	};
	static const char *const suffixes[] = {
		".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".kdbx", ".env",
	};
	const char *b = base_name(abs);
	size_t bn = strlen(b);
	size_t i;

	/* the entries of dirs that start with "/." cannot be in a path
	 * without "/.": one scan rules them out for most paths */
	bool dotted = strstr(abs, "/.") != NULL;

	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		if (!dotted && dirs[i][1] == '.')
			continue;
		const char *hit = strstr(abs, dirs[i]);
		size_t dn = strlen(dirs[i]);
		if (hit && (hit[dn] == '\0' || hit[dn] == '/'))
			return true;
	}
	/* ".env.example" and friends document names, not values */
	if (strcmp(b, ".env.example") == 0 || strcmp(b, ".env.sample") == 0 ||
	    strcmp(b, ".env.template") == 0 || strcmp(b, ".env.dist") == 0)
		return false;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (names[i][0] != b[0])
			continue;
		size_t k = strlen(names[i]);
		/* the name itself, or name.something (credentials.json,
		 * .env.local, id_rsa.pub is public but still a key file) */
		if (bn >= k && memcmp(b, names[i], k) == 0 &&
		    (b[k] == '\0' || b[k] == '.'))
			return true;
	}
	/* a name without a '.' ends in none of the suffixes that start
	 * with one */
	bool dot = memchr(b, '.', bn) != NULL;
	for (i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
		if ((dot || suffixes[i][0] != '.') &&
		    ends_with(b, bn, suffixes[i]))
			return true;
	return false;
}

int path_runs_later(const struct path_ctx *pc, const char *abs)
{
	static const char *const rc[] = {
		".bashrc",  ".bash_profile", ".bash_login", ".profile",
		".zshrc",   ".zshenv",       ".zprofile",   ".zlogin",
		".kshrc",   ".cshrc",        ".tcshrc",     ".bash_logout",
		".inputrc", ".xprofile",     ".xinitrc",    ".vimrc",
		".exrc",    ".gvimrc",       ".emacs",      ".screenrc",
		".tmux.conf", ".gitconfig",  ".wgetrc",     ".curlrc",
	};
	/* a directory component anywhere in the path: files under it run
	 * later, or configure what runs */
	static const char *const dirs[] = {
		"/.git/hooks", "/.config/systemd/", "/.config/autostart/",
		"/Library/LaunchAgents/", "/Library/LaunchDaemons/",
		"/var/spool/cron/", "/.vscode/", "/.claude/", "/.cordon/",
		"/.codex/", "/.idea/", "/.husky/",
	};
	const char *b = base_name(abs);
	size_t i;

	(void)pc;
	for (i = 0; i < sizeof(rc) / sizeof(*rc); i++)
		if (b[0] == '.' && strcmp(b, rc[i]) == 0)
			return 1;
	if (strstr(abs, "/.config/fish/config.fish"))
		return 1;
	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		const char *hit = strstr(abs, dirs[i]);
		size_t n = strlen(dirs[i]);
		if (hit && (dirs[i][n - 1] == '/' || hit[n] == '\0' || hit[n] == '/'))
			return 2;
		/* the directory itself: cp x.desktop ~/.config/autostart/ */
		size_t al = strlen(abs);
		if (dirs[i][n - 1] == '/' && al >= n - 1 &&
		    memcmp(abs + al - (n - 1), dirs[i], n - 1) == 0)
			return 2;
	}
	/* Python runs .pth files in site-packages at every start */
	if (strstr(abs, "/site-packages/") && strlen(b) > 4 &&
	    strcmp(b + strlen(b) - 4, ".pth") == 0)
		return 2;
	if (strstr(abs, "/sitecustomize.py") || strstr(abs, "/usercustomize.py"))
		return 2;
	if (strstr(abs, "/.git/config") && (strstr(abs, "/.git/config")[12] == '\0'))
		return 2;
	if (strstr(abs, "/.ssh/authorized_keys"))
		return 2;
	return 0;
}

bool path_is_repo_db(const char *abs)
{
	static const char *const files[] = { "HEAD", "ORIG_HEAD", "index",
					     "packed-refs" };
	static const char *const dirs[] = { "refs", "objects", "logs" };
	const char *g = abs;

	while ((g = strstr(g, "/.git/")) != NULL) {
		const char *r = g + 6;
		size_t n = strcspn(r, "/");
		g = r;
		for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
			if (r[n] == '\0' && strlen(files[i]) == n &&
			    memcmp(r, files[i], n) == 0)
				return true;
		for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
			if (strlen(dirs[i]) == n && memcmp(r, dirs[i], n) == 0)
				return strlen(r) < 5 ||
				       strcmp(r + strlen(r) - 5, ".lock") != 0;
	}
	return false;
}

/* ---- paths from tool calls ----------------------------------------------- */

/* The next component of s[*i..n): skips separators, sets *st and *len and
 * moves *i past it. False when only separators are left. */
static bool next_comp(const char *s, size_t n, size_t *i, size_t *st,
		      size_t *len)
{
	while (*i < n && s[*i] == '/')
		(*i)++;
	if (*i == n)
		return false;
	*st = *i;
	while (*i < n && s[*i] != '/')
		(*i)++;
	*len = *i - *st;
	return true;
}

/* Appends the components of s[0..n) to out[0..o), whose first r bytes are a
 * root that ".." never removes. "." and empty components vanish; each kept
 * component costs one '/' plus its bytes. Returns the new length. */
static size_t collapse_into(char *out, size_t r, size_t o, const char *s,
			    size_t n)
{
	size_t i = 0, st, len;

	while (next_comp(s, n, &i, &st, &len)) {
		if (len == 1 && s[st] == '.')
			continue;
		if (len == 2 && s[st] == '.' && s[st + 1] == '.') {
			while (o > r && out[o - 1] != '/')
				o--;
			if (o > r)
				o--;
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, s + st, len);
		o += len;
	}
	return o;
}

static bool is_drive(const char *s, size_t n)
{
	return n >= 2 && s[1] == ':' &&
	       ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
}

static char drive_letter(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool looks_absolute(const char *s, size_t n)
{
	return (n > 0 && s[0] == '/') || is_drive(s, n);
}

/* The next component of s[*i..n) that is not "." or "..", as next_comp. */
static bool next_name(const char *s, size_t n, size_t *i, size_t *st,
		      size_t *len)
{
	while (next_comp(s, n, i, st, len))
		if (s[*st] != '.' ||
		    (*len != 1 && (*len != 2 || s[*st + 1] != '.')))
			return true;
	return false;
}

/* The root of a UNC path s[0..n) ("//" then a non-'/'), written to out:
 * "//server/share", or "//server" when there is no share; "." and ".."
 * where the share would be are dropped, so the root is never climbed
 * above. The Win32 namespaces "//?/" and "//./" followed by a drive
 * ("//?/C:/x") or by "UNC/server/…" are unwrapped to the drive or UNC path
 * they name. Sets *rest to where the components after the root begin and
 * *unc to false when the result is a drive root ("c:"). */
static size_t unc_root(const char *s, size_t n, char *out, size_t *rest,
		       bool *unc)
{
	size_t i = 2, st = 2, len = 0, o = 0;

	/* the server as written, even "." or ".." */
	(void)next_comp(s, n, &i, &st, &len);
	for (;;) {
		size_t j = i, k, cst, clen, kst, klen;

		if (len != 1 || (s[st] != '?' && s[st] != '.'))
			break;
		/* the share is found skipping dots below, so the namespace
		 * is judged on the same component */
		if (!next_name(s, n, &j, &cst, &clen))
			break;
		if (is_drive(s + cst, clen)) {
			out[0] = drive_letter(s[cst]);
			out[1] = ':';
			*rest = cst + 2;
			*unc = false;
			return 2;
		}
		k = j;
		if (clen != 3 || strncasecmp(s + cst, "UNC", 3) != 0 ||
		    !next_name(s, n, &k, &kst, &klen))
			break;
		i = k;
		st = kst;
		len = klen;
	}
	out[o++] = '/';
	out[o++] = '/';
	memcpy(out + o, s + st, len);
	o += len;
	if (next_name(s, n, &i, &st, &len)) {
		out[o++] = '/';
		memcpy(out + o, s + st, len);
		o += len;
	}
	*rest = i;
	*unc = true;
	return o;
}

/* Normalises s[0..n), which has no '\' and looks absolute (a '/' first or a
 * drive), into a new arena string. */
static char *norm_absolute(struct arena *a, const char *s, size_t n)
{
	/* The root and every kept component cost at most the bytes they came
	 * from plus one ("c:x" becomes "c:/x"), and a bare root gains a '/'. */
	char *out = arena_alloc_raw(a, n + 4);
	size_t r, o, rest;
	bool unc = false;

	if (!out)
		return NULL;
	if (n >= 3 && s[0] == '/' && s[1] == '/' && s[2] != '/') {
		r = unc_root(s, n, out, &rest, &unc);
	} else if (s[0] == '/') {
		r = 0;
		rest = 0;
	} else {
		out[0] = drive_letter(s[0]);
		out[1] = ':';
		r = 2;
		rest = 2;
	}
	o = collapse_into(out, r, r, s + rest, n - rest);
	if (o == r && !unc)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

/* Copies s[0..n) to d turning every '\' into '/'. */
static void copy_slashed(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = s[i] == '\\' ? '/' : s[i];
}

/* The call's cwd, normalised: a missing or empty cwd is "/", a relative
 * one is taken from "/". */
static char *norm_cwd(struct arena *a, const char *cwd)
{
	size_t n = cwd ? strlen(cwd) : 0;
	char *buf;

	if (n == 0)
		return norm_absolute(a, "/", 1);
	if (n > SIZE_MAX - 2)
		return NULL;
	buf = arena_alloc_raw(a, n + 2);
	if (!buf)
		return NULL;
	buf[0] = '/';
	copy_slashed(buf + 1, cwd, n);
	if (looks_absolute(buf + 1, n))
		return norm_absolute(a, buf + 1, n);
	return norm_absolute(a, buf, n + 1);
}

/* Only the bytes before a NUL count: that is all a system call would see.
 * "~user/…" is not expanded (it would need the password database), and
 * neither is "~" without a home: both stay relative names. */
char *path_normalize_call(struct arena *a, const char *cwd, const char *home,
			  const char *p, size_t n)
{
	const char *nul = n ? memchr(p, '\0', n) : NULL;
	size_t hl = 0, sn, cl, total;
	bool tilde;
	char *src, *c, *joined;

	if (nul)
		n = (size_t)(nul - p);
	if (home && home[0] == '\0')
		home = NULL;
	tilde = home && n > 0 && p[0] == '~' &&
		(n == 1 || p[1] == '/' || p[1] == '\\');
	if (tilde) {
		hl = strlen(home);
		p++;
		n--;
	}
	if (__builtin_add_overflow(hl, n, &sn) || sn == SIZE_MAX)
		return NULL;
	src = arena_alloc_raw(a, sn + 1);
	if (!src)
		return NULL;
	copy_slashed(src, home ? home : "", hl);
	copy_slashed(src + hl, p, n);
	if (looks_absolute(src, sn))
		return norm_absolute(a, src, sn);

	c = norm_cwd(a, cwd);
	if (!c)
		return NULL;
	cl = strlen(c);
	if (__builtin_add_overflow(cl, sn, &total) ||
	    __builtin_add_overflow(total, 1, &total))
		return NULL;
	joined = arena_alloc_raw(a, total);
	if (!joined)
		return NULL;
	/* A normalised cwd ends in '/' only when it is a bare root ("/",
	 * "c:/"); adding another would turn "/" + "x" into a UNC "//x". */
	memcpy(joined, c, cl);
	if (c[cl - 1] != '/')
		joined[cl++] = '/';
	memcpy(joined + cl, src, sn);
	return norm_absolute(a, joined, cl + sn);
}

/* How many symbolic links path_resolve follows by itself, as the kernel
 * does in one lookup (MAXSYMLINKS); past it the path is a loop. */
#define PATH_LINK_HOPS 40

/* Replaces cur (the symlink cur[0..e), then the tail cur[e..len)) with the
 * link's target followed by the tail. False when the link cannot be read
 * or the result does not fit in PATH_MAX. */
static bool follow_link(char *cur, size_t *len, size_t e)
{
	char target[PATH_MAX], next[PATH_MAX];
	size_t dir = 0, tl = *len - e, nl;
	ssize_t r;

	cur[e] = '\0';
	r = readlink(cur, target, sizeof(target));
	cur[e] = tl ? '/' : '\0';
	if (r <= 0 || (size_t)r >= sizeof(target))
		return false;
	if (target[0] != '/') {
		/* relative to the directory holding the link */
		for (size_t i = 0; i < e; i++)
			if (cur[i] == '/')
				dir = i + 1;
	}
	nl = dir + (size_t)r + tl;
	if (nl >= sizeof(next))
		return false;
	memcpy(next, cur, dir);
	memcpy(next + dir, target, (size_t)r);
	memcpy(next + dir + (size_t)r, cur + e, tl);
	next[nl] = '\0';
	memcpy(cur, next, nl + 1);
	*len = nl;
	return true;
}

/* The longest prefix of the path that lstat(2) finds is resolved with
 * realpath(3). When that fails because the prefix is a symbolic link whose
 * target does not exist (a dangling link, or a link into a directory that
 * is not there yet), the link is read and the walk starts again on its
 * target plus the rest, so the answer is where a write would land. The
 * part after the resolved prefix does not exist, so it is collapsed
 * lexically. False for a relative path, a link loop (more than
 * PATH_LINK_HOPS links followed), or a result longer than PATH_MAX or cap. */
bool path_resolve(const char *abs, char *out, size_t cap)
{
	char cur[PATH_MAX], real[PATH_MAX], res[PATH_MAX];
	size_t len, e, rl, tl, o;
	int hops = 0;

	if (!abs || abs[0] != '/')
		return false;
	len = strlen(abs);
	if (len >= sizeof(cur))
		return false;
	memcpy(cur, abs, len + 1);
restart:
	e = len;
	for (;;) {
		struct stat st;
		char saved = cur[e];
		const char *prefix = e ? cur : "/";
		bool found;

		cur[e] = '\0';
		found = lstat(prefix, &st) == 0;
		if (found && realpath(prefix, real) != NULL) {
			cur[e] = saved;
			break;
		}
		cur[e] = saved;
		if (found && S_ISLNK(st.st_mode)) {
			if (++hops > PATH_LINK_HOPS ||
			    !follow_link(cur, &len, e))
				return false;
			goto restart;
		}
		if (e == 0)
			return false;
		/* the prefix ending at the previous '/' */
		do
			e--;
		while (e > 0 && cur[e] != '/');
	}
	rl = strlen(real);
	tl = len - e;
	if (rl + tl >= sizeof(res))
		return false;
	/* realpath gives "/" or "/a/b": "/" is the empty root here */
	o = (rl == 1) ? 0 : rl;
	memcpy(res, real, o);
	o = collapse_into(res, 0, o, cur + e, tl);
	if (o == 0)
		res[o++] = '/';
	if (o >= cap)
		return false;
	memcpy(out, res, o);
	out[o] = '\0';
	return true;
}

/* openat2(2) arguments, from <linux/openat2.h> (kept here so older headers
 * build too). */
struct path_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

#define PATH_RESOLVE_NO_SYMLINKS 0x04
#define PATH_RESOLVE_NO_MAGICLINKS 0x02

/* 1: opened link-free; 0: not (or unknown); -1: does not exist. */
static int open_link_free(const char *p)
{
#ifdef SYS_openat2
	struct path_open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = PATH_RESOLVE_NO_SYMLINKS | PATH_RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof(how));

	if (fd >= 0) {
		close((int)fd);
		return 1;
	}
	return errno == ENOENT ? -1 : 0;
#else
	(void)p;
	return 0;
#endif
}

bool path_link_free(const char *abs)
{
	char parent[PATH_MAX];
	size_t n = strlen(abs);

	if (abs[0] != '/' || (n > 1 && abs[1] == '/'))
		return false;
	int r = open_link_free(abs);
	if (r >= 0)
		return r == 1;
	/* A new file: its directory must exist and be reached link-free. */
	while (n > 1 && abs[n - 1] != '/')
		n--;
	if (n <= 1)
		return true; /* "/x": the root holds no link */
	if (n - 1 >= sizeof(parent))
		return false;
	memcpy(parent, abs, n - 1);
	parent[n - 1] = '\0';
	return open_link_free(parent) == 1;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t sep = la && a[la - 1] == '/' ? 0 : 1;
	char *p;

	if (la > SIZE_MAX - lb - sep - 1)
		return NULL;
	p = cordon__malloc(la + sep + lb + 1);
	if (!p)
		return NULL;
	memcpy(p, a, la);
	if (sep)
		p[la] = '/';
	memcpy(p + la + sep, b, lb + 1);
	return p;
}
