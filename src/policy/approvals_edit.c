/* approvals_edit — rules taken out of the approvals file (see
 * approvals_edit.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "approvals.h"
#include "approvals_edit.h"
#include "atomic.h"
#include "buf.h"
#include "json.h"

#include "alloc.h"
#include "banned.h"


/* The file's text under the lock: NULL with *missing for no file, NULL
 * with why filled on a refusal. */
static char *read_locked(const char *path, bool *missing, enum cordon_err *err,
			 char *why, size_t whycap)
{
	struct buf b = BUF_INIT(APPROVALS_MAX_FILE_BYTES);
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
				    O_NOFOLLOW);

	*missing = false;
	*err = CORDON_E_IO;
	if (fd < 0) {
		if (errno == ENOENT) {
			*missing = true;
			*err = CORDON_OK;
		} else if (errno == ELOOP) {
			*err = CORDON_E_CONFIG;
			snprintf(why, whycap, "is a symbolic link (not edited)");
		} else {
			snprintf(why, whycap, "cannot be read: %s",
				 strerror(errno));
		}
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = CORDON_E_CONFIG;
		snprintf(why, whycap, "is not a regular file");
		goto fail;
	}
	if (atomic_read_all(fd, &b) != 0) {
		if (errno == EFBIG) {
			*err = CORDON_E_LIMIT;
			snprintf(why, whycap, "is over %zu bytes (the limit)",
				 APPROVALS_MAX_FILE_BYTES);
		} else if (errno == ENOMEM) {
			*err = CORDON_E_NOMEM;
			snprintf(why, whycap, "out of memory");
		} else {
			snprintf(why, whycap, "cannot be read: %s",
				 strerror(errno));
		}
		goto fail;
	}
	close(fd);
	{
		char *text = buf_take(&b, NULL);

		if (!text) {
			*err = CORDON_E_NOMEM;
			snprintf(why, whycap, "out of memory");
		}
		return text;
	}
fail:
	buf_free(&b);
	close(fd);
	return NULL;
}

/* Whether the store loads the file as a whole (it may still drop single
 * rules whose examples fail: those are still the user's to remove). */
static enum cordon_err usable(const char *path, char *why, size_t whycap)
{
	struct approvals_store st;
	enum cordon_err err;

	memset(&st, 0, sizeof(st));
	err = approvals_open(&st, path);
	if (err != CORDON_E_NOMEM && st.corrupt) {
		snprintf(why, whycap, "%s",
			 st.nwarnings ? st.warnings[0] : "cannot be used");
		err = err == CORDON_OK ? CORDON_E_CONFIG : err;
	} else if (err == CORDON_E_NOMEM) {
		snprintf(why, whycap, "out of memory");
	} else if (err != CORDON_OK) {
		snprintf(why, whycap, "cannot be read");
	}
	approvals_close(&st);
	return err;
}

static int cmp_desc(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Removes the rules from root's "rules" array: idx NULL for all. */
static enum cordon_err remove_rules(cJSON *rules, const size_t *idx, size_t n,
				    size_t *removed, char *why, size_t whycap)
{
	size_t have = (size_t)cJSON_GetArraySize(rules), *sorted;

	if (!idx) {
		*removed = have;
		while (cJSON_GetArraySize(rules) > 0)
			cJSON_DeleteItemFromArray(rules, 0);
		return CORDON_OK;
	}
	for (size_t i = 0; i < n; i++)
		if (idx[i] >= have) {
			snprintf(why, whycap,
				 "there is no rule %zu (the file has %zu)",
				 idx[i], have);
			return CORDON_E_INVAL;
		}
	sorted = cordon__calloc(n ? n : 1, sizeof(*sorted));
	if (!sorted) {
		snprintf(why, whycap, "out of memory");
		return CORDON_E_NOMEM;
	}
	memcpy(sorted, idx, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_desc);
	*removed = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && sorted[i] == sorted[i - 1])
			continue;
		cJSON_DeleteItemFromArray(rules, (int)sorted[i]);
		(*removed)++;
	}
	free(sorted);
	return CORDON_OK;
}

enum cordon_err approvals_edit_remove(const char *path_in, const size_t *idx,
				      size_t n, size_t *removed, char *why,
				      size_t whycap)
{
	char lockpath[4096], path[4096];
	enum cordon_err err = CORDON_E_IO;
	cJSON *root = NULL, *rules;
	char *text = NULL, *out = NULL;
	size_t gone = 0, len;
	bool missing;
	int lfd;

	why[0] = '\0';
	if (removed)
		*removed = 0;
	/* A symlinked store is edited at its target, locked there, as
	 * approvals_record writes it (atomic_resolve_link). */
	if (atomic_resolve_link(path_in, path, sizeof(path)) != 0) {
		snprintf(why, whycap, "%s",
			 errno == ENAMETOOLONG ?
				 "the path is too long" :
				 "it is a symbolic link to a missing file");
		return errno == ENAMETOOLONG ? CORDON_E_LIMIT : CORDON_E_IO;
	}
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", path) >=
	    (int)sizeof(lockpath)) {
		snprintf(why, whycap, "the path is too long");
		return CORDON_E_LIMIT;
	}
	lfd = atomic_lock(lockpath, APPROVALS_LOCK_WAIT_MS);
	if (lfd < 0) {
		if (errno == ENOENT)
			goto nofile; /* no directory: no file either */
		snprintf(why, whycap, "cannot lock it: %s", strerror(errno));
		return CORDON_E_IO;
	}
	text = read_locked(path, &missing, &err, why, whycap);
	if (!text && missing)
		goto nofile_locked;
	if (!text)
		goto out;
	err = usable(path, why, whycap);
	if (err != CORDON_OK)
		goto out;
	err = CORDON_E_NOMEM;
	root = cJSON_Parse(text);
	rules = root ? cJSON_GetObjectItemCaseSensitive(root, "rules") : NULL;
	if (!rules) {
		/* usable() accepted it: {"version": 1} without rules. */
		if (root && !idx) {
			err = CORDON_OK;
			goto out;
		}
		if (root) {
			err = CORDON_E_INVAL;
			snprintf(why, whycap, "there is no rule %zu (the file "
				 "has none)", n ? idx[0] : 0);
		} else {
			snprintf(why, whycap, "out of memory");
		}
		goto out;
	}
	err = remove_rules(rules, idx, n, &gone, why, whycap);
	if (err != CORDON_OK || gone == 0)
		goto out;
	err = CORDON_E_NOMEM;
	out = json_print_indented(root);
	if (!out) {
		snprintf(why, whycap, "out of memory");
		goto out;
	}
	len = strlen(out);
	out[len] = '\n'; /* json_print_indented leaves room for the NUL */
	if (atomic_write_file(path, out, len + 1, 0600) != 0) {
		err = CORDON_E_IO;
		snprintf(why, whycap, "cannot write: %s", strerror(errno));
		goto out;
	}
	err = CORDON_OK;
	if (removed)
		*removed = gone;
out:
	cJSON_Delete(root);
	free(text);
	free(out);
	close(lfd);
	return err;
nofile_locked:
	close(lfd);
nofile:
	if (idx && n) {
		snprintf(why, whycap, "there is no rule %zu (the file does "
			 "not exist)", idx[0]);
		return CORDON_E_INVAL;
	}
	return CORDON_OK;
}
