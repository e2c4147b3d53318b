/* The libFuzzer entry point every fuzz/fuzz_*.c target defines. */
#ifndef CORDON_FUZZ_H
#define CORDON_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
