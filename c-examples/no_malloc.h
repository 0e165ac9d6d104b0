/* no_malloc.h -- see no_malloc.c. */
#ifndef NO_MALLOC_H
#define NO_MALLOC_H
/* Nonzero: any malloc/calloc/realloc/free(non-NULL) aborts the program. */
void no_malloc_arm(int on);
#endif
