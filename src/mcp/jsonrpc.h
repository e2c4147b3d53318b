/* jsonrpc — newline-delimited JSON-RPC 2.0 framing for the MCP gateway.
 *
 * The stdio transport of MCP: one message a line, UTF-8, no embedded
 * newlines. The framer cuts a byte stream into lines with a ceiling; the
 * parser reads one line into a message and says what it is, keeping where
 * the id's bytes are so the gateway can answer with the id exactly as the
 * peer wrote it (a number cJSON cannot hold exactly stays exact). Pure;
 * fuzzed.
 */
#ifndef CORDON_JSONRPC_H
#define CORDON_JSONRPC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "buf.h"
#include "cordon.h"

struct jsonrpc_limits {
	size_t max_message; /* bytes in one line; 0: 4 MiB */
	unsigned max_depth; /* nesting of arrays and objects; 0: 64 */
	size_t max_batch;   /* elements of a batch; 0: 256 */
};

/* Cuts a stream into lines. */
struct jsonrpc_framer {
	/* a partial line, or the lines held back after a stop; no ceiling
	 * of its own (a line is bounded by max, what is held back by the
	 * reads that brought it) */
	struct buf pend;
	size_t max;     /* lines longer than this are dropped whole */
	bool dropping;  /* inside a line that went over max */
};

/* Called for each complete line (without '\n'; a '\r' before it is cut
 * too). too_long: the line went over max; line is then NULL and len the
 * bytes dropped so far. Return non-zero to stop feeding (the rest of the
 * data stays buffered). */
typedef int (*jsonrpc_line_fn)(void *ud, const char *line, size_t len,
			    bool too_long);

void jsonrpc_framer_init(struct jsonrpc_framer *f, size_t max);
void jsonrpc_framer_free(struct jsonrpc_framer *f);
/* Feeds data[0..n); CORDON_E_NOMEM. Empty lines are skipped. */
enum cordon_err jsonrpc_framer_feed(struct jsonrpc_framer *f, const char *data,
				 size_t n, jsonrpc_line_fn fn, void *ud);
/* Bytes of an unfinished line buffered (at EOF: a message cut short). */
size_t jsonrpc_framer_pending(const struct jsonrpc_framer *f);

enum jsonrpc_kind {
	JSONRPC_INVALID = 0,  /* not JSON, not an object/array, or not JSON-RPC */
	JSONRPC_REQUEST,      /* method and id */
	JSONRPC_NOTIFICATION, /* method, no id */
	JSONRPC_RESPONSE,     /* result or error, and id */
	JSONRPC_BATCH,        /* a non-empty array; elements in items */
};

struct jsonrpc_msg {
	enum jsonrpc_kind kind;
	cJSON *root;          /* owned; NULL when the line is not JSON */
	const cJSON *id;      /* in root, or NULL */
	const char *id_raw;   /* the id's bytes in the line, or NULL */
	size_t id_raw_len;
	const char *method;   /* in root, or NULL */
	const cJSON *params;  /* in root, or NULL */
	char id_key[96];      /* a map key for the id: "n:<text>", "s:<text>"
			       * (the raw bytes; "h:<sha256>" when longer than
			       * fits), "" when there is no id */
	struct jsonrpc_msg *items; /* JSONRPC_BATCH: nitems messages (they borrow
				 * root's memory; their id_raw point into the
				 * line) */
	size_t nitems;
};

/* Parses line[0..len). Always fills m (kind JSONRPC_INVALID with why set when
 * it is not a valid JSON-RPC 2.0 message; an id is still found when the
 * line is an object with one, so the error answer can carry it). Returns
 * CORDON_OK, CORDON_E_LIMIT (over a limit; why names it) or
 * CORDON_E_NOMEM. Free with jsonrpc_msg_free. */
enum cordon_err jsonrpc_parse(const char *line, size_t len,
			   const struct jsonrpc_limits *lim, struct jsonrpc_msg *m,
			   char *why, size_t why_cap);
void jsonrpc_msg_free(struct jsonrpc_msg *m);

/* The first member name that appears twice in one object anywhere in v
 * (names that differ only in ASCII case, or by a letter whose case pair is
 * ASCII, count as the same: Go's encoding/json reads them as one), or NULL.
 * *nomem: it could not tell. Added for the gateway: the answers it
 * inspects (tools/list, initialize) are refused when the client could
 * read another member than the one pinned. */
const char *jsonrpc_dup_member(const cJSON *v, bool *nomem);

/* The nesting depth of json[0..len) (outside strings), counting stops at
 * stop_at + 1. */
unsigned jsonrpc_depth(const char *json, size_t len, unsigned stop_at);

/* Answers the gateway writes, each one line ending in '\n', malloc'd.
 * id_raw NULL means "null". */
/* {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}} */
char *jsonrpc_error_response(const char *id_raw, size_t id_raw_len, int code,
			  const char *message);
/* {"jsonrpc":"2.0","id":ID,"result":{"content":[{"type":"text","text":T}],
 *  "isError":true}}: a tool result the model reads */
char *jsonrpc_tool_error_result(const char *id_raw, size_t id_raw_len,
			     const char *text);
/* root re-serialised (cJSON_PrintUnformatted) with the id member's value
 * replaced by id_raw: for messages the gateway changes. */
char *jsonrpc_print_with_id(const cJSON *root, const char *id_raw,
			 size_t id_raw_len);

#endif
