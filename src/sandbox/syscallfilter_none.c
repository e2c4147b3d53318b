/* The table of built programs for a cross build, where syscallfilter_gen
 * cannot run on the build machine: every choice is compiled at run time
 * (syscallfilter_get). */
#include "syscallfilter.h"

#include "banned.h"

const struct syscallfilter_built syscallfilter_built[SYSCALLFILTER_CHOICES];
