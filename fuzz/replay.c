/* replay — runs a fuzz target's committed inputs as a TAP test, with any
 * compiler. Each argument is a directory (every regular file in it, sorted,
 * dot files skipped) or a single file; each input is one test. A crash stops
 * the stream, which the harness reports as a failure; the name of the input
 * being run is printed first so the log shows which one. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#include "banned.h"

/* Reads the whole file; *len gets its size. NULL with errno on failure. */
static uint8_t *read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *buf;
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size < 0) {
		close(fd);
		return NULL;
	}
	/* One spare byte so an empty file still gets a valid pointer. */
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	while (n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

struct input {
	char *path;
	int error; /* errno when the argument could not be listed */
};

static int add_input(struct input **list, size_t *n, size_t *cap,
		     const char *path, int error)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct input *nl = realloc(*list, ncap * sizeof(**list));

		if (!nl)
			return -1;
		*list = nl;
		*cap = ncap;
	}
	(*list)[*n].path = strdup(path);
	(*list)[*n].error = error;
	if (!(*list)[*n].path)
		return -1;
	(*n)++;
	return 0;
}

/* Lists the inputs named by one argument. -1 when out of memory. */
static int collect(const char *arg, struct input **list, size_t *n, size_t *cap)
{
	struct dirent **names;
	struct stat st;
	int count;
	int ret = 0;

	if (stat(arg, &st) < 0)
		return add_input(list, n, cap, arg, errno);
	if (!S_ISDIR(st.st_mode))
		return add_input(list, n, cap, arg, 0);
	count = scandir(arg, &names, visible, alphasort);
	if (count < 0)
		return add_input(list, n, cap, arg, errno);
	for (int i = 0; i < count; i++) {
		char path[4096];
		int len = snprintf(path, sizeof(path), "%s/%s", arg,
				   names[i]->d_name);
		struct stat fst;

		if (len < 0 || (size_t)len >= sizeof(path)) {
			ret = ret ? ret :
				    add_input(list, n, cap, names[i]->d_name,
					      ENAMETOOLONG);
		} else if (stat(path, &fst) == 0 && S_ISREG(fst.st_mode)) {
			ret = ret ? ret : add_input(list, n, cap, path, 0);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	struct input *list = NULL;
	size_t n = 0, cap = 0;
	int failed = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (collect(argv[i], &list, &n, &cap) < 0) {
			fprintf(stderr, "%s: out of memory\n", argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n == 0) {
		printf("1..0 # SKIP no inputs\n");
		return 0;
	}
	printf("1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		uint8_t *data;

		if (list[i].error) {
			printf("not ok %zu - %s: %s\n", i + 1, list[i].path,
			       strerror(list[i].error));
			failed++;
			free(list[i].path);
			continue;
		}
		data = read_file(list[i].path, &len);
		if (!data) {
			printf("not ok %zu - %s: %s\n", i + 1, list[i].path,
			       strerror(errno));
			failed++;
			free(list[i].path);
			continue;
		}
		printf("# running %s (%zu bytes)\n", list[i].path, len);
		LLVMFuzzerTestOneInput(data, len);
		printf("ok %zu - %s\n", i + 1, list[i].path);
		free(data);
		free(list[i].path);
	}
	free(list);
	return failed ? 1 : 0;
}
