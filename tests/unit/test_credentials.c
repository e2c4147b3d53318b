/* The credential table (src/base/credentials.c) is the one list: every
 * row reaches the namespaces backend's masks, the Landlock read layer's
 * names and the Seatbelt profile, and nothing else does. A location added
 * to one of them alone fails here. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "credentials.h"
#include "sandbox_int.h"
#include "seatbelt.h"
#include "tap.h"

static const char *const base_dirs[CREDENTIALS_NBASE] = {
	[CREDENTIALS_HOME] = "",
	[CREDENTIALS_CONFIG] = ".config/",
	[CREDENTIALS_DATA] = ".local/share/",
	[CREDENTIALS_STATE] = ".local/state/",
};

static void unset_xdg(void)
{
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_DATA_HOME");
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CACHE_HOME");
}

/* Each row: a relative path of plain components, the only one of its
 * place. */
static void check_rows(void)
{
	size_t bad = 0, dup = 0;

	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];
		size_t n = strlen(r->path);

		if (r->base >= CREDENTIALS_NBASE || n == 0 ||
		    r->path[0] == '/' || r->path[n - 1] == '/' ||
		    strstr(r->path, "//") || strstr(r->path, "/./") ||
		    strstr(r->path, "..") || strchr(r->path, '*')) {
			diag("bad row %zu: %s", i, r->path);
			bad++;
		}
		for (size_t k = 0; k < i; k++)
			if (credentials_table[k].base == r->base &&
			    strcmp(credentials_table[k].path, r->path) == 0) {
				diag("row %zu repeats row %zu: %s", i, k,
				     r->path);
				dup++;
			}
	}
	is_int((int)bad, 0, "every row is a relative path, no glob");
	is_int((int)dup, 0, "no row twice");
	ok(credentials_count > 100, "the table has its %zu rows",
	   credentials_count);
}

/* The lines of the profile's credential block, one per row in order. */
static void check_seatbelt(void)
{
	struct sandbox_opts o;
	char *prof, *blk, *end, want[PATH_MAX + 64];
	size_t lines = 0, missing = 0;

	memset(&o, 0, sizeof(o));
	o.workspace = "/h/ws";
	unset_xdg();
	prof = seatbelt_profile(&o, "/h", 0);
	ok(prof != NULL, "seatbelt: a profile");
	if (!prof)
		return;
	blk = strstr(prof, "; credentials: neither readable nor writable\n"
			   "(deny file-read* file-write*\n");
	ok(blk != NULL, "seatbelt: the credential block");
	if (!blk) {
		free(prof);
		return;
	}
	blk = strchr(strchr(blk, '\n') + 1, '\n') + 1;
	end = strstr(blk, "\n)\n");
	for (const char *s = blk; end && s <= end; s = strchr(s, '\n') + 1)
		lines++;
	is_int((int)lines, (int)credentials_count,
	       "seatbelt: one line a row, no other");
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];

		snprintf(want, sizeof(want), "  (%s \"/h/%s%s\")\n",
			 r->dir ? "subpath" : "literal", base_dirs[r->base],
			 r->path);
		if (!strstr(blk, want) || strstr(blk, want) > end) {
			diag("seatbelt lacks %s", want);
			missing++;
		}
	}
	is_int((int)missing, 0, "seatbelt: every row denied in its place");
	free(prof);
}

/* Makes every row's location in home (a directory, or a file in its
 * directory). */
static int make_rows(const char *home)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s%s", home,
			 base_dirs[r->base], r->path);
		for (char *s = path + strlen(home) + 1; *s; s++) {
			if (*s != '/')
				continue;
			*s = '\0';
			if (mkdir(path, 0700) != 0 && errno != EEXIST)
				return -1;
			*s = '/';
		}
		if (r->dir) {
			if (mkdir(path, 0700) != 0 && errno != EEXIST)
				return -1;
			continue;
		}
		f = fopen(path, "w");
		if (!f)
			return -1;
		fputs("secret\n", f);
		fclose(f);
	}
	return 0;
}

static void plan_init(struct sandbox_plan *p, struct sandbox_opts *o,
		      const char *home)
{
	memset(o, 0, sizeof(*o));
	memset(p, 0, sizeof(*p));
	p->o = o;
	p->ph_fd = -1;
	arena_init(&p->arena, SANDBOX_ARENA_MAX);
	p->home = home;
	p->ws = "/nonexistent-ws";
	p->ops = arena_alloc(&p->arena, sizeof(p->ops[0]) * SANDBOX_MAX_MOUNTS);
	p->rw = arena_alloc(&p->arena, sizeof(p->rw[0]) * 8);
}

/* The masks and the read layer's names: one each per row, from the
 * default places. */
static void check_plan(const char *home)
{
	struct sandbox_plan p;
	struct sandbox_opts o;
	char want[PATH_MAX];
	size_t masks = 0, missing = 0, badrel = 0;

	unset_xdg();
	plan_init(&p, &o, home);
	ok(sandbox_plan_creds(&p) == 0 && sandbox_plan_cred_masks(&p) == 0,
	   "plan: credential masks (%s)", p.error);
	is_int((int)p.ncreds, (int)credentials_count, "plan: one per row");
	for (size_t i = 0; i < p.nops; i++)
		masks += strcmp(p.ops[i].step, "credential mask") == 0;
	is_int((int)masks, (int)credentials_count,
	       "plan: one mask a row, no other");
	for (size_t i = 0; i < credentials_count; i++) {
		const struct credentials_row *r = &credentials_table[i];
		bool found = false;

		snprintf(want, sizeof(want), "%s/%s%s", home,
			 base_dirs[r->base], r->path);
		for (size_t k = 0; k < p.nops && !found; k++)
			found = strcmp(p.ops[k].target, want) == 0 &&
				(p.ops[k].kind ==
				 (r->dir ? OP_MASK_DIR : OP_MASK_FILE));
		if (!found) {
			diag("no mask over %s", want);
			missing++;
		}
		snprintf(want, sizeof(want), "%s%s", base_dirs[r->base],
			 r->path);
		found = false;
		for (size_t k = 0; k < p.ncreds && !found; k++)
			found = p.creds[k].rel &&
				strcmp(p.creds[k].rel, want) == 0;
		if (!found) {
			diag("read layer: %s is not left out", want);
			badrel++;
		}
	}
	is_int((int)missing, 0, "plan: every row masked");
	is_int((int)badrel, 0, "read layer: every row left out by its name");
	ok(!p.cred_unguarded, "plan: nothing outside $HOME");
	arena_release(&p.arena);
}

/* $XDG_CONFIG_HOME below $HOME: its rows there as well, by name below
 * $HOME; outside $HOME: masked, and said to be out of the read layer's
 * reach. */
static void check_xdg(const char *home, const char *outside)
{
	struct sandbox_plan p;
	struct sandbox_opts o;
	char dir[PATH_MAX], want[PATH_MAX];
	size_t nconfig = 0, there = 0, named = 0, unnamed = 0;
	FILE *f;

	for (size_t i = 0; i < credentials_count; i++)
		nconfig += credentials_table[i].base == CREDENTIALS_CONFIG;
	snprintf(dir, sizeof(dir), "%s/xc", home);
	mkdir(dir, 0700);
	unset_xdg();
	setenv("XDG_CONFIG_HOME", dir, 1);
	plan_init(&p, &o, home);
	ok(sandbox_plan_creds(&p) == 0, "xdg in $HOME: planned (%s)", p.error);
	is_int((int)p.ncreds, (int)(credentials_count + nconfig),
	       "xdg in $HOME: the config rows twice");
	for (size_t i = 0; i < p.ncreds; i++) {
		if (strncmp(p.creds[i].abs, dir, strlen(dir)) != 0)
			continue;
		there++;
		snprintf(want, sizeof(want), "xc/%s",
			 p.creds[i].abs + strlen(dir) + 1);
		named += p.creds[i].rel && strcmp(p.creds[i].rel, want) == 0;
	}
	is_int((int)there, (int)nconfig, "xdg in $HOME: every config row");
	is_int((int)named, (int)nconfig,
	       "xdg in $HOME: the read layer leaves them out by name");
	ok(!p.cred_unguarded, "xdg in $HOME: nothing unguarded");
	arena_release(&p.arena);

	snprintf(dir, sizeof(dir), "%s/gh", outside);
	mkdir(outside, 0700);
	mkdir(dir, 0700);
	snprintf(dir, sizeof(dir), "%s/gh/hosts.yml", outside);
	f = fopen(dir, "w");
	if (f) {
		fputs("token\n", f);
		fclose(f);
	}
	setenv("XDG_CONFIG_HOME", outside, 1);
	plan_init(&p, &o, home);
	ok(sandbox_plan_creds(&p) == 0 && sandbox_plan_cred_masks(&p) == 0,
	   "xdg outside $HOME: planned (%s)", p.error);
	snprintf(want, sizeof(want), "%s/gh", outside);
	there = 0;
	for (size_t i = 0; i < p.nops; i++)
		there += strcmp(p.ops[i].target, want) == 0 &&
			 p.ops[i].kind == OP_MASK_DIR;
	is_int((int)there, 1, "xdg outside $HOME: its gh masked");
	for (size_t i = 0; i < p.ncreds; i++)
		unnamed += strncmp(p.creds[i].abs, outside, strlen(outside)) ==
				   0 &&
			   !p.creds[i].rel;
	is_int((int)unnamed, (int)nconfig,
	       "xdg outside $HOME: no name below $HOME");
	ok(p.cred_unguarded, "xdg outside $HOME: reported for Landlock");
	arena_release(&p.arena);

	setenv("XDG_CONFIG_HOME", "relative/cfg", 1);
	plan_init(&p, &o, home);
	ok(sandbox_plan_creds(&p) == 0 && p.ncreds == credentials_count,
	   "a relative $XDG_CONFIG_HOME is ignored");
	arena_release(&p.arena);
	unset_xdg();
}

int main(void)
{
	/* /tmp is no symlink here: the scratch paths are canonical */
	char tmpl[] = "/tmp/test_credentials.XXXXXX", home[64], outside[64],
	     cmd[96];
	char *t;

	tap_no_plan();
	check_rows();
	check_seatbelt();
	t = mkdtemp(tmpl);
	if (!t) {
		ok(0, "a scratch directory");
		return tap_done();
	}
	snprintf(home, sizeof(home), "%s/home", t);
	snprintf(outside, sizeof(outside), "%s/outside", t);
	mkdir(home, 0700);
	ok(make_rows(home) == 0, "every row made in a scratch home");
	check_plan(home);
	check_xdg(home, outside);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t);
	if (system(cmd) != 0)
		diag("could not remove %s", t);
	return tap_done();
}
