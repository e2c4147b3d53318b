/* names — see names.h. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "names.h"
#include "wrappers.h"
#include "banned.h"

/* Slots, a power of two; the index is used only while at most half full,
 * so that a probe ends soon. */
#define NAMES_CAP 2048u

static struct name_roles slots[NAMES_CAP];
static size_t used;
static bool ready;
static bool built; /* build() has run (ready says whether it succeeded) */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static size_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

static struct name_roles *probe(const char *s, size_t n)
{
	size_t i = hash(s, n) & (NAMES_CAP - 1);

	while (slots[i].name &&
	       !(slots[i].len == n && memcmp(slots[i].name, s, n) == 0))
		i = (i + 1) & (NAMES_CAP - 1);
	return &slots[i];
}

/* The slot for s[0..n), made when new; NULL when the index is full. */
static struct name_roles *slot_for(const char *s, size_t n)
{
	struct name_roles *sl = probe(s, n);

	if (sl->name)
		return sl;
	if (used >= NAMES_CAP / 2)
		return NULL;
	used++;
	sl->name = s;
	sl->len = n;
	return sl;
}

/* Sets flag on every name of a list; false when the index is full. */
static bool flag_names(const char *const *names, size_t n, unsigned flag)
{
	for (size_t i = 0; i < n; i++) {
		struct name_roles *sl = slot_for(names[i], strlen(names[i]));
		if (!sl)
			return false;
		sl->flags |= flag;
	}
	return true;
}

static void build(void)
{
	size_t nw, nh, ni;
	const struct wrapper *w = wrappers_table(&nw);
	const struct wrappers_interp *ip = wrappers_interps(&ni);
	struct name_roles *sl;

	for (size_t i = 0; i < nw; i++) {
		sl = slot_for(w[i].name, strlen(w[i].name));
		if (!sl)
			return;
		sl->wrapper = &w[i];
	}
	nh = commands_handler_count();
	for (size_t i = 0; i < nh; i++) {
		size_t len;
		handler_fn *fn;
		const char *name = commands_handler_row(i, &len, &fn);

		sl = slot_for(name, len);
		if (!sl)
			return;
		sl->handler = fn;
	}
	const char *const *list;
	size_t nl;
	list = commands_builtins(&nl);
	if (!flag_names(list, nl, NAMES_F_BUILTIN))
		return;
	list = filecmds_readers(&nl);
	if (!flag_names(list, nl, NAMES_F_READS_FILES))
		return;
	list = filecmds_never_readers(&nl);
	if (!flag_names(list, nl, NAMES_F_NEVER_READS))
		return;
	/* a mask of 64 rows: a longer table leaves the index unbuilt,
	 * which test_shell reports */
	nl = commands_exec_opt_count();
	if (nl > 64)
		return;
	for (size_t i = 0; i < nl; i++) {
		const char *cmd = commands_exec_opt_cmd(i);
		sl = slot_for(cmd, strlen(cmd));
		if (!sl)
			return;
		sl->exec_rows |= UINT64_C(1) << i;
	}
	/* "python*" is in the index as "python"; python3 is found by
	 * wrappers_find_interp()'s scan */
	for (size_t i = 0; i < ni; i++) {
		size_t len = strlen(ip[i].name);

		if (len && ip[i].name[len - 1] == '*')
			len--;
		if (len && !slot_for(ip[i].name, len))
			return;
	}
	for (size_t i = 0; i < NAMES_CAP; i++)
		if (slots[i].name)
			slots[i].interp = wrappers_interp_scan(slots[i].name,
							       slots[i].len);
	ready = true;
}

bool names_ready(void)
{
	/* asked several times a command: after the first build, one
	 * acquire load instead of a pthread_once call */
	if (__atomic_load_n(&built, __ATOMIC_ACQUIRE))
		return ready;
	pthread_once(&once, build);
	__atomic_store_n(&built, true, __ATOMIC_RELEASE);
	return ready;
}

_Thread_local struct names_last names__last;

/* names_find() missed its copy of the last name (names.h). */
const struct name_roles *names_find_slow(const char *name, size_t n)
{
	struct names_last *l = &names__last;
	const struct name_roles *sl = probe(name, n);
	const struct name_roles *r = sl->name ? sl : NULL;

	if (n <= NAMES_LAST_MAX) {
		memcpy(l->s, name, n);
		l->n = n;
		l->r = r;
		l->valid = true;
	}
	return r;
}
