/* plan — what the parent decides before it clones (sandbox_int.h).
 *
 * The plan is the list of mounts the child applies in order (writable
 * roots, $HOME's binds under --no-read-home, the masks of mask.c,
 * --deny-read and its globs, run-later and deny_write paths), the
 * Landlock writable roots, and the arena their paths live in. Every path
 * is canonical; a failure names the step in p->error.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "atomic.h"
#include "credentials.h"
#include "landlock.h"
#include "sandbox_int.h"

#include "banned.h"

/* Secrets in the workspace, masked in every run (glob.h syntax, relative
 * to the workspace, floating at any depth). */
static const char *const default_deny_globs[] = {
	".env",
	".env.*",
	"*.pem",
	"*.key",
};

/* Workspace entries that another program runs later, outside the
 * sandbox: the family is "configuration that makes a tool on the host
 * execute something", whoever the tool is. Agents' project settings
 * (hooks, MCP servers they start, commands they allow), editors' tasks,
 * launch configurations and extension recommendations, the dev container
 * (initializeCommand runs on the host), direnv's .envrc (run by the
 * user's shell on cd). One that exists is re-bound read-only. A missing
 * one is held by a placeholder when `hold` (a mount each: the ones whose
 * reader may start during the run), else the sweep after the run moves it
 * aside when it appeared (sweep.c). */
const struct sandbox_run_later_name
	sandbox_plan_ws_run_later[SANDBOX_NWS_RUN_LATER] = {
		/* agents */
		{ ".cordon", true },
		{ ".claude", true },
		{ ".codex", true },
		{ ".gemini", false },
		{ ".cursor", false },
		{ ".continue", false },
		{ ".windsurf", false },
		{ ".roo", false },
		{ ".amazonq", false },
		{ ".kiro", false },
		{ ".qwen", false },
		{ ".clinerules", false },
		{ ".mcp.json", false },
		/* editors */
		{ ".vscode", true },
		{ ".idea", true },
		{ ".zed", false },
		{ ".fleet", false },
		/* the host runs these */
		{ ".devcontainer", false },
		{ ".devcontainer.json", false },
		{ ".envrc", false },
	};

/* Globs of the same family, matched at launch by the walk (a name that
 * appears later is the post-run sweep's: see the report). */
static const char *const ws_run_later_globs[] = {
	"*.code-workspace",
};

/* Deeper paths of the same family, protected (and the directories above
 * them pinned) when they exist at launch. A missing one is not held: a
 * placeholder would keep its parent (.github) from being made, and the
 * sweep moves aside names directly in the workspace only. */
static const char *const ws_run_later_deep[] = {
	".github/hooks", /* Copilot CLI's hooks */
};

/* What runs later from $HOME: shell rc and git configuration (every shell
 * and git), the session's autostart (systemd user units, desktop
 * autostart, environment files read at login), and the agents' and
 * editors' user settings that start programs (hooks, MCP servers, tasks).
 * Protected when $HOME is writable (--write $HOME). */
static const char *const home_run_later[] = {
	".bashrc",
	".bash_profile",
	".bash_login",
	".bash_logout",
	".profile",
	".zshrc",
	".zshenv",
	".zprofile",
	".zlogin",
	".zlogout",
	".gitconfig",
	".config/git/config",
	".config/fish/config.fish",
	".config/systemd/user",
	".config/autostart",
	".config/environment.d",
	".pam_environment",
	".xprofile",
	".xsessionrc",
	".xinitrc",
	".claude/settings.json",
	".claude/settings.local.json",
	".codex/config.toml",
	".gemini/settings.json",
	".cursor/mcp.json",
	".config/Code/User/settings.json",
	".config/Code/User/tasks.json",
};

/* Toolchains kept readable with --no-read-home. */
static const char *const home_toolchains[] = {
	".cargo/bin",
	".rustup",
	".nvm",
	".local/bin",
	".local/lib",
	".pyenv",
	".rbenv",
	"go",
	".deno",
	".bun",
	".volta",
	".sdkman",
	".npm-global",
	".asdf",
	".ghcup",
	".opam",
	".nix-profile",
	".local/share/pnpm",
	".local/share/mise",
	"bin",
};

__attribute__((format(printf, 2, 3))) int
sandbox_plan_fail(struct sandbox_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* A truncated message still names the step. */
	(void)vsnprintf(p->error, sizeof(p->error), fmt, ap);
	va_end(ap);
	return -1;
}

char *sandbox_plan_strdup(struct sandbox_plan *p, const char *s)
{
	return arena_strndup(&p->arena, s, strlen(s));
}

/* a + "/" + b in the arena; NULL when too long (PATH_MAX with its NUL)
 * or out of memory. By memcpy, not snprintf: a plan joins every row of
 * the credential table to each of its bases (~260 joins a run). */
char *sandbox_plan_join(struct sandbox_plan *p, const char *a, const char *b)
{
	size_t al = strcmp(a, "/") == 0 ? 0 : strlen(a), bl = strlen(b);
	char *out;

	if (al + 1 + bl >= PATH_MAX)
		return NULL;
	out = arena_alloc_raw(&p->arena, al + 1 + bl + 1);
	if (!out)
		return NULL;
	memcpy(out, a, al);
	out[al] = '/';
	memcpy(out + al + 1, b, bl + 1);
	return out;
}

/* realpath(path) into out (PATH_MAX bytes), remembered for the rest of
 * the plan: the workspace, $HOME and /etc are the parents of most planned
 * paths, and realpath reads every component of a path again (a readlink
 * each). Only what exists is remembered; false with errno otherwise. */
static bool plan_realpath(struct sandbox_plan *p, const char *path, char *out)
{
	struct sandbox_canon *c;

	for (size_t i = 0; i < p->ncanon; i++) {
		if (strcmp(p->canon[i].in, path) == 0) {
			memcpy(out, p->canon[i].out,
			       strlen(p->canon[i].out) + 1);
			return true;
		}
	}
	if (!realpath(path, out))
		return false;
	if (p->ncanon < SANDBOX_CANON_CACHE) {
		c = &p->canon[p->ncanon];
		c->in = sandbox_plan_strdup(p, path);
		c->out = sandbox_plan_strdup(p, out);
		if (c->in && c->out)
			p->ncanon++;
	}
	return true;
}

void sandbox_plan_canon_forget(struct sandbox_plan *p)
{
	p->ncanon = 0;
}

/* The canonical form of path in the arena; NULL with errno. */
char *sandbox_plan_canon(struct sandbox_plan *p, const char *path)
{
	char buf[PATH_MAX];

	if (!plan_realpath(p, path, buf))
		return NULL;
	return sandbox_plan_strdup(p, buf);
}

char *sandbox_plan_canon_stat(struct sandbox_plan *p, const char *path,
			      struct stat *st)
{
	char *canon;

	if (lstat(path, st) != 0)
		return NULL;
	canon = sandbox_plan_canon(p, path);
	/* A name that is no symlink is what its canonical form names. */
	if (canon && S_ISLNK(st->st_mode) && stat(canon, st) != 0)
		return NULL;
	return canon;
}

bool sandbox_plan_path_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return path[0] == '/';
	return strncmp(path, root, n) == 0 &&
	       (path[n] == '\0' || path[n] == '/');
}

/* Under a writable root that shows the host's files: not the private /tmp
 * or the --no-read-home tmpfs of the namespaces backend. */
bool sandbox_plan_host_writable(const struct sandbox_plan *p, const char *path)
{
	for (size_t i = 0; i < p->nrw; i++) {
		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (p->o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (sandbox_plan_path_under(path, p->rw[i]))
			return true;
	}
	return false;
}

static size_t path_depth(const char *path)
{
	size_t d = 0;

	for (const char *s = path; *s; s++)
		d += *s == '/';
	return d;
}

int sandbox_plan_add_op(struct sandbox_plan *p, enum sandbox_op_kind kind,
			unsigned flags, const char *target, const char *source,
			const char *step)
{
	struct sandbox_op *op;

	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].kind == kind &&
		    strcmp(p->ops[i].target, target) == 0)
			return 0;
	if (p->nops >= SANDBOX_MAX_MOUNTS)
		return sandbox_plan_fail(
			p, "%s %s: more than %d mounts (SANDBOX_MAX_MOUNTS)",
			step, target, SANDBOX_MAX_MOUNTS);
	op = &p->ops[p->nops++];
	op->kind = kind;
	op->flags = flags;
	op->target = target;
	op->source = source;
	op->step = step;
	op->src_fd = -1;
	return 0;
}

int sandbox_plan_add_rw(struct sandbox_plan *p, const char *path)
{
	for (size_t i = 0; i < p->nrw; i++)
		if (strcmp(p->rw[i], path) == 0)
			return 0;
	if (p->nrw >= SANDBOX_MAX_LIST + 32)
		return sandbox_plan_fail(
			p, "writable root %s: more than %d (SANDBOX_MAX_LIST)",
			path, SANDBOX_MAX_LIST);
	p->rw[p->nrw++] = path;
	return 0;
}

/* parent's canonical form + "/" + path's last name, in the arena; NULL
 * with errno when the parent does not exist. */
char *sandbox_plan_canon_parent(struct sandbox_plan *p, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t dl;

	if (!slash || slash[1] == '\0')
		return sandbox_plan_canon(p, path);
	dl = (size_t)(slash - path);
	if (dl >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(dir, path, dl);
	dir[dl] = '\0';
	if (!plan_realpath(p, dl ? dir : "/", real))
		return NULL;
	return sandbox_plan_join(p, real, slash + 1);
}

/* path with its longest existing ancestor canonical and the names after
 * it kept as they are (its last name, the missing ones); NULL when too
 * long. */
char *sandbox_plan_canon_loose(struct sandbox_plan *p, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX], out[PATH_MAX];
	size_t k = strlen(path);
	char *c = sandbox_plan_canon_parent(p, path);
	int n;

	if (c || path[0] != '/' || k >= sizeof(dir))
		return c;
	memcpy(dir, path, k + 1);
	while (k > 0) {
		while (k > 0 && dir[k] != '/')
			k--;
		dir[k] = '\0';
		if (!plan_realpath(p, k ? dir : "/", real))
			continue;
		n = snprintf(out, sizeof(out), "%s%s",
			     strcmp(real, "/") == 0 ? "" : real, path + k);
		if (n < 0 || (size_t)n >= sizeof(out))
			return NULL;
		return sandbox_plan_strdup(p, out);
	}
	return NULL;
}

static int cmp_depth(const void *a, const void *b)
{
	const struct sandbox_op *x = a, *y = b;
	size_t dx = path_depth(x->target), dy = path_depth(y->target);

	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->target, y->target);
}

/* A writable root given by the user: must exist; canonicalised. */
int sandbox_plan_writable(struct sandbox_plan *p, const char *path,
			  const char *step, bool optional, const char **out)
{
	struct stat st;
	char *canon = sandbox_plan_canon(p, path);

	if (out)
		*out = NULL;
	if (!canon) {
		if (optional)
			return 0;
		return sandbox_plan_fail(p, "%s %s: %s", step, path,
					 strerror(errno));
	}
	if (stat(canon, &st) != 0)
		return sandbox_plan_fail(p, "%s %s: %s", step, path,
					 strerror(errno));
	if (strcmp(canon, "/") == 0 && p->backend == SANDBOX_BACKEND_NAMESPACES)
		return sandbox_plan_fail(p,
					 "%s %s: / cannot be a writable root "
					 "(use --mode off)",
					 step, path);
	if (out)
		*out = canon;
	return sandbox_plan_add_rw(p, canon);
}

/* The binds of $HOME under --no-read-home: toolchains and rc files
 * read-only. */
static int plan_home_binds(struct sandbox_plan *p)
{
	char link[PATH_MAX];
	size_t n = sizeof(home_toolchains) / sizeof(home_toolchains[0]);
	size_t m = sizeof(home_run_later) / sizeof(home_run_later[0]);

	for (size_t i = 0; i < n + m; i++) {
		const char *rel = i < n ? home_toolchains[i] :
					  home_run_later[i - n];
		char *path = sandbox_plan_join(p, p->home, rel);
		struct stat st;

		if (!path)
			return sandbox_plan_fail(p, "$HOME/%s: path too long",
						 rel);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			ssize_t len = readlink(path, link, sizeof(link) - 1);
			char *canon, *text;

			if (len <= 0)
				continue;
			link[len] = '\0';
			text = sandbox_plan_strdup(p, link);
			if (!text ||
			    sandbox_plan_add_op(p, OP_SYMLINK, OPF_CREATE, path,
						text, "toolchain symlink"))
				return text ? -1 :
					      sandbox_plan_fail(
						      p, "out of memory");
			canon = sandbox_plan_canon(p, path);
			if (canon && sandbox_plan_path_under(canon, p->home) &&
			    stat(canon, &st) == 0 &&
			    sandbox_plan_add_op(p, OP_BIND_RO,
						OPF_CREATE |
							(S_ISDIR(st.st_mode) ?
								 0 :
								 OPF_FILE),
						canon, canon, "toolchain"))
				return -1;
			continue;
		}
		if (sandbox_plan_add_op(
			    p, OP_BIND_RO,
			    OPF_CREATE | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
			    path, path, i < n ? "toolchain" : "rc file"))
			return -1;
	}
	return 0;
}

/* cordon's own configuration and caches (the probe's verdict) are "run
 * later" too: a sandboxed command must not loosen the next run. */
static int plan_cordon_dirs(struct sandbox_plan *p)
{
	static const enum atomic_xdg dirs[] = {
		ATOMIC_XDG_CONFIG,
		ATOMIC_XDG_CACHE,
		ATOMIC_XDG_STATE,
	};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char full[PATH_MAX];

		if (atomic_xdg_path(dirs[i], p->home, NULL, full,
				    sizeof(full)) != 0)
			continue;
		if (sandbox_runlater_path(p, full, RL_PLACEHOLDER | RL_DIR))
			return -1;
	}
	return 0;
}

/* The run-later paths of one writable root (the workspace, or a --write
 * root when !ws): its repository, the table's names (held by placeholders
 * in the workspace only), the deeper paths. $HOME as a --write root keeps
 * only its repository: home_run_later covers the rest. */
static int plan_root_run_later(struct sandbox_plan *p, const char *root,
			       bool ws)
{
	if (sandbox_runlater_repo(p, root))
		return -1;
	if (!ws && strcmp(root, p->home) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(sandbox_plan_ws_run_later) /
				       sizeof(sandbox_plan_ws_run_later[0]);
	     i++) {
		const struct sandbox_run_later_name *rl =
			&sandbox_plan_ws_run_later[i];
		char *path = sandbox_plan_join(p, root, rl->name);

		if (!path ||
		    sandbox_runlater_path(p, path,
					  ws && rl->hold ? RL_PLACEHOLDER : 0))
			return path ? -1 :
				      sandbox_plan_fail(p, "path too long");
	}
	for (size_t i = 0;
	     i < sizeof(ws_run_later_deep) / sizeof(ws_run_later_deep[0]);
	     i++) {
		char *path = sandbox_plan_join(p, root, ws_run_later_deep[i]);

		if (!path || sandbox_runlater_path(p, path, 0))
			return path ? -1 :
				      sandbox_plan_fail(p, "path too long");
	}
	return 0;
}

/* One base directory of the credential table's: its rows, each as an
 * absolute path and, when it lies below $HOME (at most
 * SANDBOX_READ_DEPTH components deeper), as the path below it; rel is
 * dir's own path below $HOME ("" for $HOME, NULL outside it). */
static int plan_cred_base(struct sandbox_plan *p, enum credentials_base base,
			  const char *dir, const char *rel)
{
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *row = &credentials_table[i];
		struct sandbox_cred *c;
		struct stat st;
		size_t depth = 1;

		if (row->base != base)
			continue;
		if (p->ncreds >= 2 * credentials_count)
			return sandbox_plan_fail(p, "credential table: full");
		c = &p->creds[p->ncreds++];
		c->abs = sandbox_plan_join(p, dir, row->path);
		c->rel = NULL;
		if (rel && rel[0])
			c->rel = sandbox_plan_join(p, rel, row->path);
		else if (rel)
			c->rel = row->path;
		if (!c->abs || (rel && !c->rel))
			return sandbox_plan_fail(p, "%s/%s: path too long", dir,
						 row->path);
		for (const char *s = c->rel; s && *s; s++)
			depth += *s == '/';
		if (depth > SANDBOX_READ_DEPTH + 1)
			c->rel = NULL;
		/* Landlock cannot leave it out: said in the report when it
		 * exists. */
		if (!c->rel && !p->cred_unguarded && lstat(c->abs, &st) == 0)
			p->cred_unguarded = true;
	}
	return 0;
}

/* path below $HOME: "" for $HOME itself, NULL when it is not below it
 * (or $HOME is /, which the read layer does not cover). */
static const char *plan_below_home(const struct sandbox_plan *p,
				   const char *path)
{
	size_t hl = strlen(p->home);

	if (strcmp(p->home, "/") == 0 ||
	    !sandbox_plan_path_under(path, p->home))
		return NULL;
	return path[hl] ? path + hl + 1 : "";
}

int sandbox_plan_creds(struct sandbox_plan *p)
{
	char dflt[PATH_MAX], xdg[PATH_MAX];

	p->creds = arena_alloc(&p->arena,
			       sizeof(p->creds[0]) * 2 * credentials_count);
	if (!p->creds)
		return sandbox_plan_fail(p, "out of memory");
	p->ncreds = 0;
	for (int b = 0; b < CREDENTIALS_NBASE; b++) {
		const char *canon;

		if (credentials_base_dir(b, p->home, false, dflt,
					 sizeof(dflt)) != 0)
			return sandbox_plan_fail(p, "$HOME: path too long");
		if (plan_cred_base(p, b, dflt, plan_below_home(p, dflt)))
			return -1;
		/* $XDG_CONFIG_HOME … as well as the default: a file left
		 * there from before the variable was set is as secret. */
		if (credentials_base_dir(b, p->home, true, xdg, sizeof(xdg)) !=
		    0)
			continue;
		canon = sandbox_plan_canon(p, xdg);
		if (!canon || strcmp(canon, dflt) == 0)
			continue; /* missing: nothing in it to hide */
		if (plan_cred_base(p, b, canon, plan_below_home(p, canon)))
			return -1;
	}
	return 0;
}

/* The credential masks of the namespaces backend: every location of the
 * table that exists. */
int sandbox_plan_cred_masks(struct sandbox_plan *p)
{
	for (size_t i = 0; i < p->ncreds; i++)
		if (sandbox_mask_path(p, p->creds[i].abs, "credential mask"))
			return -1;
	return 0;
}

/* Rounds up the mounts, in the order the child applies them. */
int sandbox_plan_mounts(struct sandbox_plan *p)
{
	const struct sandbox_opts *o = p->o;
	size_t first_bind;

	if (o->no_read_home) {
		if (strcmp(p->home, "/") == 0)
			return sandbox_plan_fail(p,
						 "--no-read-home: $HOME is /");
		if (sandbox_plan_add_op(p, OP_TMPFS, 0, p->home, NULL,
					"--no-read-home tmpfs") ||
		    sandbox_plan_add_rw(p, p->home))
			return -1;
	}
	first_bind = p->nops;
	if (o->no_read_home && plan_home_binds(p))
		return -1;
	for (size_t i = 0; i < p->nrw; i++) {
		struct stat st;

		if (strcmp(p->rw[i], "/tmp") == 0 ||
		    (o->no_read_home && strcmp(p->rw[i], p->home) == 0))
			continue;
		if (stat(p->rw[i], &st) != 0)
			return sandbox_plan_fail(p, "writable root %s: %s",
						 p->rw[i], strerror(errno));
		if (sandbox_plan_add_op(
			    p, OP_BIND_RW,
			    OPF_CREATE | (S_ISDIR(st.st_mode) ? 0 : OPF_FILE),
			    p->rw[i], p->rw[i], "writable root"))
			return -1;
	}
	/* Parents before children, so a nested root lands on top. */
	qsort(p->ops + first_bind, p->nops - first_bind, sizeof(p->ops[0]),
	      cmp_depth);

	if (sandbox_mask_host_sockets(p) || sandbox_mask_root_files(p))
		return -1;
	if (sandbox_plan_cred_masks(p))
		return -1;

	/* --deny-read and the default secret globs; then one walk of the
	 * workspace finds their matches and the nested repositories. */
	for (size_t i = 0;
	     i < sizeof(default_deny_globs) / sizeof(default_deny_globs[0]);
	     i++)
		if (sandbox_walk_deny_entry(p, default_deny_globs[i]))
			return -1;
	p->nwalk_default = p->nwalk_glob;
	for (size_t i = 0; i < o->ndeny_read; i++)
		if (sandbox_walk_deny_entry(p, o->deny_read[i]))
			return -1;

	if (plan_root_run_later(p, p->ws, true))
		return -1;
	for (size_t i = 0;
	     i < sizeof(ws_run_later_globs) / sizeof(ws_run_later_globs[0]);
	     i++)
		if (sandbox_walk_deny_write_entry(p, ws_run_later_globs[i]))
			return -1;
	/* Every other writable root is one too: its repository, its editor
	 * tasks and agent settings run on the host as the workspace's do
	 * (no placeholders there: a missing name is not held). $HOME has a
	 * list of its own (home_run_later), whose agents' directories stay
	 * writable for their state. */
	for (size_t i = 0; i < o->nwrite; i++) {
		char *c = sandbox_plan_canon(p, o->write[i]);

		if (c && !sandbox_plan_path_under(c, p->ws) &&
		    plan_root_run_later(p, c, false))
			return -1;
	}
	/* A missing rc file directly in $HOME is kept from being created by
	 * a Landlock layer (no new entries directly in $HOME), not by a
	 * placeholder the host would see; unless $HOME is (inside) the
	 * workspace, whose top level must stay open: placeholders then. */
	if (!o->no_read_home && sandbox_plan_host_writable(p, p->home))
		p->home_nocreate = landlock_abi() >= 1 &&
				   !sandbox_plan_path_under(p->home, p->ws);
	if (plan_cordon_dirs(p))
		return -1;
	if (!o->no_read_home && sandbox_plan_host_writable(p, p->home)) {
		for (size_t i = 0;
		     i < sizeof(home_run_later) / sizeof(home_run_later[0]);
		     i++) {
			const char *rel = home_run_later[i];
			char *path = sandbox_plan_join(p, p->home, rel);
			bool top = !strchr(rel, '/');

			/* Dotfile managers symlink rc files: protect the
			 * file they point to. */
			if (!path ||
			    sandbox_runlater_path(
				    p, path,
				    RL_FOLLOW | (top && p->home_nocreate ?
							 0 :
							 RL_PLACEHOLDER)))
				return path ? -1 :
					      sandbox_plan_fail(
						      p, "path too long");
		}
	}
	for (size_t i = 0; i < o->ndeny_write; i++)
		if (sandbox_walk_deny_write_entry(p, o->deny_write[i]))
			return -1;
	if (sandbox_walk_root(p, p->ws, true))
		return -1;
	/* The --write roots for their hard links (the package caches of
	 * --cache-writes are the managers' own stores: not walked). */
	for (size_t i = 0; i < o->nwrite; i++) {
		char *c = sandbox_plan_canon(p, o->write[i]);

		if (c && !sandbox_plan_path_under(c, p->ws) &&
		    sandbox_walk_root(p, c, false))
			return -1;
	}
	for (size_t i = 0; i < p->nwalk_roots; i++)
		if (sandbox_walk_root(p, p->walk_roots[i], false))
			return -1;
	return 0;
}
