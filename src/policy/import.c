/* import — Claude Code and srt settings as cordon configuration; see
 * import.h. The rules in a Claude Code settings file are checked with the
 * matcher's own reader (ccperm_check_rule), so what imports is what the
 * matcher can read. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "buf.h"
#include "ccperm.h"
#include "diag.h"
#include "glob.h"
#include "hostlist.h"
#include "import.h"
#include "json.h"
#include "path.h"

#include "alloc.h"
#include "banned.h"

#define IMPORT_MAX_PATH 4096 /* bytes of one srt path */
#define IMPORT_MAX_SETTINGS (1u << 20) /* bytes of one settings document */

/* Adds one warning line to b. */
__attribute__((format(printf, 2, 3))) static void sb_line(struct buf *b,
							  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (buf_vaddf(b, fmt, ap))
		buf_addc(b, '\n');
	va_end(ap);
}

/* Parses a settings document: size limit, no \u0000, an object. */
static cJSON *parse_settings(const char *json, size_t len, const char *what,
			     enum cordon_err *err, struct cordon_diag *diag)
{
	const char *end = NULL;
	cJSON *root;
	size_t at;

	if (!json) {
		*err = CORDON_E_INVAL;
		diag_set(diag, *err, "%s: no input", what);
		return NULL;
	}
	if (len > IMPORT_MAX_SETTINGS) {
		*err = CORDON_E_LIMIT;
		diag_set(diag, *err, "%s: %zu bytes, over the limit of %u",
			 what, len, IMPORT_MAX_SETTINGS);
		return NULL;
	}
	at = json_nul_escape_at(json, len);
	if (at < len) {
		*err = CORDON_E_JSON;
		diag_set(diag, *err, "%s: a \\u0000 escape at byte %zu", what,
			 at);
		if (diag)
			diag->offset = at;
		return NULL;
	}
	root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
	if (!root) {
		*err = CORDON_E_JSON;
		at = end && end >= json && end <= json + len ?
			     (size_t)(end - json) :
			     0;
		diag_set(diag, *err, "%s: malformed JSON near byte %zu", what,
			 at);
		if (diag)
			diag->offset = at;
		return NULL;
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		*err = CORDON_E_JSON;
		diag_set(diag, *err, "%s: expected a JSON object", what);
		return NULL;
	}
	return root;
}

/* An absolute, lexically normalised copy of path's directory, or NULL. */
static char *abs_dir_of(struct arena *a, const char *path)
{
	char cwd[4096];
	const char *base = "/";
	char *abs, *slash;

	if (path[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return NULL;
		base = cwd;
	}
	abs = path_normalize_call(a, base, NULL, path, strlen(path));
	if (!abs)
		return NULL;
	slash = strrchr(abs, '/');
	if (!slash)
		return NULL;
	if (slash == abs)
		slash[1] = '\0';
	else
		*slash = '\0';
	return abs;
}

/* The project root a settings file belongs to: the parent of its .claude
 * directory, or its own directory; NULL for ~/.claude/settings*.json
 * (and when it cannot be told). malloc'd. */
static char *settings_root(const char *settings_path)
{
	struct arena a;
	char *dir, *root = NULL, *slash;
	const char *home = getenv("HOME");
	char *nhome = NULL;
	bool in_claude;

	if (!settings_path || !settings_path[0])
		return NULL;
	arena_init(&a, 1u << 20);
	dir = abs_dir_of(&a, settings_path);
	if (!dir)
		goto out;
	slash = strrchr(dir, '/');
	in_claude = slash && strcmp(slash + 1, ".claude") == 0;
	if (in_claude) {
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (in_claude && home && home[0] == '/') {
		nhome = path_normalize_call(&a, "/", NULL, home, strlen(home));
		if (nhome && strcmp(nhome, dir) == 0)
			goto out;
	}
	root = cordon__strdup(dir);
out:
	arena_release(&a);
	return root;
}

static bool add_str(cJSON *arr, const char *s)
{
	cJSON *v = cJSON_CreateString(s);

	if (!v)
		return false;
	if (!cJSON_AddItemToArray(arr, v)) {
		cJSON_Delete(v);
		return false;
	}
	return true;
}

/* cJSON_Print, or NULL; the document is freed either way. */
static char *print_doc(cJSON *doc)
{
	char *s = doc ? cJSON_Print(doc) : NULL;

	cJSON_Delete(doc);
	return s;
}

static enum cordon_err import_finish(enum cordon_err err, cJSON *doc,
				     cJSON *root, struct buf *wb, char **out,
				     char **warnings, struct cordon_diag *diag)
{
	cJSON_Delete(root);
	if (err == CORDON_OK && buf_failed(wb))
		err = CORDON_E_NOMEM;
	if (err == CORDON_OK) {
		*out = print_doc(doc);
		doc = NULL;
		if (!*out)
			err = CORDON_E_NOMEM;
	}
	cJSON_Delete(doc);
	if (err == CORDON_E_NOMEM)
		diag_set(diag, err, "out of memory");
	/* No warnings: NULL, not "". */
	if (err == CORDON_OK && warnings && buf_len(wb))
		*warnings = buf_take(wb, NULL);
	buf_free(wb);
	return err;
}

/* One permissions list: every entry a rule cordon can read; notes on the
 * rules cordon reads differently go to the warnings. */
static enum cordon_err import_list(const cJSON *perm, enum ccperm_list l,
				   cJSON *dst, struct buf *wb,
				   struct cordon_diag *diag)
{
	const cJSON *arr =
		cJSON_GetObjectItemCaseSensitive(perm, ccperm_list_key(l));
	const cJSON *it;
	size_t i = 0;

	if (!arr || cJSON_IsNull(arr))
		return CORDON_OK;
	if (!cJSON_IsArray(arr)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "permissions.%s: expected an array of strings",
			 ccperm_list_key(l));
		return CORDON_E_CONFIG;
	}
	if ((size_t)cJSON_GetArraySize(arr) > CCPERM_MAX_RULES) {
		diag_set(diag, CORDON_E_LIMIT,
			 "permissions.%s: %d rules, over the limit of %u",
			 ccperm_list_key(l), cJSON_GetArraySize(arr),
			 CCPERM_MAX_RULES);
		return CORDON_E_LIMIT;
	}
	cJSON_ArrayForEach (it, arr) {
		const char *note = NULL;
		enum cordon_err err;

		if (!cJSON_IsString(it)) {
			diag_set(diag, CORDON_E_CONFIG,
				 "permissions.%s[%zu]: expected a string",
				 ccperm_list_key(l), i);
			return CORDON_E_CONFIG;
		}
		err = ccperm_check_rule(it->valuestring, l, i, &note, diag);
		if (err != CORDON_OK)
			return err;
		if (note)
			sb_line(wb, "permissions.%s[%zu] '%s': %s",
				ccperm_list_key(l), i, it->valuestring, note);
		if (!add_str(dst, it->valuestring))
			return CORDON_E_NOMEM;
		i++;
	}
	return CORDON_OK;
}

/* permissions.defaultMode → safety.permission_mode / read_only. */
static enum cordon_err import_mode(const cJSON *perm, cJSON *doc,
				   struct buf *wb, struct cordon_diag *diag)
{
	static const struct {
		const char *claude;
		const char *cordon;
	} modes[] = {
		{ "default", "supervised" },
		{ "acceptEdits", "auto-accept-edits" },
		{ "auto", "auto" },
		{ "bypassPermissions", "full-access" },
	};
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(perm, "defaultMode");
	const cJSON *dis = cJSON_GetObjectItemCaseSensitive(
		perm, "disableBypassPermissionsMode");
	cJSON *safety = NULL;

	if (m && !cJSON_IsNull(m) && !cJSON_IsString(m)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "permissions.defaultMode: expected a string");
		return CORDON_E_CONFIG;
	}
	if ((cJSON_IsString(m) || cJSON_IsString(dis)) &&
	    !(safety = cJSON_AddObjectToObject(doc, "safety")))
		return CORDON_E_NOMEM;
	if (cJSON_IsString(m)) {
		const char *v = m->valuestring;
		bool done = false;

		for (size_t i = 0; i < sizeof(modes) / sizeof(*modes); i++)
			if (strcmp(v, modes[i].claude) == 0) {
				if (!cJSON_AddStringToObject(safety,
							     "permission_mode",
							     modes[i].cordon))
					return CORDON_E_NOMEM;
				done = true;
			}
		if (strcmp(v, "plan") == 0) {
			if (!cJSON_AddTrueToObject(safety, "read_only"))
				return CORDON_E_NOMEM;
			done = true;
		} else if (strcmp(v, "dontAsk") == 0) {
			sb_line(wb, "permissions.defaultMode 'dontAsk': not "
				    "imported: cordon has no mode that denies "
				    "what no rule allows; it asks instead");
			done = true;
		}
		if (!done)
			sb_line(wb,
				"permissions.defaultMode '%.64s': unknown "
				"mode, not imported",
				v);
	}
	if (cJSON_IsString(dis)) {
		if (strcmp(dis->valuestring, "disable") == 0) {
			if (!cJSON_AddStringToObject(
				    safety, "max_permission_mode", "auto"))
				return CORDON_E_NOMEM;
		} else {
			sb_line(wb,
				"permissions.disableBypassPermissionsMode "
				"'%.64s': not imported (only \"disable\" "
				"means something)",
				dis->valuestring);
		}
	}
	return CORDON_OK;
}

enum cordon_err import_claude_settings(const char *json, size_t len,
				       const char *settings_path, char **out,
				       char **warnings,
				       struct cordon_diag *diag)
{
	struct buf wb = BUF_INIT(SIZE_MAX);
	enum cordon_err err = CORDON_OK;
	cJSON *root = NULL, *doc = NULL, *perms, *lists[3];
	const cJSON *perm, *it;
	char *proot;

	if (!out)
		return CORDON_E_INVAL;
	*out = NULL;
	if (warnings)
		*warnings = NULL;
	root = parse_settings(json, len, "settings", &err, diag);
	if (!root)
		return err;
	perm = cJSON_GetObjectItemCaseSensitive(root, "permissions");
	if (perm && !cJSON_IsNull(perm) && !cJSON_IsObject(perm)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "permissions: expected an object");
		return import_finish(CORDON_E_CONFIG, NULL, root, &wb, out,
				     warnings, diag);
	}
	cJSON_ArrayForEach (it, root) {
		if (strcmp(it->string, "permissions") != 0 &&
		    strcmp(it->string, "$schema") != 0)
			sb_line(&wb,
				"%.64s: not imported (cordon reads only "
				"\"permissions\")",
				it->string);
	}
	doc = cJSON_CreateObject();
	perms = doc ? cJSON_AddObjectToObject(doc, "permissions") : NULL;
	if (!perms)
		return import_finish(CORDON_E_NOMEM, doc, root, &wb, out,
				     warnings, diag);
	lists[CCPERM_ALLOW] = cJSON_AddArrayToObject(perms, "allow");
	lists[CCPERM_ASK] = cJSON_AddArrayToObject(perms, "ask");
	lists[CCPERM_DENY] = cJSON_AddArrayToObject(perms, "deny");
	if (!lists[0] || !lists[1] || !lists[2])
		return import_finish(CORDON_E_NOMEM, doc, root, &wb, out,
				     warnings, diag);
	for (int l = CCPERM_ALLOW; l >= CCPERM_DENY && perm; l--) {
		err = import_list(perm, (enum ccperm_list)l, lists[l], &wb,
				  diag);
		if (err)
			return import_finish(err, doc, root, &wb, out, warnings,
					     diag);
	}
	proot = settings_root(settings_path);
	if (proot ? !cJSON_AddStringToObject(perms, "root", proot) :
		    !cJSON_AddNullToObject(perms, "root")) {
		free(proot);
		return import_finish(CORDON_E_NOMEM, doc, root, &wb, out,
				     warnings, diag);
	}
	free(proot);
	if (perm) {
		err = import_mode(perm, doc, &wb, diag);
		if (err)
			return import_finish(err, doc, root, &wb, out, warnings,
					     diag);
		cJSON_ArrayForEach (it, perm) {
			const char *k = it->string;

			if (strcmp(k, "allow") == 0 || strcmp(k, "ask") == 0 ||
			    strcmp(k, "deny") == 0 ||
			    strcmp(k, "defaultMode") == 0 ||
			    strcmp(k, "disableBypassPermissionsMode") == 0)
				continue;
			if (strcmp(k, "additionalDirectories") == 0)
				sb_line(&wb,
					"permissions.additionalDirectories: "
					"not imported: cordon's workspace is "
					"one directory (give `cordon run` "
					"--write DIR for another writable "
					"root)");
			else
				sb_line(&wb, "permissions.%.64s: not imported",
					k);
		}
	}
	return import_finish(CORDON_OK, doc, root, &wb, out, warnings, diag);
}

/* ---- srt ----------------------------------------------------------------- */

/* A list of strings at obj.key (missing or null: empty); each entry a
 * non-empty string; errors name "PREFIX.KEY[i]". */
static enum cordon_err str_array(const cJSON *obj, const char *prefix,
				 const char *key, const cJSON **arr,
				 struct cordon_diag *diag)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key), *it;
	size_t i = 0;

	*arr = NULL;
	if (!a || cJSON_IsNull(a))
		return CORDON_OK;
	if (!cJSON_IsArray(a)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "%s.%s: expected an array of strings", prefix, key);
		return CORDON_E_CONFIG;
	}
	if ((size_t)cJSON_GetArraySize(a) > HOSTLIST_MAX_ENTRIES) {
		diag_set(diag, CORDON_E_LIMIT,
			 "%s.%s: %d entries, over the limit of %u", prefix, key,
			 cJSON_GetArraySize(a), HOSTLIST_MAX_ENTRIES);
		return CORDON_E_LIMIT;
	}
	cJSON_ArrayForEach (it, a) {
		if (!cJSON_IsString(it) || !it->valuestring[0]) {
			diag_set(diag, CORDON_E_CONFIG,
				 "%s.%s[%zu]: expected a non-empty string",
				 prefix, key, i);
			return CORDON_E_CONFIG;
		}
		i++;
	}
	*arr = a;
	return CORDON_OK;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[{") != NULL;
}

/* Could the read-allowed path lie inside the denied path (lexically; "~"
 * read as $HOME, relative paths against a placeholder cwd)? A relative
 * path against an absolute one (or the other way) may: the cwd decides. */
static bool maybe_inside(struct arena *a, const char *allow, const char *deny)
{
	static const char cwd[] = "/.cwd";
	const char *home = getenv("HOME");
	char *pa, *pd;
	size_t dn;

	if (!home || home[0] != '/')
		home = "/.home";
	if ((allow[0] == '/' || allow[0] == '~') !=
	    (deny[0] == '/' || deny[0] == '~'))
		return true;
	pa = path_normalize_call(a, cwd, home, allow, strlen(allow));
	pd = path_normalize_call(a, cwd, home, deny, strlen(deny));
	if (!pa || !pd)
		return true;
	if (has_glob(pd))
		return glob_matchz(pd, pa) || ccperm_path_matches(pd, pa, true);
	dn = strlen(pd);
	return strcmp(pd, "/") == 0 ||
	       (strncmp(pa, pd, dn) == 0 && (pa[dn] == '\0' || pa[dn] == '/'));
}

/* The srt network lists: validated with the proxy's parser; a deny-all
 * "*" or "*:PORT" in deniedDomains, which cordon's lists cannot hold,
 * becomes the equivalent narrowing of allowedDomains. */
static enum cordon_err import_network(const cJSON *net, cJSON *dst,
				      struct buf *wb, struct cordon_diag *diag)
{
	const cJSON *allow = NULL, *deny = NULL, *it;
	cJSON *ad, *dd;
	enum cordon_err err;
	struct hostlist_policy *p;
	bool deny_all = false, bare = false;
	unsigned denied_ports[64];
	size_t ndenied = 0, i;
	char buf[HOSTLIST_MAX_ENTRY + 16];

	if ((err = str_array(net, "network", "allowedDomains", &allow, diag)) ||
	    (err = str_array(net, "network", "deniedDomains", &deny, diag)))
		return err;
	ad = cJSON_AddArrayToObject(dst, "allowedDomains");
	dd = cJSON_AddArrayToObject(dst, "deniedDomains");
	p = hostlist_policy_new();
	if (!ad || !dd || !p) {
		hostlist_policy_free(p);
		return CORDON_E_NOMEM;
	}
	i = 0;
	cJSON_ArrayForEach (it, deny) {
		const char *e = it->valuestring;
		const char *one[1] = { e };
		struct cordon_diag d;

		if (strcmp(e, "*") == 0) {
			deny_all = true;
		} else if (strncmp(e, "*:", 2) == 0) {
			char *end;
			unsigned long port;

			errno = 0;
			port = strtoul(e + 2, &end, 10);
			if (errno || *end || port == 0 || port > 65535 ||
			    e[2] < '1' || e[2] > '9') {
				diag_set(diag, CORDON_E_CONFIG,
					 "network.deniedDomains[%zu]: bad port "
					 "in '%.64s'",
					 i, e);
				hostlist_policy_free(p);
				return CORDON_E_CONFIG;
			}
			if (ndenied <
			    sizeof(denied_ports) / sizeof(*denied_ports))
				denied_ports[ndenied++] = (unsigned)port;
		} else {
			if (hostlist_policy_add(p, HOSTLIST_DENY, one, 1, &d)) {
				diag_set(diag, d.code,
					 "network.deniedDomains[%zu]: %s", i,
					 d.message);
				hostlist_policy_free(p);
				return d.code;
			}
			if (!add_str(dd, e)) {
				hostlist_policy_free(p);
				return CORDON_E_NOMEM;
			}
		}
		i++;
	}
	if (deny_all)
		sb_line(wb, "network.deniedDomains '*': cordon's lists cannot "
			    "hold it; imported as an empty allowedDomains "
			    "(nothing allowed)");
	i = 0;
	cJSON_ArrayForEach (it, allow) {
		const char *e = it->valuestring;
		const char *one[1] = { e };
		struct cordon_diag d;
		const char *host;
		size_t hl;
		unsigned port = 0;
		bool p80 = true, p443 = true, keep = true;

		if (hostlist_policy_add(p, HOSTLIST_ALLOW, one, 1, &d)) {
			diag_set(diag, d.code,
				 "network.allowedDomains[%zu]: %s", i,
				 d.message);
			hostlist_policy_free(p);
			return d.code;
		}
		i++;
		if (deny_all)
			continue;
		if (!hostlist_split_authority(e, strlen(e), &host, &hl,
					      &port)) {
			host = e; /* a bare IPv6 literal */
			hl = strlen(e);
			port = 0;
		}
		if (port == 0)
			bare = true;
		for (size_t k = 0; k < ndenied; k++) {
			if (port && denied_ports[k] == port)
				keep = false;
			if (!port && denied_ports[k] == 80)
				p80 = false;
			if (!port && denied_ports[k] == 443)
				p443 = false;
		}
		if (!keep || (!port && !p80 && !p443)) {
			sb_line(wb,
				"network.allowedDomains '%.64s': dropped: "
				"its port is denied everywhere",
				e);
			continue;
		}
		if (!port && p80 != p443) {
			bool v6 = memchr(host, ':', hl) && host[0] != '[';

			snprintf(buf, sizeof(buf), "%s%.*s%s:%u", v6 ? "[" : "",
				 (int)hl, host, v6 ? "]" : "", p80 ? 80 : 443);
			sb_line(wb,
				"network.allowedDomains '%.64s': narrowed to "
				"'%s' (the other port is denied everywhere)",
				e, buf);
			e = buf;
		}
		if (!add_str(ad, e)) {
			hostlist_policy_free(p);
			return CORDON_E_NOMEM;
		}
	}
	hostlist_policy_free(p);
	if (bare)
		sb_line(wb, "network.allowedDomains: a name without a port "
			    "allows ports 80 and 443 in cordon (srt: every "
			    "port); write HOST:PORT for another port");
	cJSON_ArrayForEach (it, net) {
		const char *k = it->string;

		if (strcmp(k, "allowedDomains") == 0 ||
		    strcmp(k, "deniedDomains") == 0 ||
		    strcmp(k, "allowUnixSockets") == 0 ||
		    strcmp(k, "allowAllUnixSockets") == 0 ||
		    strcmp(k, "allowLocalBinding") == 0)
			continue;
		sb_line(wb, "network.%.64s: not imported", k);
	}
	return CORDON_OK;
}

/* allowUnixSockets / allowAllUnixSockets / allowLocalBinding. srt blocks
 * unix sockets unless told otherwise, so the default imports as []. */
static enum cordon_err import_sockets(const cJSON *net, cJSON *dst,
				      struct buf *wb, struct cordon_diag *diag)
{
	const cJSON *all =
		cJSON_GetObjectItemCaseSensitive(net, "allowAllUnixSockets");
	const cJSON *bind =
		cJSON_GetObjectItemCaseSensitive(net, "allowLocalBinding");
	const cJSON *list = NULL, *it;
	enum cordon_err err;
	cJSON *arr;

	if (all && !cJSON_IsNull(all) && !cJSON_IsBool(all)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "network.allowAllUnixSockets: expected true or false");
		return CORDON_E_CONFIG;
	}
	if (bind && !cJSON_IsNull(bind) && !cJSON_IsBool(bind)) {
		diag_set(diag, CORDON_E_CONFIG,
			 "network.allowLocalBinding: expected true or false");
		return CORDON_E_CONFIG;
	}
	err = str_array(net, "network", "allowUnixSockets", &list, diag);
	if (err)
		return err;
	if (cJSON_IsTrue(all)) {
		if (!cJSON_AddNullToObject(dst, "allowUnixSockets"))
			return CORDON_E_NOMEM;
		if (list && cJSON_GetArraySize(list) > 0)
			sb_line(wb,
				"network.allowUnixSockets: every unix socket "
				"is allowed (allowAllUnixSockets)");
	} else {
		arr = cJSON_AddArrayToObject(dst, "allowUnixSockets");
		if (!arr)
			return CORDON_E_NOMEM;
		cJSON_ArrayForEach (it, list)
			if (!add_str(arr, it->valuestring))
				return CORDON_E_NOMEM;
	}
	if (!cJSON_AddBoolToObject(dst, "allowLocalBinding",
				   cJSON_IsTrue(bind)))
		return CORDON_E_NOMEM;
	return CORDON_OK;
}

static enum cordon_err import_fs(const cJSON *fs, cJSON *sbx, struct buf *wb,
				 struct cordon_diag *diag)
{
	const cJSON *dr = NULL, *ar = NULL, *aw = NULL, *dw = NULL, *it, *d;
	cJSON *o;
	enum cordon_err err;
	struct arena a;
	bool dot = false;

	if ((err = str_array(fs, "filesystem", "denyRead", &dr, diag)) ||
	    (err = str_array(fs, "filesystem", "allowRead", &ar, diag)) ||
	    (err = str_array(fs, "filesystem", "allowWrite", &aw, diag)) ||
	    (err = str_array(fs, "filesystem", "denyWrite", &dw, diag)))
		return err;
	cJSON_ArrayForEach (it, dr) {
		if (strlen(it->valuestring) > IMPORT_MAX_PATH)
			goto too_long;
	}
	if (!(o = cJSON_AddArrayToObject(sbx, "deny_read")))
		return CORDON_E_NOMEM;
	cJSON_ArrayForEach (it, dr)
		if (!add_str(o, it->valuestring))
			return CORDON_E_NOMEM;

	arena_init(&a, 16u << 20);
	cJSON_ArrayForEach (it, ar) {
		bool inside = false;

		cJSON_ArrayForEach (d, dr)
			if (maybe_inside(&a, it->valuestring, d->valuestring))
				inside = true;
		if (inside)
			sb_line(wb,
				"filesystem.allowRead '%.200s': dropped: "
				"cordon cannot re-allow reads inside a "
				"denied path (denyRead wins)",
				it->valuestring);
		else
			sb_line(wb,
				"filesystem.allowRead '%.200s': dropped: "
				"outside every denied path, reading it is "
				"allowed already",
				it->valuestring);
	}
	arena_release(&a);

	if (!(o = cJSON_AddArrayToObject(sbx, "allow_write")))
		return CORDON_E_NOMEM;
	cJSON_ArrayForEach (it, aw) {
		const char *p = it->valuestring;

		if (strlen(p) > IMPORT_MAX_PATH)
			goto too_long;
		if (strcmp(p, ".") == 0 || strcmp(p, "./") == 0) {
			dot = true;
			continue;
		}
		if (has_glob(p)) {
			sb_line(wb,
				"filesystem.allowWrite '%.200s': dropped: "
				"cordon's writable roots are paths, not "
				"patterns",
				p);
			continue;
		}
		if (!add_str(o, p))
			return CORDON_E_NOMEM;
	}
	if (!dot)
		sb_line(wb, "filesystem.allowWrite: cordon's workspace (the "
			    "current directory, or --workspace) is always "
			    "writable; srt allowed only the listed paths");
	if (!(o = cJSON_AddArrayToObject(sbx, "deny_write")))
		return CORDON_E_NOMEM;
	cJSON_ArrayForEach (it, dw) {
		if (strlen(it->valuestring) > IMPORT_MAX_PATH)
			goto too_long;
		if (!add_str(o, it->valuestring))
			return CORDON_E_NOMEM;
	}
	cJSON_ArrayForEach (it, fs) {
		const char *k = it->string;

		if (strcmp(k, "denyRead") == 0 || strcmp(k, "allowRead") == 0 ||
		    strcmp(k, "allowWrite") == 0 || strcmp(k, "denyWrite") == 0)
			continue;
		sb_line(wb, "filesystem.%.64s: not imported", k);
	}
	return CORDON_OK;
too_long:
	diag_set(diag, CORDON_E_LIMIT,
		 "filesystem: a path of %zu bytes, over the limit of %u",
		 strlen(it->valuestring), IMPORT_MAX_PATH);
	return CORDON_E_LIMIT;
}

enum cordon_err import_srt_settings(const char *json, size_t len, char **out,
				    char **warnings, struct cordon_diag *diag)
{
	struct buf wb = BUF_INIT(SIZE_MAX);
	enum cordon_err err = CORDON_OK;
	cJSON *root, *doc, *safety, *sbx, *net;
	const cJSON *jnet, *jfs, *it;
	static const cJSON empty = { 0 };

	if (!out)
		return CORDON_E_INVAL;
	*out = NULL;
	if (warnings)
		*warnings = NULL;
	root = parse_settings(json, len, "srt settings", &err, diag);
	if (!root)
		return err;
	jnet = cJSON_GetObjectItemCaseSensitive(root, "network");
	jfs = cJSON_GetObjectItemCaseSensitive(root, "filesystem");
	if ((jnet && !cJSON_IsNull(jnet) && !cJSON_IsObject(jnet)) ||
	    (jfs && !cJSON_IsNull(jfs) && !cJSON_IsObject(jfs))) {
		diag_set(diag, CORDON_E_CONFIG, "%s: expected an object",
			 jnet && !cJSON_IsObject(jnet) && !cJSON_IsNull(jnet) ?
				 "network" :
				 "filesystem");
		return import_finish(CORDON_E_CONFIG, NULL, root, &wb, out,
				     warnings, diag);
	}
	if (!cJSON_IsObject(jnet))
		jnet = &empty;
	if (!cJSON_IsObject(jfs))
		jfs = &empty;
	doc = cJSON_CreateObject();
	safety = doc ? cJSON_AddObjectToObject(doc, "safety") : NULL;
	sbx = safety ? cJSON_AddObjectToObject(safety, "sandbox") : NULL;
	net = sbx ? cJSON_AddObjectToObject(doc, "network") : NULL;
	if (!net)
		return import_finish(CORDON_E_NOMEM, doc, root, &wb, out,
				     warnings, diag);
	err = import_fs(jfs, sbx, &wb, diag);
	if (!err)
		err = import_network(jnet, net, &wb, diag);
	if (!err)
		err = import_sockets(jnet, net, &wb, diag);
	if (err)
		return import_finish(err, doc, root, &wb, out, warnings, diag);
	cJSON_ArrayForEach (it, root) {
		const char *k = it->string;

		if (strcmp(k, "network") == 0 || strcmp(k, "filesystem") == 0 ||
		    strcmp(k, "$schema") == 0)
			continue;
		/* srt's switches that loosen it, left at their default */
		if (cJSON_IsFalse(it) && (strncmp(k, "enableWeaker", 12) == 0 ||
					  strcmp(k, "allowAppleEvents") == 0))
			continue;
		if (cJSON_IsTrue(it) && strncmp(k, "enableWeaker", 12) == 0)
			sb_line(&wb,
				"%.64s: not imported: cordon has no weaker "
				"mode and stays strict",
				k);
		else
			sb_line(&wb, "%.64s: not imported", k);
	}
	return import_finish(CORDON_OK, doc, root, &wb, out, warnings, diag);
}
