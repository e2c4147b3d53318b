/* atomic — whole-file replacement and store locks, shared by the JSON
 * stores (approvals, MCP pins) and `cordon init`.
 *
 * A file is replaced atomically: a temp file in the same directory, fsync,
 * rename over the target, fsync of the directory. A reader sees the old
 * text or the new one, never part of either. A store serialises its
 * read-modify-write cycles with an exclusive flock on a separate lock file
 * ("<path>.lock"), so the lock survives the rename.
 *
 * Every function returns 0, or -1 with errno set; none prints.
 */
#ifndef CORDON_ATOMICFILE_H
#define CORDON_ATOMICFILE_H

#include <stddef.h>
#include <sys/types.h>

/* The directory part of path into dir: "/" for "/name", "." for a bare
 * name. ENAMETOOLONG when it does not fit in cap; EISDIR when path is
 * empty or ends in '/' (it names no file). */
int atomic_dir_of(const char *path, char *dir, size_t cap);

/* mkdir -p dir; the directories it creates get mode. */
int atomic_mkdirs(const char *dir, mode_t mode);

/* Writes all n bytes of s to fd, retrying short writes and EINTR. */
int atomic_write_all(int fd, const char *s, size_t n);

/* Reads fd to its end, appending to out; out's ceiling is the most it
 * takes. 0, or -1 with errno: EFBIG when there is more than the ceiling
 * allows (out is failed), ENOMEM, or read's own (EINTR is retried). */
struct buf;
int atomic_read_all(int fd, struct buf *out);

/* Takes an exclusive flock on lockpath (created 0600, never through a
 * symlink), waiting at most wait_ms (ETIMEDOUT after). Returns the
 * descriptor (closing it releases the lock) or -1. */
int atomic_lock(const char *lockpath, int wait_ms);

/* The file a store at path is written as: path itself, unless path is a
 * symbolic link, then the file it points to (realpath, resolved once). A
 * symlinked store (dotfiles) keeps its link: its target gets the new
 * text, written beside the target, and the lock is the target's. -1 with
 * errno ENOENT for a link to nothing (refused: where it would land is not
 * this store's to choose), ENAMETOOLONG when it does not fit in cap. */
int atomic_resolve_link(const char *path, char *out, size_t cap);

/* Writes len bytes of data over path atomically, the new file with mode
 * (its permission bits), at the file path resolves to
 * (atomic_resolve_link). The directory must exist. Once the rename is
 * done the write has succeeded: a directory that cannot be synced (some
 * file systems refuse) still holds the new file. */
int atomic_write_file(const char *path, const char *data, size_t len,
		      mode_t mode);

/* Where cordon keeps its state (the audit log, the MCP pins, the sandbox's
 * placeholder registry): $XDG_STATE_HOME/cordon/NAME, or
 * HOME/.local/state/cordon/NAME (a relative $XDG_STATE_HOME is ignored, as
 * the XDG spec says). home NULL: $HOME; name NULL: the directory itself.
 * 0, or -1 when there is no absolute home or it does not fit in cap. */
int atomic_state_path(const char *home, const char *name, char *buf,
		      size_t cap);

/* cordon's directories under the XDG base directories: state (above),
 * configuration ($XDG_CONFIG_HOME/cordon, else HOME/.config/cordon: the
 * config file and the approvals) and cache ($XDG_CACHE_HOME/cordon, else
 * HOME/.cache/cordon: the sandbox probe's verdict), with NAME appended as
 * for atomic_state_path, which is atomic_xdg_path(ATOMIC_XDG_STATE, …).
 * (Data, $XDG_DATA_HOME, holds no file of cordon's: the sandbox's
 * credential table names other programs' files there.) */
enum atomic_xdg {
	ATOMIC_XDG_STATE,
	ATOMIC_XDG_CONFIG,
	ATOMIC_XDG_CACHE,
	ATOMIC_XDG_DATA,
};
int atomic_xdg_path(enum atomic_xdg kind, const char *home, const char *name,
		    char *buf, size_t cap);

/* The base directory itself: $XDG_..._HOME when it is absolute, else
 * its default below home (NULL: none). 0, or -1 when there is neither an
 * absolute variable nor an absolute home, or it does not fit in cap. */
int atomic_xdg_dir(enum atomic_xdg kind, const char *home, char *buf,
		   size_t cap);
/* The default's place below the home directory (".config"). */
const char *atomic_xdg_default(enum atomic_xdg kind);

#endif
