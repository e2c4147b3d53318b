/* path — see path.h. */
#include <fnmatch.h>
#include <string.h>

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

static const char *const device_globs[] = {
	"/dev/sd*",  "/dev/hd*",   "/dev/vd*",    "/dev/xvd*",  "/dev/nvme*",
	"/dev/mmcblk*", "/dev/disk*", "/dev/mapper/*", "/dev/md*", "/dev/dm-*",
	"/dev/loop*", "/dev/sr*",  "/dev/rdisk*", "/dev/mem",   "/dev/kmem",
	"/dev/port", "/dev/fb*",   "/dev/nbd*",   "/dev/zd*",   "/dev/ubi*",
	"/dev/mtd*", "/dev/block/*", "/dev/root", "/dev/cciss/*",
};

static const char *const harmless_dev[] = {
	"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
	"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/*",
	"/dev/pts/*", "/dev/shm/*", "/dev/ptmx", "/proc/self/fd/*",
};

enum path_class path_classify(const struct path_ctx *pc, const char *abs)
{
	size_t i;

	if (strcmp(abs, "/") == 0)
		return PATH_ROOT;
	if (strncmp(abs, "/dev", 4) != 0 && strncmp(abs, "/proc", 5) != 0)
		goto not_dev;
	for (i = 0; i < sizeof(harmless_dev) / sizeof(*harmless_dev); i++)
		if (fnmatch(harmless_dev[i], abs, FNM_PATHNAME) == 0 ||
		    (strcmp(harmless_dev[i], "/dev/shm/*") == 0 &&
		     path_under(abs, "/dev/shm")))
			return strncmp(abs, "/dev/shm", 8) == 0 ? PATH_TMP
							       : PATH_DEV_HARMLESS;
	for (i = 0; i < sizeof(device_globs) / sizeof(*device_globs); i++)
		if (fnmatch(device_globs[i], abs, 0) == 0)
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

	for (i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
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
		size_t k = strlen(names[i]);
		/* the name itself, or name.something (credentials.json,
		 * .env.local, id_rsa.pub is public but still a key file) */
		if (bn >= k && memcmp(b, names[i], k) == 0 &&
		    (b[k] == '\0' || b[k] == '.'))
			return true;
	}
	for (i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
		if (ends_with(b, bn, suffixes[i]))
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
