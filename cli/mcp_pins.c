/* cordon mcp pins — the pinned MCP tools: list them, show what changed,
 * approve a pending version, forget a server.
 *
 *   int cli_mcp_pins(int argc, char **argv);   (cli.h; argv[0] is "pins",
 *                                               called by cli_mcp)
 *
 * Everything a server wrote (names, descriptions, definitions) is shown
 * through mcpscan_escape, so hidden characters appear as \u{XXXX} and
 * cannot drive the terminal; --json output escapes every non-ASCII
 * character as \uXXXX for the same reason.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "pins.h"
#include "mcpscan.h"

#include "banned.h"

#define PINS_EXIT_NOT_FOUND 1
#define OPTS_HELP (-100) /* parse_opts: the help was printed */
#define NAME_COL_MAX 32 /* widest server or tool column in `list` */
#define DIFF_LCS_MAX ((size_t)4 * 1000 * 1000) /* cells: then by index */

static void usage(FILE *out)
{
	fputs("usage: cordon mcp pins list [--json] [--pins FILE]\n"
	      "       cordon mcp pins diff NAME TOOL [--width N] [--json] [--pins FILE]\n"
	      "       cordon mcp pins approve NAME [TOOL] [--pins FILE]\n"
	      "       cordon mcp pins reset NAME [--pins FILE]\n"
	      "\n"
	      "The MCP gateway (cordon mcp --name NAME -- SERVER...) pins each\n"
	      "tool's definition the first time it sees a server (trust on\n"
	      "first use). A later change, a tool that appears on a known\n"
	      "server, and a tool whose text hides characters or speaks to the\n"
	      "model (tool-poisoning) are pending: calls to them are blocked\n"
	      "until approved here.\n"
	      "\n"
	      "  list              every server and tool: state, reason, flags,\n"
	      "                    fingerprint, first seen; pending versions and\n"
	      "                    their findings under each tool\n"
	      "  diff NAME TOOL    the approved and the pending definition side\n"
	      "                    by side ('|' differs, '<' '>' only on one\n"
	      "                    side, '!' hidden characters on the line)\n"
	      "  approve NAME      approve every pending version of server NAME\n"
	      "                    (its instructions too), or only TOOL\n"
	      "  reset NAME        forget server NAME: its next tools/list is a\n"
	      "                    first use again\n"
	      "\n"
	      "options:\n"
	      "  --pins FILE       the pins file (default: mcp.pins_path, else\n"
	      "                    $XDG_STATE_HOME/cordon/mcp-pins.json)\n"
	      "  --config FILE     a configuration file applied last\n"
	      "  --json            list: the whole store as one line of JSON;\n"
	      "                    diff: the state and both definitions\n"
	      "  --width N         diff: the width to fit (default: the\n"
	      "                    terminal's, else 160)\n"
	      "  -h, --help        show this help\n"
	      "\n"
	      "exit status: 0 done, 1 unknown server or tool, or a pins file\n"
	      "that cannot be read or written, 2 usage or configuration error.\n",
	      out);
}

struct pins_opts {
	const char *pins;
	const char *config;
	bool json;
	long width;
};

/* Prints s escaped; returns the number of columns it took. */
static size_t put_escaped(FILE *out, const char *s)
{
	char *e = mcpscan_escape(s, strlen(s));
	size_t cols = 0;

	if (!e) {
		fputs("?", out);
		return 1;
	}
	fputs(e, out);
	for (const unsigned char *p = (const unsigned char *)e; *p; p++)
		cols += (*p & 0xc0) != 0x80;
	free(e);
	return cols;
}

/* Code points in s (the columns an escaped string takes). */
static size_t cols_of(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* The escaped form of s, cut to max columns with "…". malloc'd. */
static char *escaped_cut(const char *s, size_t max)
{
	char *e = mcpscan_escape(s, strlen(s));
	size_t cols = 0, i;

	if (!e || cols_of(e, strlen(e)) <= max)
		return e;
	for (i = 0; e[i]; i++) {
		if (((unsigned char)e[i] & 0xc0) != 0x80 && ++cols == max)
			break;
	}
	/* i is the first byte of the max-th code point: "…" and the NUL go
	 * there (growing the buffer when the rest was shorter). */
	if (i + 4 > strlen(e) + 1) {
		char *bigger = realloc(e, i + 4);
		if (!bigger) {
			free(e);
			return NULL;
		}
		e = bigger;
	}
	memcpy(e + i, "\xe2\x80\xa6", 4);
	return e;
}

static const cJSON *member(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *str_of(const cJSON *o, const char *k)
{
	const cJSON *v = member(o, k);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The pins file's path: --pins, else mcp.pins_path, else the default. */
static int resolve_path(const struct pins_opts *o, char **out)
{
	struct cordon_config *cfg = NULL;
	char buf[4096];
	int st;

	*out = NULL;
	if (o->pins) {
		*out = strdup(o->pins);
	} else {
		st = cli_load_config(&cfg, o->config, NULL);
		if (st != 0)
			return st;
		if (cfg->mcp_pins_path) {
			*out = strdup(cfg->mcp_pins_path);
		} else if (pins_default_path(buf, sizeof(buf)) == 0) {
			*out = strdup(buf);
		} else {
			cordon_config_free(cfg);
			cli_report("mcp pins", NULL,
				   "no place for the pins file: HOME and "
				   "XDG_STATE_HOME are unset or relative "
				   "(set mcp.pins_path or pass --pins)");
			return CLI_EXIT_USAGE;
		}
		cordon_config_free(cfg);
	}
	if (!*out) {
		cli_report("mcp pins", NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

static int open_pins(const char *path, struct mcp_pins **p)
{
	struct cordon_diag d;
	enum cordon_err e;

	memset(&d, 0, sizeof(d));
	e = pins_open(path, p, &d);
	if (e != CORDON_OK) {
		cli_report("mcp pins", NULL,
			   d.message[0] ? d.message : cordon_strerror(e));
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* The store as a document to walk (from pins_to_json). */
static cJSON *store_doc(const struct mcp_pins *p)
{
	char *text = pins_to_json(p);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;

	cJSON_free(text);
	if (!doc)
		cli_report("mcp pins", NULL, "out of memory");
	return doc;
}

/* ---- list --------------------------------------------------------------- */

/* The flags worth a column: the three hidden classes are summed up by
 * "hidden-characters" (the findings under the row name them). */
static bool flag_shown(const cJSON *f)
{
	return cJSON_IsString(f) &&
	       strcmp(f->valuestring, "tag-characters") != 0 &&
	       strcmp(f->valuestring, "zero-width-characters") != 0 &&
	       strcmp(f->valuestring, "bidi-controls") != 0;
}

static void print_flags(FILE *out, const cJSON *flags, size_t width)
{
	const cJSON *f;
	size_t n = 0;

	cJSON_ArrayForEach (f, flags) {
		if (!flag_shown(f))
			continue;
		if (n)
			n += (size_t)fprintf(out, ",");
		n += put_escaped(out, f->valuestring);
	}
	if (n == 0)
		n += (size_t)fprintf(out, "-");
	while (n++ < width)
		fputc(' ', out);
}

static size_t flags_width(const cJSON *flags)
{
	const cJSON *f;
	size_t n = 0;

	cJSON_ArrayForEach (f, flags)
		if (flag_shown(f))
			n += (n ? 1 : 0) + strlen(f->valuestring);
	return n ? n : 1;
}

/* Prints a name cut to its column and padded. */
static void print_cell(FILE *out, const char *s, size_t width)
{
	char *e = escaped_cut(s, width);
	size_t c;

	if (!e) {
		fputs("?", out);
		c = 1;
	} else {
		fputs(e, out);
		c = cols_of(e, strlen(e));
		free(e);
	}
	while (c++ < width)
		fputc(' ', out);
}

static size_t name_width(const char *s)
{
	char *e = mcpscan_escape(s, strlen(s));
	size_t c = e ? cols_of(e, strlen(e)) : 1;

	free(e);
	return c > NAME_COL_MAX ? NAME_COL_MAX : c;
}

/* The findings of a definition or text, indented, at most 8. */
static void print_findings(FILE *out, const cJSON *def, const char *text)
{
	struct mcpscan_result r;
	size_t kept;

	memset(&r, 0, sizeof(r));
	if (def)
		mcpscan_tool(def, &r);
	else if (text)
		mcpscan_text(text, strlen(text), "instructions", &r);
	kept = r.nfindings < 8 ? r.nfindings : 8;
	for (size_t i = 0; i < kept; i++) {
		fputs("      ! ", out);
		put_escaped(out, r.findings[i]);
		fputc('\n', out);
	}
	if (r.nfindings > kept)
		fprintf(out, "      ! (%zu more findings)\n",
			r.nfindings - kept);
}

struct row {
	const char *server, *tool;
	const cJSON *entry; /* NULL: a server with nothing pinned yet */
	bool instructions;
};

static void print_row(FILE *out, const struct row *r, size_t ws, size_t wt,
		      size_t wf)
{
	const char *state = str_of(r->entry, "state");
	const char *reason = str_of(r->entry, "reason");
	const char *sha = str_of(r->entry, "sha256");
	const char *seen = str_of(r->entry, "firstSeen");
	const cJSON *pend = member(r->entry, "pending");

	if (r->instructions)
		state = pend ? "pending" : "approved";
	print_cell(out, r->server, ws);
	fputs("  ", out);
	if (!r->entry) {
		print_cell(out, "(no tools)", wt);
		fputc('\n', out);
		return;
	}
	if (r->instructions)
		print_cell(out, "(instructions)", wt);
	else
		print_cell(out, r->tool, wt);
	fprintf(out, "  %-8s  %-7s  ", state ? state : "?",
		reason ? reason : "-");
	print_flags(out, member(r->entry, "flags"), wf);
	fprintf(out, "  %-12.12s  %s\n", sha ? sha : "-", seen ? seen : "-");
	if (pend) {
		const char *psha = str_of(pend, "sha256");
		const cJSON *pdef = member(pend, "definition");
		const char *text = r->instructions ?
					   str_of(pend, "text") :
					   str_of(pdef, "description");
		char *cut = escaped_cut(text ? text : "", 100);

		fprintf(out, "      pending %-12.12s %s\n",
			psha ? psha : "(no fingerprint)", cut ? cut : "?");
		free(cut);
		print_findings(out, r->instructions ? NULL : pdef,
			       r->instructions ? str_of(pend, "text") : NULL);
	}
}

static int cmd_list(struct mcp_pins *p, const struct pins_opts *o,
		    const char *path)
{
	const cJSON *servers, *s, *t;
	struct row *rows = NULL;
	size_t nrows = 0, cap = 0, ws = 6, wt = 4, wf = 5;
	cJSON *doc;

	if (o->json) {
		char *text = pins_to_json(p);
		if (!text) {
			cli_report("mcp pins", NULL, "out of memory");
			return CLI_EXIT_FAILURE;
		}
		/* ASCII only: every other character as \uXXXX (a pair for
		 * those past U+FFFF), so nothing hidden reaches a terminal
		 * and the JSON means the same. */
		for (const unsigned char *q = (const unsigned char *)text;
		     *q;) {
			unsigned cp = *q, n = 1;
			if (cp < 0x80) {
				if (cp == 0x7f)
					fputs("\\u007f", stdout);
				else
					fputc((int)cp, stdout);
				q++;
				continue;
			}
			if ((cp & 0xe0) == 0xc0 && (q[1] & 0xc0) == 0x80) {
				cp = ((cp & 0x1f) << 6) | (q[1] & 0x3f);
				n = 2;
			} else if ((cp & 0xf0) == 0xe0 &&
				   (q[1] & 0xc0) == 0x80 &&
				   (q[2] & 0xc0) == 0x80) {
				cp = ((cp & 0x0f) << 12) |
				     ((unsigned)(q[1] & 0x3f) << 6) |
				     (q[2] & 0x3f);
				n = 3;
			} else if ((cp & 0xf8) == 0xf0 &&
				   (q[1] & 0xc0) == 0x80 &&
				   (q[2] & 0xc0) == 0x80 &&
				   (q[3] & 0xc0) == 0x80) {
				cp = ((cp & 0x07) << 18) |
				     ((unsigned)(q[1] & 0x3f) << 12) |
				     ((unsigned)(q[2] & 0x3f) << 6) |
				     (q[3] & 0x3f);
				n = 4;
			} else {
				cp = 0xfffd; /* not UTF-8: cannot be JSON */
			}
			if (cp >= 0x10000 && cp <= 0x10ffff) {
				cp -= 0x10000;
				printf("\\u%04x\\u%04x", 0xd800 + (cp >> 10),
				       0xdc00 + (cp & 0x3ff));
			} else {
				printf("\\u%04x", cp > 0xffff ? 0xfffd : cp);
			}
			q += n;
		}
		fputc('\n', stdout);
		cJSON_free(text);
		return 0;
	}

	doc = store_doc(p);
	if (!doc)
		return CLI_EXIT_FAILURE;
	servers = member(doc, "servers");
	cJSON_ArrayForEach (s, servers) {
		size_t add = 1;
		cJSON_ArrayForEach (t, member(s, "tools"))
			add++;
		if (nrows + add > cap) {
			size_t ncap = (nrows + add) * 2;
			struct row *nr = realloc(rows, ncap * sizeof(*nr));
			if (!nr) {
				free(rows);
				cJSON_Delete(doc);
				cli_report("mcp pins", NULL, "out of memory");
				return CLI_EXIT_FAILURE;
			}
			rows = nr;
			cap = ncap;
		}
		if (member(s, "instructions"))
			rows[nrows++] = (struct row){ s->string, NULL,
						      member(s, "instructions"),
						      true };
		cJSON_ArrayForEach (t, member(s, "tools"))
			rows[nrows++] =
				(struct row){ s->string, t->string, t, false };
		if (add == 1 && !member(s, "instructions"))
			rows[nrows++] =
				(struct row){ s->string, NULL, NULL, false };
	}
	fputs("pins: ", stdout);
	put_escaped(stdout, path);
	fputc('\n', stdout);
	if (nrows == 0) {
		fputs("no pinned servers\n", stdout);
		free(rows);
		cJSON_Delete(doc);
		return 0;
	}
	for (size_t i = 0; i < nrows; i++) {
		size_t w = name_width(rows[i].server);
		ws = w > ws ? w : ws;
		w = rows[i].instructions ? 14 :
		    !rows[i].entry	 ? 10 :
					   name_width(rows[i].tool);
		wt = w > wt ? w : wt;
		w = flags_width(member(rows[i].entry, "flags"));
		wf = w > wf ? w : wf;
	}
	printf("%-*s  %-*s  %-8s  %-7s  %-*s  %-12s  %s\n", (int)ws, "SERVER",
	       (int)wt, "TOOL", "STATE", "REASON", (int)wf, "FLAGS",
	       "FINGERPRINT", "FIRST SEEN");
	for (size_t i = 0; i < nrows; i++)
		print_row(stdout, &rows[i], ws, wt, wf);
	free(rows);
	cJSON_Delete(doc);
	return 0;
}

/* ---- diff ---------------------------------------------------------------- */

struct lines {
	char **v; /* raw lines (tabs as two spaces) */
	size_t n;
};

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Pretty JSON of v split into lines. false when out of memory. */
static bool json_lines(const cJSON *v, struct lines *l)
{
	char *text, *p;

	l->v = NULL;
	l->n = 0;
	if (!v)
		return true;
	text = cJSON_Print(v);
	if (!text)
		return false;
	for (p = text;;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), tabs = 0, o = 0;
		char **nv, *line;

		for (size_t i = 0; i < len; i++)
			tabs += p[i] == '\t';
		line = malloc(len + tabs + 1);
		nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
		if (!line || !nv) {
			free(line);
			if (nv)
				l->v = nv;
			cJSON_free(text);
			lines_free(l);
			return false;
		}
		l->v = nv;
		/* cJSON indents with tabs (two spaces here) and puts one
		 * after ':' (one space); strings hold no raw tab. */
		for (size_t i = 0; i < len; i++) {
			if (p[i] == '\t' && (i == 0 || p[i - 1] == '\t')) {
				line[o++] = ' ';
				line[o++] = ' ';
			} else if (p[i] == '\t') {
				line[o++] = ' ';
			} else {
				line[o++] = p[i];
			}
		}
		line[o] = '\0';
		l->v[l->n++] = line;
		if (!nl)
			break;
		p = nl + 1;
	}
	cJSON_free(text);
	return true;
}

enum op { OP_SAME, OP_CHANGE, OP_LEFT, OP_RIGHT };

struct drow {
	enum op op;
	const char *l, *r; /* NULL: nothing on that side */
};

/* Aligns a and b (longest common subsequence of lines; by index when that
 * table would be too big) into rows. */
static struct drow *align(const struct lines *a, const struct lines *b,
			  size_t *nrows)
{
	size_t n = a->n, m = b->n, k = 0, i, j;
	struct drow *rows = calloc(n + m + 1, sizeof(*rows));
	uint32_t *dp = NULL;

	*nrows = 0;
	if (!rows)
		return NULL;
	if (n && m && (n + 1) <= DIFF_LCS_MAX / (m + 1))
		dp = calloc((n + 1) * (m + 1), sizeof(*dp));
	if (!dp) {
		for (i = 0; i < n || i < m; i++) {
			const char *l = i < n ? a->v[i] : NULL;
			const char *r = i < m ? b->v[i] : NULL;
			rows[k].l = l;
			rows[k].r = r;
			rows[k++].op = !l		 ? OP_RIGHT :
				       !r		 ? OP_LEFT :
				       strcmp(l, r) == 0 ? OP_SAME :
							   OP_CHANGE;
		}
		*nrows = k;
		return rows;
	}
#define DP(x, y) dp[(size_t)(x) * (m + 1) + (y)]
	for (i = n; i-- > 0;)
		for (j = m; j-- > 0;)
			DP(i, j) = strcmp(a->v[i], b->v[j]) == 0 ?
					   DP(i + 1, j + 1) + 1 :
				   DP(i + 1, j) >= DP(i, j + 1) ? DP(i + 1, j) :
								  DP(i, j + 1);
	i = j = 0;
	while (i < n || j < m) {
		size_t dl = 0, dr = 0;

		if (i < n && j < m && strcmp(a->v[i], b->v[j]) == 0) {
			rows[k++] =
				(struct drow){ OP_SAME, a->v[i++], b->v[j++] };
			continue;
		}
		/* A run of removals and additions: paired side by side. */
		while (i + dl < n &&
		       (j + dr >= m ||
			DP(i + dl + 1, j + dr) >= DP(i + dl, j + dr + 1)) &&
		       !(j + dr < m && strcmp(a->v[i + dl], b->v[j + dr]) == 0))
			dl++;
		while (j + dr < m &&
		       !(i + dl < n && strcmp(a->v[i + dl], b->v[j + dr]) == 0))
			dr++;
		for (size_t t = 0; t < dl || t < dr; t++) {
			const char *l = t < dl ? a->v[i + t] : NULL;
			const char *r = t < dr ? b->v[j + t] : NULL;
			rows[k++] = (struct drow){ !l ? OP_RIGHT :
						   !r ? OP_LEFT :
							OP_CHANGE,
						   l, r };
		}
		i += dl;
		j += dr;
	}
#undef DP
	free(dp);
	*nrows = k;
	return rows;
}

/* Prints the next width columns of escaped text e from *off, padded to
 * width when pad is set. */
static void put_chunk(FILE *out, const char *e, size_t *off, size_t width,
		      bool pad)
{
	size_t c = 0, i = *off;

	while (e[i] && c < width) {
		size_t n = 1;
		while ((((unsigned char)e[i + n]) & 0xc0) == 0x80)
			n++;
		/* An escape "\u{XXXX}" is not split across lines. */
		if (e[i] == '\\' && e[i + 1] == 'u' && e[i + 2] == '{') {
			const char *close = strchr(e + i, '}');
			size_t u = close ? (size_t)(close - (e + i)) + 1 : 1;
			if (c > 0 && c + u > width && u <= width)
				break;
		}
		fwrite(e + i, 1, n, out);
		i += n;
		c++;
	}
	*off = i;
	while (pad && c++ < width)
		fputc(' ', out);
}

/* One row of the side-by-side view, wrapped to width per side. */
static bool print_drow(FILE *out, const struct drow *r, size_t width)
{
	static const char gutter[] = { ' ', '|', '<', '>' };
	char *el = r->l ? mcpscan_escape(r->l, strlen(r->l)) : strdup("");
	char *er = r->r ? mcpscan_escape(r->r, strlen(r->r)) : strdup("");
	size_t ol = 0, orr = 0;
	bool hidden, first = true;

	if (!el || !er) {
		free(el);
		free(er);
		return false;
	}
	/* Escaping changed the line: it holds hidden or control
	 * characters. */
	hidden = (r->l && strcmp(el, r->l) != 0) ||
		 (r->r && strcmp(er, r->r) != 0);
	do {
		put_chunk(out, el, &ol, width, true);
		fprintf(out, " %c ", first ? gutter[r->op] : ' ');
		put_chunk(out, er, &orr, width, first && hidden);
		fputs(first && hidden ? " !\n" : "\n", out);
		first = false;
	} while (el[ol] || er[orr]);
	free(el);
	free(er);
	return true;
}

static long terminal_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long c;

	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	if (env) {
		errno = 0;
		c = strtol(env, &end, 10);
		if (!errno && end != env && !*end && c >= 40 && c <= 1000)
			return c;
	}
	return 160;
}

static void print_scan(FILE *out, const char *label, const cJSON *def)
{
	struct mcpscan_result r;
	size_t kept;

	if (!def)
		return;
	memset(&r, 0, sizeof(r));
	mcpscan_tool(def, &r);
	kept = r.nfindings < 8 ? r.nfindings : 8;
	fprintf(out, "%s: %s\n", label,
		r.nfindings ? "findings" : "no findings");
	for (size_t i = 0; i < kept; i++) {
		fputs("  ! ", out);
		put_escaped(out, r.findings[i]);
		fputc('\n', out);
	}
	if (r.nfindings > kept)
		fprintf(out, "  ! (%zu more)\n", r.nfindings - kept);
}

/* `pins diff --json`: {"server", "tool", "state", "reason", "flags",
 * "approved": {"sha256", "definition"} | null, "pending": {…} | null}. */
static int cmd_diff_json(struct mcp_pins *p, const char *server,
			 const char *tool)
{
	const cJSON *appr = NULL, *pend = NULL, *entry;
	cJSON *doc, *o = NULL, *a;
	char *text = NULL;
	int st = CLI_EXIT_FAILURE;

	if (pins_versions(p, server, tool, &appr, &pend) != CORDON_OK) {
		fputs("cordon mcp pins: unknown tool '", stderr);
		cli_print_escaped(stderr, tool, strlen(tool));
		fputs("' of server '", stderr);
		cli_print_escaped(stderr, server, strlen(server));
		fputs("'\n", stderr);
		return PINS_EXIT_NOT_FOUND;
	}
	doc = store_doc(p);
	if (!doc)
		return CLI_EXIT_FAILURE;
	entry = member(member(member(member(doc, "servers"), server), "tools"),
		       tool);
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "server", server) ||
	    !cJSON_AddStringToObject(o, "tool", tool) ||
	    !cJSON_AddItemToObject(o, "state",
				   str_of(entry, "state") ?
					   cJSON_CreateString(str_of(entry,
								     "state")) :
					   cJSON_CreateNull()) ||
	    !cJSON_AddItemToObject(o, "reason",
				   str_of(entry, "reason") ?
					   cJSON_CreateString(str_of(entry,
								     "reason")) :
					   cJSON_CreateNull()) ||
	    !cJSON_AddItemToObject(
		    o, "flags",
		    member(entry, "flags") ?
			    cJSON_Duplicate(member(entry, "flags"), 1) :
			    cJSON_CreateArray()))
		goto out;
	a = appr ? cJSON_AddObjectToObject(o, "approved") :
		   cJSON_AddNullToObject(o, "approved");
	if (!a || (appr && (!cJSON_AddItemToObject(
				    a, "sha256",
				    str_of(entry, "sha256") ?
					    cJSON_CreateString(
						    str_of(entry, "sha256")) :
					    cJSON_CreateNull()) ||
			    !cJSON_AddItemToObject(a, "definition",
						   cJSON_Duplicate(appr, 1)))))
		goto out;
	a = pend ? cJSON_AddObjectToObject(o, "pending") :
		   cJSON_AddNullToObject(o, "pending");
	if (!a ||
	    (pend &&
	     (!cJSON_AddItemToObject(
		      a, "sha256",
		      str_of(member(entry, "pending"), "sha256") ?
			      cJSON_CreateString(str_of(
				      member(entry, "pending"), "sha256")) :
			      cJSON_CreateNull()) ||
	      !cJSON_AddItemToObject(a, "definition",
				     cJSON_Duplicate(pend, 1)))))
		goto out;
	text = cJSON_PrintUnformatted(o);
	if (text && puts(text) >= 0)
		st = 0;
out:
	if (st)
		cli_report("mcp pins", NULL, "out of memory");
	free(text);
	cJSON_Delete(o);
	cJSON_Delete(doc);
	return st;
}

static int cmd_diff(struct mcp_pins *p, const struct pins_opts *o,
		    const char *server, const char *tool)
{
	const cJSON *appr = NULL, *pend = NULL, *entry;
	struct lines la, lb;
	struct drow *rows;
	size_t nrows, width;
	cJSON *doc;
	long cols = o->width ? o->width : terminal_width();
	int st = 0;

	if (pins_versions(p, server, tool, &appr, &pend) != CORDON_OK) {
		fputs("cordon mcp pins: unknown tool '", stderr);
		cli_print_escaped(stderr, tool, strlen(tool));
		fputs("' of server '", stderr);
		cli_print_escaped(stderr, server, strlen(server));
		fputs("'\n", stderr);
		return PINS_EXIT_NOT_FOUND;
	}
	doc = store_doc(p);
	if (!doc)
		return CLI_EXIT_FAILURE;
	entry = member(member(member(member(doc, "servers"), server), "tools"),
		       tool);
	if (!json_lines(appr, &la)) {
		cJSON_Delete(doc);
		cli_report("mcp pins", NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	if (!json_lines(pend, &lb)) {
		lines_free(&la);
		cJSON_Delete(doc);
		cli_report("mcp pins", NULL, "out of memory");
		return CLI_EXIT_FAILURE;
	}
	put_escaped(stdout, server);
	fputc('/', stdout);
	put_escaped(stdout, tool);
	printf(": %s", str_of(entry, "state") ? str_of(entry, "state") : "?");
	if (str_of(entry, "reason"))
		printf(" (%s)", str_of(entry, "reason"));
	printf("; approved %.12s",
	       str_of(entry, "sha256") ? str_of(entry, "sha256") : "(never)");
	if (pend)
		printf(", pending %.12s",
		       str_of(member(entry, "pending"), "sha256") ?
			       str_of(member(entry, "pending"), "sha256") :
			       "(no fingerprint)");
	fputc('\n', stdout);
	if (!pend) {
		fputs("nothing pending; the approved definition:\n", stdout);
		for (size_t i = 0; i < la.n; i++) {
			put_escaped(stdout, la.v[i]);
			fputc('\n', stdout);
		}
		print_scan(stdout, "approved", appr);
		goto out;
	}
	width = cols > 10 ? ((size_t)cols - 5) / 2 : 20;
	if (width < 20)
		width = 20;
	rows = align(&la, &lb, &nrows);
	if (!rows) {
		cli_report("mcp pins", NULL, "out of memory");
		st = CLI_EXIT_FAILURE;
		goto out;
	}
	{
		size_t off = 0;
		put_chunk(stdout, appr ? "approved" : "approved: (never)", &off,
			  width, true);
		fputs("   pending\n", stdout);
	}
	for (size_t i = 0; i < nrows; i++)
		if (!print_drow(stdout, &rows[i], width)) {
			cli_report("mcp pins", NULL, "out of memory");
			st = CLI_EXIT_FAILURE;
			break;
		}
	free(rows);
	print_scan(stdout, "approved", appr);
	print_scan(stdout, "pending", pend);
out:
	lines_free(&la);
	lines_free(&lb);
	cJSON_Delete(doc);
	return st;
}

/* ---- approve and reset --------------------------------------------------- */

static bool is_pending(const cJSON *entry)
{
	return member(entry, "pending") != NULL;
}

static int report_err(enum cordon_err e, const struct cordon_diag *d)
{
	cli_report("mcp pins", NULL,
		   d->message[0] ? d->message : cordon_strerror(e));
	return CLI_EXIT_FAILURE;
}

static int cmd_approve(struct mcp_pins *p, const char *server, const char *tool)
{
	struct cordon_diag d;
	cJSON *before, *after;
	const cJSON *bs, *as, *t;
	size_t n = 0;
	enum cordon_err e;

	before = store_doc(p);
	if (!before)
		return CLI_EXIT_FAILURE;
	memset(&d, 0, sizeof(d));
	e = pins_approve(p, server, tool, &n, &d);
	if (e != CORDON_OK) {
		cJSON_Delete(before);
		return report_err(e, &d);
	}
	after = store_doc(p);
	if (!after) {
		cJSON_Delete(before);
		return CLI_EXIT_FAILURE;
	}
	bs = member(member(before, "servers"), server);
	as = member(member(after, "servers"), server);
	/* Name what moved from pending to approved, and what stays. */
	if (is_pending(member(bs, "instructions")) &&
	    !is_pending(member(as, "instructions"))) {
		fputs("approved ", stdout);
		put_escaped(stdout, server);
		puts(" (instructions)");
	}
	cJSON_ArrayForEach (t, member(as, "tools")) {
		const cJSON *old = member(member(bs, "tools"), t->string);
		if (tool && strcmp(tool, t->string) != 0)
			continue;
		if (is_pending(old) && !is_pending(t)) {
			fputs("approved ", stdout);
			put_escaped(stdout, server);
			fputc('/', stdout);
			put_escaped(stdout, t->string);
			printf(" (sha256 %.12s)\n",
			       str_of(t, "sha256") ? str_of(t, "sha256") : "?");
		} else if (is_pending(t)) {
			fputs("still pending: ", stdout);
			put_escaped(stdout, server);
			fputc('/', stdout);
			put_escaped(stdout, t->string);
			puts(" (its definition has no fingerprint)");
		}
	}
	if (n == 0) {
		fputs("nothing pending for ", stdout);
		put_escaped(stdout, server);
		if (tool) {
			fputc('/', stdout);
			put_escaped(stdout, tool);
		}
		fputc('\n', stdout);
	}
	cJSON_Delete(before);
	cJSON_Delete(after);
	return 0;
}

static int cmd_reset(struct mcp_pins *p, const char *server)
{
	struct cordon_diag d;
	enum cordon_err e;

	memset(&d, 0, sizeof(d));
	e = pins_reset(p, server, &d);
	if (e != CORDON_OK)
		return report_err(e, &d);
	fputs("forgot ", stdout);
	put_escaped(stdout, server);
	puts(": its next tools/list pins its tools anew (trust on first "
	     "use)");
	return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

static int parse_opts(int argc, char **argv, struct pins_opts *o)
{
	enum { OPT_PINS = 256, OPT_CONFIG, OPT_JSON, OPT_WIDTH };
	static const struct option longopts[] = {
		{ "pins", required_argument, NULL, OPT_PINS },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PINS:
			o->pins = optarg;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_WIDTH:
			errno = 0;
			o->width = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o->width < 40 ||
			    o->width > 1000) {
				fputs("cordon mcp pins: --width: expected 40 "
				      "to 1000\n",
				      stderr);
				return -CLI_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return OPTS_HELP;
		case ':':
		default:
			return -cli_getopt_error("mcp pins", c, argv);
		}
	}
	return optind;
}

int cli_mcp_pins(int argc, char **argv)
{
	struct pins_opts o;
	struct mcp_pins *p = NULL;
	const char *sub;
	char *path = NULL;
	int first, nargs, st;
	char **args;

	memset(&o, 0, sizeof(o));
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 ||
	    strcmp(sub, "help") == 0) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	/* Options may come anywhere after the subcommand. */
	first = parse_opts(argc - 1, argv + 1, &o);
	if (first == OPTS_HELP)
		return CLI_EXIT_OK;
	if (first < 0) {
		fputs("try 'cordon mcp pins --help'\n", stderr);
		return -first;
	}
	args = argv + 1 + first;
	nargs = argc - 1 - first;
	if (!((strcmp(sub, "list") == 0 && nargs == 0) ||
	      (strcmp(sub, "diff") == 0 && nargs == 2) ||
	      (strcmp(sub, "approve") == 0 && (nargs == 1 || nargs == 2)) ||
	      (strcmp(sub, "reset") == 0 && nargs == 1))) {
		if (strcmp(sub, "list") && strcmp(sub, "diff") &&
		    strcmp(sub, "approve") && strcmp(sub, "reset")) {
			fputs("cordon mcp pins: unknown command '", stderr);
			cli_print_escaped(stderr, sub, strlen(sub));
			fputs("'\n", stderr);
		} else {
			fprintf(stderr,
				"cordon mcp pins %s: wrong number of "
				"arguments\n",
				sub);
		}
		fputs("try 'cordon mcp pins --help'\n", stderr);
		return CLI_EXIT_USAGE;
	}
	if (o.json && strcmp(sub, "list") != 0 && strcmp(sub, "diff") != 0) {
		fputs("cordon mcp pins: --json goes with list and diff\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	st = resolve_path(&o, &path);
	if (st != 0)
		return st;
	st = open_pins(path, &p);
	if (st == 0) {
		if (strcmp(sub, "list") == 0)
			st = cmd_list(p, &o, path);
		else if (strcmp(sub, "diff") == 0 && o.json)
			st = cmd_diff_json(p, args[0], args[1]);
		else if (strcmp(sub, "diff") == 0)
			st = cmd_diff(p, &o, args[0], args[1]);
		else if (strcmp(sub, "approve") == 0)
			st = cmd_approve(p, args[0],
					 nargs == 2 ? args[1] : NULL);
		else
			st = cmd_reset(p, args[0]);
	}
	pins_free(p);
	free(path);
	if (fflush(stdout) != 0 && st == 0) {
		cli_report("mcp pins", NULL, "cannot write the output");
		st = CLI_EXIT_FAILURE;
	}
	return st;
}
