/* The peer kernel-bench is measured against (tools/kernel-compare.sh): the same hold model on a
 * plain C binary heap, the textbook structure a discrete-event kernel starts from.
 *
 * It does exactly the work kernel-bench does with PushSimKernel's EventQueue, so that the two
 * can be compared in one run:
 *   - entries of (time in µs, sequence number, payload), 24 bytes, ordered by (time, sequence);
 *   - one array, sift-up and sift-down with a hole (no swaps), capacity reserved up front;
 *   - the same random stream: xoshiro256** seeded through SplitMix64, increments uniform in
 *     1...1,000,000 µs drawn with Lemire's multiply-and-reject, as SeededRandom.int(in:) draws;
 *   - `--pending` events queued untimed, then `--ops` times: pop the earliest, push it again at
 *     its time plus an increment; one warm-up, then `--reps` timed runs (monotonic clock).
 * Because the order and the draws are the same, the checksum of popped times it prints must equal
 * kernel-bench's: the script checks that, so a faster figure cannot come from different work.
 *
 *   cc -O2 -o .build/hold-heap tools/kernel-baseline/hold_heap.c
 *   .build/hold-heap [--pending N] [--ops N] [--reps N] [--seed N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { int64_t time; uint64_t sequence; uint64_t payload; } entry;

/* Whether `a` comes before `b`. Written without branches: the order of random times cannot be
 * predicted, and the form with `?:` ran at half this speed here (gcc 12, -O2), which would make
 * the baseline a straw man. */
static int precedes(const entry *a, const entry *b) {
    return (a->time < b->time) | ((a->time == b->time) & (a->sequence < b->sequence));
}

typedef struct { entry *items; size_t count; uint64_t next_sequence; } heap;

static void push(heap *h, uint64_t payload, int64_t time) {
    entry e = { time, h->next_sequence++, payload };
    size_t child = h->count++;
    while (child > 0) {
        size_t parent = (child - 1) >> 1;
        if (!precedes(&e, &h->items[parent])) break;
        h->items[child] = h->items[parent];
        child = parent;
    }
    h->items[child] = e;
}

static entry pop(heap *h) {
    entry top = h->items[0];
    entry last = h->items[--h->count];
    size_t n = h->count, parent = 0;
    if (n == 0) return top;
    for (;;) {
        size_t child = 2 * parent + 1;
        if (child >= n) break;
        if (child + 1 < n && precedes(&h->items[child + 1], &h->items[child])) child++;
        if (!precedes(&h->items[child], &last)) break;
        h->items[parent] = h->items[child];
        parent = child;
    }
    h->items[parent] = last;
    return top;
}

/* xoshiro256** seeded through SplitMix64, as PushSimKernel's SeededRandom. */
typedef struct { uint64_t s[4]; } rng;

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static rng seeded(uint64_t seed) {
    rng r;
    for (int i = 0; i < 4; i++) r.s[i] = splitmix(&seed);
    return r;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next(rng *r) {
    uint64_t result = rotl(r->s[1] * 5, 7) * 9, t = r->s[1] << 17;
    r->s[2] ^= r->s[0]; r->s[3] ^= r->s[1]; r->s[1] ^= r->s[2]; r->s[0] ^= r->s[3];
    r->s[2] ^= t;
    r->s[3] = rotl(r->s[3], 45);
    return result;
}

/* Uniform in 1...max: Lemire's unbiased multiply-and-reject over `max` values. */
static int64_t increment(rng *r, uint64_t max) {
    unsigned __int128 m = (unsigned __int128)next(r) * max;
    if ((uint64_t)m < max) {
        uint64_t threshold = (0 - max) % max;
        while ((uint64_t)m < threshold) m = (unsigned __int128)next(r) * max;
    }
    return 1 + (int64_t)(m >> 64);
}

static const uint64_t max_increment = 1000000;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Builds the queue (untimed), then times `ops` hold operations; returns seconds. */
static double hold_run(size_t pending, size_t ops, uint64_t seed, uint64_t *checksum_out) {
    rng r = seeded(seed);
    heap h = { malloc((pending + 1) * sizeof(entry)), 0, 0 };
    if (!h.items) { fprintf(stderr, "hold-heap: out of memory\n"); exit(1); }
    for (size_t i = 0; i < pending; i++) push(&h, i, increment(&r, max_increment));
    uint64_t checksum = 0;
    int64_t last = 0;
    size_t out_of_order = 0;
    double start = now_seconds();
    for (size_t k = 0; k < ops; k++) {
        entry e = pop(&h);
        if (e.time < last) out_of_order++;
        last = e.time;
        checksum = (checksum * 31 + (uint64_t)e.time) ^ e.payload;
        push(&h, e.payload, e.time + increment(&r, max_increment));
    }
    double elapsed = now_seconds() - start;
    if (h.count != pending || out_of_order) { fprintf(stderr, "hold-heap: %zu events out of order\n", out_of_order); exit(1); }
    free(h.items);
    *checksum_out = checksum;
    return elapsed;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static size_t option(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) { fprintf(stderr, "hold-heap: %s needs a value\n", argv[*i]); exit(2); }
    char *end;
    unsigned long long v = strtoull(argv[++*i], &end, 10);
    if (*end) { fprintf(stderr, "hold-heap: %s needs a non-negative integer\n", argv[*i - 1]); exit(2); }
    return (size_t)v;
}

int main(int argc, char **argv) {
    size_t pending = 1000000, ops = 10000000, reps = 3;
    uint64_t seed = 0x5eed2026;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pending")) pending = option(argc, argv, &i);
        else if (!strcmp(argv[i], "--ops")) ops = option(argc, argv, &i);
        else if (!strcmp(argv[i], "--reps")) reps = option(argc, argv, &i);
        else if (!strcmp(argv[i], "--seed")) seed = option(argc, argv, &i);
        else { fprintf(stderr, "usage: hold-heap [--pending N] [--ops N] [--reps N] [--seed N]\n"); return 2; }
    }
    if (pending == 0 || reps == 0 || reps > 100) { fprintf(stderr, "hold-heap: --pending must be at least 1, --reps 1 to 100\n"); return 2; }
    printf("hold-heap: hold model, C binary heap, pending %zu, ops %zu, reps %zu, seed %llu\n",
           pending, ops, reps, (unsigned long long)seed);
    uint64_t warm_sum, sum;
    double warm = hold_run(pending, ops, seed, &warm_sum), times[100];
    printf("warm-up: %.3f s (%.2fM events/s)\n", warm, ops / warm / 1e6);
    for (size_t r = 0; r < reps; r++) {
        times[r] = hold_run(pending, ops, seed, &sum);
        printf("rep %zu: %.3f s (%.2fM events/s)\n", r + 1, times[r], ops / times[r] / 1e6);
        if (sum != warm_sum) { fprintf(stderr, "hold-heap: checksum differs across reps\n"); return 1; }
    }
    qsort(times, reps, sizeof times[0], by_value);
    printf("best:   %.2fM events/s\n", ops / times[0] / 1e6);
    printf("median: %.2fM events/s\n", ops / times[reps / 2] / 1e6);
    printf("checksum of popped times: 0x%llx\n", (unsigned long long)warm_sum);
    return 0;
}
